import type { ComponentProps, ReactNode } from "react";
import { useTranslation } from "@/i18n";
import { ArrowRight } from "lucide-react";
import { Button } from "@/components/ui/Button";
import { GoogleLogo } from "./GoogleLogo";

export interface EmailStepProps {
  onChecked: (email: string) => Promise<void>;
  google: (() => void) | undefined;
}

/** The step's markup, the same with plain boxes and with the real form. */
export function EmailStepView({
  google,
  form,
  submitting,
  children,
}: {
  google: (() => void) | undefined;
  form: Pick<ComponentProps<"form">, "ref" | "onSubmit" | "onInput" | "onPointerDown" | "onKeyDown">;
  submitting: boolean;
  /** The e-mail box. */
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <>
      <p className="mb-5 text-center text-muted">{t("auth.emailPrompt")}</p>
      <form {...form} noValidate className="flex flex-col gap-4">
        {children}
        <Button type="submit" disabled={submitting} className="w-full">
          {t("auth.continue")}
          <ArrowRight size={18} aria-hidden />
        </Button>
      </form>
      {google && (
        <>
          <div className="my-5 flex items-center gap-3 text-xs tracking-wide text-muted uppercase">
            <span className="h-px flex-1 bg-line" />
            {t("auth.or")}
            <span className="h-px flex-1 bg-line" />
          </div>
          <Button variant="secondary" onClick={google} className="w-full">
            <GoogleLogo />
            {t("auth.google")}
          </Button>
        </>
      )}
    </>
  );
}
