import { useRef } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useTranslation } from "@/i18n";
import { emailCheckSchema, type EmailCheckInput } from "@voltio/domain/account";
import { showToast } from "@/components/ui/toast";
import { failureText } from "@/components/form";
import { useTakeOver, type Handover } from "@/components/form-on-first-use";
import { EmailField } from "./EmailField";
import { EmailStepView, type EmailStepProps } from "./EmailStepView";
import { focusFirstInvalid } from "./keep-typed";

/** The e-mail step's real form: it takes over what was typed in the plain one (EmailStep). */
export function EmailStepForm({ onChecked, google, handover }: EmailStepProps & { handover: Handover }) {
  const { t } = useTranslation();
  const formRef = useRef<HTMLFormElement>(null);
  const form = useForm<EmailCheckInput>({
    resolver: zodResolver(emailCheckSchema),
    defaultValues: { email: handover.values.email ?? "" },
    reValidateMode: "onSubmit",
  });

  const submit = form.handleSubmit(async ({ email }) => {
    try {
      await onChecked(email);
    } catch (error) {
      showToast(failureText(t, error), "error");
    }
  }, focusFirstInvalid(form));
  useTakeOver(formRef, handover, () => void submit());

  return (
    <EmailStepView
      google={google}
      form={{ ref: formRef, onSubmit: (event) => void submit(event) }}
      submitting={form.formState.isSubmitting}
    >
      <EmailField
        error={form.formState.errors.email?.message}
        {...form.register("email", { onChange: () => form.clearErrors("email") })}
      />
    </EmailStepView>
  );
}
