import { useId, useRef, useState, type FormEvent } from "react";
import { Controller, useForm, useWatch } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { CircleCheck, LoaderCircle, Send } from "lucide-react";
import type { z } from "zod";
import { useTranslation } from "@/i18n";
import {
  NEWSLETTER_MESSAGE_MAX,
  NEWSLETTER_MESSAGES,
  NEWSLETTER_TITLE_MAX,
  newsletterInputSchema,
  type NewsletterInput,
  type NewsletterSendReply,
} from "@voltio/domain/newsletter";
import { ApiError } from "@/api/client";
import { ConfirmDialog } from "@/components/ConfirmDialog";
import { Button } from "@/components/ui/Button";
import { Card } from "@/components/ui/Card";
import { Modal } from "@/components/ui/Modal";
import { showToast } from "@/components/ui/toast";
import { Field } from "../Field";
import { useSendNewsletter } from "./api";
import { addTyped, hasAll, ruleText } from "./receivers";
import { ReceiversPicker } from "./ReceiversPicker";

/** The shared schema, plus the picker's own rule: a newsletter goes to someone. */
const formSchema = newsletterInputSchema.extend({
  receivers: newsletterInputSchema.shape.receivers.min(1, NEWSLETTER_MESSAGES.noReceivers),
});
type FormValues = z.input<typeof formSchema>;

const EMPTY: FormValues = { title: "", message: "", receivers: [] };

const inputClass = (error?: string) =>
  `w-full rounded-xl border bg-surface px-3 text-sm text-ink placeholder:text-muted focus:outline-2 focus:-outline-offset-1 ${error ? "border-sale focus:outline-sale" : "border-line focus:border-accent focus:outline-accent"}`;

/**
 * docs/product-rules.md §1 'Edit Newsletter', §9 Newsletter: subject, message and receivers, checked by the schema the
 * server checks with ('Subject is required', 'Message is required'), a preview of the e-mail as it will
 * read, and Send → POST /emails → 'Email sent !'. A send to 'All' asks first, with how many it reaches
 *: one click must not mail every subscriber.
 */
export function NewsletterForm({ subscribers }: { subscribers: number | undefined }) {
  const { t } = useTranslation();
  const id = useId();
  const sendNewsletter = useSendNewsletter();
  const form = useForm<FormValues, unknown, NewsletterInput>({
    resolver: zodResolver(formSchema),
    defaultValues: EMPTY,
  });
  const { errors, isSubmitting } = form.formState;
  const [draft, setDraft] = useState("");
  const [sent, setSent] = useState<NewsletterSendReply | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  /** A valid newsletter to 'All', waiting for the admin's confirmation. */
  const [confirming, setConfirming] = useState<NewsletterInput | null>(null);
  const [sending, setSending] = useState(false);
  const receiversInput = useRef<HTMLInputElement>(null);
  const [title, message, receivers] = useWatch({
    control: form.control,
    name: ["title", "message", "receivers"],
  });

  const send = async (values: NewsletterInput) => {
    setFailure(null);
    setSending(true);
    try {
      setSent(await sendNewsletter.mutateAsync(values));
      form.reset(EMPTY);
      setDraft("");
    } catch (error) {
      if (!(error instanceof ApiError) || error.status >= 500 || error.status < 400) {
        showToast(t("admin.newsletter.failed"), "error");
        return;
      }
      const details = (error.body as { details?: { field: string; reason: string }[] } | undefined)?.details;
      const fields = (details ?? []).filter((detail) =>
        ["title", "message", "receivers"].includes(detail.field.split(".")[0]!),
      );
      for (const { field, reason } of fields)
        form.setError(field.split(".")[0] as keyof FormValues, { type: "server", message: reason });
      if (fields.length === 0) setFailure(error.message);
    } finally {
      setSending(false);
    }
  };

  const confirmed = () => {
    const values = confirming;
    setConfirming(null);
    if (values) void send(values);
  };

  const submit = (event: FormEvent) => {
    // An address typed and not yet added goes with the send, as a person expects.
    if (draft.trim()) {
      form.setValue("receivers", addTyped(form.getValues("receivers"), draft));
      setDraft("");
    }
    const checked = (values: NewsletterInput) =>
      hasAll(values.receivers) ? setConfirming(values) : send(values);
    void form.handleSubmit(checked, (invalid) => {
      if (invalid.receivers && !invalid.title && !invalid.message) receiversInput.current?.focus();
    })(event);
  };

  const error = (field: keyof FormValues) => {
    const text = errors[field]?.message;
    return text ? ruleText(t, text) : undefined;
  };

  return (
    <Card as="section" size="lg" aria-labelledby={`${id}-heading`} className="@container p-4 sm:p-6">
      <h2 id={`${id}-heading`} className="mb-4 text-lg font-semibold text-ink">
        {t("admin.newsletter.compose")}
      </h2>
      <div className="grid gap-6 @3xl:grid-cols-[minmax(0,1fr)_minmax(0,22rem)]">
        <form onSubmit={submit} noValidate aria-labelledby={`${id}-heading`} className="flex flex-col gap-4">
          <Field id={`${id}-title`} label={t("admin.newsletter.subject")} error={error("title")}>
            <input
              id={`${id}-title`}
              {...form.register("title")}
              maxLength={NEWSLETTER_TITLE_MAX}
              autoComplete="off"
              aria-invalid={error("title") ? true : undefined}
              aria-describedby={error("title") ? `${id}-title-error` : undefined}
              className={`${inputClass(error("title"))} h-11`}
            />
          </Field>
          <Field id={`${id}-message`} label={t("admin.newsletter.message")} error={error("message")}>
            <textarea
              id={`${id}-message`}
              {...form.register("message")}
              rows={8}
              maxLength={NEWSLETTER_MESSAGE_MAX}
              aria-invalid={error("message") ? true : undefined}
              aria-describedby={error("message") ? `${id}-message-error` : undefined}
              className={`${inputClass(error("message"))} resize-y py-2 leading-relaxed`}
            />
          </Field>
          <Controller
            control={form.control}
            name="receivers"
            render={({ field }) => (
              <ReceiversPicker
                value={field.value}
                onChange={(next) => {
                  field.onChange(next);
                  if (next.length > 0) form.clearErrors("receivers");
                }}
                draft={draft}
                onDraftChange={setDraft}
                subscribers={subscribers}
                error={error("receivers")}
                inputRef={receiversInput}
              />
            )}
          />
          <div role="alert">
            {failure && (
              <p className="rounded-xl border border-sale bg-card px-4 py-3 text-sm font-semibold text-sale">
                {failure}
              </p>
            )}
          </div>
          <Button
            type="submit"
            size="lg"
            disabled={isSubmitting || sending}
            aria-busy={isSubmitting || sending}
            className="self-start sm:min-w-40"
          >
            {isSubmitting || sending ? (
              <LoaderCircle size={18} aria-hidden className="animate-spin" />
            ) : (
              <Send size={18} aria-hidden />
            )}
            {isSubmitting || sending ? t("admin.newsletter.sending") : t("admin.newsletter.send")}
          </Button>
        </form>
        <Preview
          title={title}
          message={message}
          receivers={receivers}
          subscribers={subscribers}
          headingId={`${id}-preview`}
        />
      </div>

      <ConfirmDialog
        open={confirming !== null}
        onOpenChange={(open) => {
          if (!open) setConfirming(null);
        }}
        title={t("customer.newsletterConfirm.title")}
        description={confirming && <Reach receivers={confirming.receivers} subscribers={subscribers} />}
        onAccept={confirmed}
      />

      <Modal
        open={sent !== null}
        onOpenChange={(open) => !open && setSent(null)}
        title={
          <span className="flex flex-col items-center gap-3">
            <CircleCheck size={40} aria-hidden className="text-success" />
            {t("admin.newsletter.sent")}
          </span>
        }
        description={
          sent && (
            <>
              {t("admin.newsletter.sentQueued", { count: sent.queued })}
              {sent.skipped > 0 && <> {t("admin.newsletter.sentSkipped", { count: sent.skipped })}</>}
            </>
          )
        }
        className="px-8 pt-10 pb-7 text-center"
      >
        <div className="mt-6 flex justify-center">
          <Button onClick={() => setSent(null)} className="min-w-24">
            {t("common.close")}
          </Button>
        </div>
      </Modal>
    </Card>
  );
}

