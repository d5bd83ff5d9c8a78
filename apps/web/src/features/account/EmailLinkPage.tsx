import { useState } from "react";
import { Link, useLocation, useSearchParams } from "react-router";
import { CircleAlert, CircleCheck, MailCheck } from "lucide-react";
import { ACCOUNT_MESSAGES } from "@voltio/domain/account-messages";
import { useTranslation } from "@/i18n";
import { ApiError } from "@/api/client";
import { tokens } from "@/api/tokens";
import { ruleText } from "@/components/TextField";
import { Button } from "@/components/ui/Button";
import { Card } from "@/components/ui/Card";
import { usePageTitle } from "@/components/page-title";
import { failureText, linkButtonClass } from "@/components/form";
import { useConfirmEmail, useRevertEmail } from "./email-change-api";

const TOKEN = /^[A-Za-z0-9_-]{43}$/;

type Outcome = { done: true; email: string } | { done: false; problem: string };

/**
 * /user/email/confirm?token=… (the link sent to a new address) and /user/email/revert?token=… (the "this
 * wasn't me" link sent to the old one). The link is used only when its button is pressed, so a mail
 * scanner that opens links changes nothing; then the page says what happened, or why the link didn't work.
 */
export function EmailLinkPage() {
  const { t } = useTranslation();
  const revert = useLocation().pathname.endsWith("/revert");
  const title = t(revert ? "emailChange.revertTitle" : "emailChange.confirmTitle");
  usePageTitle(t("titles.page", { page: title }));
  const token = useSearchParams()[0].get("token")?.trim() ?? "";
  const confirmEmail = useConfirmEmail();
  const revertEmail = useRevertEmail();
  const [outcome, setOutcome] = useState<Outcome | null>(
    TOKEN.test(token) ? null : { done: false, problem: ruleText(t, ACCOUNT_MESSAGES.emailLinkInvalid) },
  );
  const busy = confirmEmail.isPending || revertEmail.isPending;
  // Read once per render: after a revert the session is gone.
  const signedIn = tokens.present();

  const use = async () => {
    try {
      const { email } = await (revert ? revertEmail : confirmEmail).mutateAsync({ token });
      setOutcome({ done: true, email });
    } catch (error) {
      setOutcome({ done: false, problem: problemText(t, error) });
    }
  };

  return (
    <div className="mx-auto flex max-w-md flex-col items-center py-6 sm:py-12">
      <Card size="lg" raised className="w-full p-6 sm:p-8">
        <div className="mb-6 flex flex-col items-center gap-3 text-center">
          <span className="grid h-12 w-12 place-items-center rounded-2xl bg-accent text-on-accent shadow-sm">
            <MailCheck size={24} aria-hidden />
          </span>
          <h1 className="text-2xl font-bold tracking-tight text-ink">{title}</h1>
        </div>
        {/* Both live regions are always there, so screen readers read what appears in them. */}
        <div role="status">
          {outcome?.done && (
            <div className="flex flex-col gap-4">
              <p className="flex gap-3 rounded-xl border border-line bg-surface px-4 py-3 text-sm text-ink">
                <CircleCheck size={20} aria-hidden className="shrink-0 text-success" />
                <span className="min-w-0 wrap-anywhere">
                  {t(revert ? "emailChange.reverted" : "emailChange.confirmed", { email: outcome.email })}
                </span>
              </p>
              {revert && <p className="font-medium text-ink">{t("emailChange.resetNow")}</p>}
            </div>
          )}
        </div>
        <div role="alert">
          {outcome && !outcome.done && (
            <p className="flex gap-3 rounded-xl border border-sale px-4 py-3 text-sm text-ink">
              <CircleAlert size={20} aria-hidden className="shrink-0 text-sale" />
              <span>{outcome.problem}</span>
            </p>
          )}
        </div>
        {outcome === null && (
          <div className="flex flex-col gap-4">
            <p className="text-center text-muted">
              {t(revert ? "emailChange.revertPrompt" : "emailChange.confirmPrompt")}
            </p>
            <Button onClick={() => void use()} disabled={busy} className="w-full">
              {t(revert ? "emailChange.revertButton" : "emailChange.confirmButton")}
            </Button>
          </div>
        )}
        {outcome && (
          <div className="mt-5 flex justify-center">
            {revert && outcome.done ? (
              <Link to="/password/forgot" state={{ email: outcome.email }} className={linkButtonClass}>
                {t("emailChange.resetLink")}
              </Link>
            ) : signedIn ? (
              <Link to="/user" className={linkButtonClass}>
                {t("emailChange.toProfile")}
              </Link>
            ) : (
              <Link to="/login" className={linkButtonClass}>
                {t("emailChange.toLogin")}
              </Link>
            )}
          </div>
        )}
      </Card>
    </div>
  );
}

/** Why the link didn't work, in the shopper's language. */
function problemText(t: (key: string) => string, error: unknown): string {
  if (!(error instanceof ApiError)) return failureText(t, error);
  const body = error.body as { error?: string; details?: { field: string; reason: string }[] } | undefined;
  const reason = body?.details?.find((detail) => detail.field === "token")?.reason;
  if (reason) return ruleText(t, reason);
  if (error.status === 409) {
    return body?.error === ACCOUNT_MESSAGES.emailRevertTaken
      ? ruleText(t, body.error)
      : t("auth.emailExists");
  }
  return failureText(t, error);
}

export default EmailLinkPage;
