import { useState } from "react";
import { useTranslation } from "@/i18n";
import { Mail } from "lucide-react";
import type { User } from "@voltio/domain/account";
import { useUpdateUser } from "@/api/session-mutations";
import { ConfirmDialog } from "./ConfirmDialog";
import { Card } from "./ui/Card";
import { focusRingClass } from "./ui/focus-ring";
import { showToast } from "./ui/toast";

/** The toggle asks 'Are you sure ?' before it changes newsletterSubscription (docs/product-rules.md §1, §9). */
export default function NewsletterOptIn({ user }: { user: User }) {
  const { t } = useTranslation();
  const updateUser = useUpdateUser();
  const [asking, setAsking] = useState(false);
  const [saving, setSaving] = useState(false);
  const subscribed = user.newsletterSubscription;

  const accept = async () => {
    setSaving(true);
    try {
      await updateUser.mutateAsync({ newsletterSubscription: !subscribed });
      showToast(subscribed ? t("newsletter.unsubscribed") : t("newsletter.subscribed"));
    } catch {
      showToast(t("auth.failed"), "error");
    } finally {
      setSaving(false);
      setAsking(false);
    }
  };

  return (
    <Card
      as="section"
      size="lg"
      raised
      aria-labelledby="newsletter-title"
      className="flex flex-col gap-5 p-6 sm:flex-row sm:items-center sm:p-8"
    >
      <span className="grid h-14 w-14 shrink-0 place-items-center rounded-2xl bg-accent-soft text-accent-strong">
        <Mail size={28} aria-hidden />
      </span>
      <div className="flex-1">
        <h2 id="newsletter-title" className="text-xl font-bold tracking-tight text-ink">
          {t("newsletter.title")}
        </h2>
        <p className="mt-1 text-muted">{t("newsletter.text")}</p>
      </div>
      <label className="flex cursor-pointer items-center gap-3 self-start sm:self-center">
        <span className="text-sm font-medium text-ink">{t("newsletter.toggle")}</span>
        <button
          type="button"
          role="switch"
          aria-checked={subscribed}
          onClick={() => setAsking(true)}
          className={`relative inline-flex h-7 w-12 shrink-0 items-center rounded-full transition ${focusRingClass} ${
            subscribed ? "bg-accent" : "bg-line"
          }`}
        >
          <span
            className={`inline-block h-5 w-5 rounded-full bg-white shadow transition ${
              subscribed ? "translate-x-6" : "translate-x-1"
            }`}
          />
        </button>
      </label>
      <ConfirmDialog
        open={asking}
        onOpenChange={setAsking}
        title={t("newsletter.confirm")}
        description={subscribed ? t("newsletter.willUnsubscribe") : t("newsletter.willSubscribe")}
        onAccept={() => void accept()}
        busy={saving}
      />
    </Card>
  );
}
