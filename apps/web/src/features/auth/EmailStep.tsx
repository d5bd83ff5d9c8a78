import { useFormOnFirstUse } from "@/components/form-on-first-use";
import { EmailField } from "./EmailField";
import { EmailStepView, type EmailStepProps } from "./EmailStepView";

const loadForm = () => import("./EmailStepForm");

/**
 * Step 1: 'Put you mail to register or login', and 'Login with Google' when the store offers it. The first
 * screen of /login: its form's code comes once the visitor types or continues (EmailStepForm).
 */
export function EmailStep(props: EmailStepProps) {
  const { loaded, plainForm } = useFormOnFirstUse(loadForm);
  if (loaded) return <loaded.module.EmailStepForm {...props} handover={loaded.handover} />;
  return (
    <EmailStepView google={props.google} form={plainForm} submitting={false}>
      <EmailField name="email" defaultValue="" />
    </EmailStepView>
  );
}