/** Whom a newsletter to 'All' reaches: every subscriber (how many, when known) and the typed addresses. */
function Reach({
  receivers,
  subscribers,
}: {
  receivers: readonly string[];
  subscribers: number | undefined;
}) {
  const { t } = useTranslation();
  const typed = receivers.filter((receiver) => !hasAll([receiver])).length;
  return (
    <>
      {subscribers === undefined
        ? t("customer.newsletterConfirm.unknown")
        : t("customer.newsletterConfirm.count", { count: subscribers })}
      {typed > 0 && <> {t("customer.newsletterConfirm.more", { count: typed })}</>}
    </>
  );
}

/** The e-mail as receivers will read it: plain text, the unsubscribe link added by the server at the end. */
function Preview({
  title,
  message,
  receivers,
  subscribers,
  headingId,
}: {
  title: string;
  message: string;
  receivers: string[];
  subscribers: number | undefined;
  headingId: string;
}) {
  const { t } = useTranslation();
  const typed = receivers.filter((receiver) => !hasAll([receiver])).length;
  const to = hasAll(receivers)
    ? typed > 0
      ? t("admin.newsletter.preview.toAllAnd", { count: typed })
      : subscribers === undefined
        ? t("admin.newsletter.allSubscribers")
        : t("admin.newsletter.allSubscribersCount", { count: subscribers })
    : t("admin.newsletter.preview.to", { count: typed });
  return (
    <section aria-labelledby={headingId} className="flex min-w-0 flex-col gap-2">
      <h3 id={headingId} className="text-sm font-medium text-ink">
        {t("admin.newsletter.preview.title")}
      </h3>
      <div className="flex min-h-64 flex-col overflow-hidden rounded-2xl border border-line bg-surface text-sm">
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 border-b border-line px-4 py-3 text-xs">
          <dt className="text-muted">{t("admin.newsletter.preview.from")}</dt>
          <dd className="text-ink">Voltio</dd>
          <dt className="text-muted">{t("admin.newsletter.preview.toLabel")}</dt>
          <dd className="text-ink">{to}</dd>
          <dt className="text-muted">{t("admin.newsletter.subject")}</dt>
          <dd className="font-semibold break-words text-ink">
            {title.trim() || (
              <span className="font-normal text-muted italic">{t("admin.newsletter.preview.noSubject")}</span>
            )}
          </dd>
        </dl>
        <div className="flex-1 px-4 py-3 leading-relaxed break-words whitespace-pre-wrap text-ink">
          {message.trim() || (
            <span className="text-muted italic">{t("admin.newsletter.preview.noMessage")}</span>
          )}
        </div>
        <p className="border-t border-dashed border-line px-4 py-3 text-xs text-muted">
          {t("admin.newsletter.preview.unsubscribe")}
        </p>
      </div>
    </section>
  );
}
