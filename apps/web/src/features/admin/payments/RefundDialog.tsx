import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { TriangleAlert } from "lucide-react";
import { useTranslation } from "@/i18n";
import type { AdminPayment, RefundReply } from "@voltio/domain/payments";
import { formatDollars, toDollars } from "@voltio/domain/money";
import { ApiError } from "@/api/client";
import { Button } from "@/components/ui/Button";
import { Modal } from "@/components/ui/Modal";
import { focusRingClass } from "@/components/ui/focus-ring";
import { Field } from "../Field";
import {
  REASON_MAX,
  checkRefund,
  leftCents,
  prefilledAmount,
  serverFieldErrors,
  typedAmount,
  type RefundDraft,
  type RefundErrors,
  type RefundField,
} from "./refund-form";
import { useRefundPayment } from "./api";

export interface RefundDialogProps {
  /** The payment to refund; null closes the dialog. */
  payment: AdminPayment | null;
  onClose: () => void;
  /** The server took the refund: the page toasts (the list is read again after it). */
  onRefunded: (reply: RefundReply, payment: AdminPayment) => void;
}

/**
 * 'Refund' on a payment: the amount (all that is left, editable for a partial refund) and a required reason,
 * then a confirmation that says what will happen. What the server refuses shows on the field it names, or
 * above the form when it names none (nothing left: 409).
 */
export function RefundDialog({ payment, onClose, onRefunded }: RefundDialogProps) {
  const { t } = useTranslation();
  return (
    <Modal
      open={payment !== null}
      onOpenChange={(open) => !open && onClose()}
      title={payment ? t("admin.payments.dialog.title", { reference: referenceOf(payment) }) : ""}
      closeLabel={t("common.close")}
      size="lg"
      className="p-6"
    >
      {/* Keyed by the payment: another payment starts a fresh form. */}
      {payment && <RefundForm key={payment.id} payment={payment} onClose={onClose} onRefunded={onRefunded} />}
    </Modal>
  );
}

/** A payment as the admin tells it apart: its order number, else its provider's id. */
export const referenceOf = (payment: Pick<AdminPayment, "orderNumbers" | "providerPaymentId">) =>
  payment.orderNumbers[0] ?? payment.providerPaymentId;

function RefundForm({
  payment,
  onClose,
  onRefunded,
}: {
  payment: AdminPayment;
  onClose: () => void;
  onRefunded: RefundDialogProps["onRefunded"];
}) {
  const { t } = useTranslation();
  const left = leftCents(payment);
  const [draft, setDraft] = useState<RefundDraft>({ amount: prefilledAmount(left), reason: "" });
  const [errors, setErrors] = useState<RefundErrors>({});
  const [problem, setProblem] = useState<string | null>(null);
  // The checked amount, once the admin asked to review it: the confirmation step.
  const [confirming, setConfirming] = useState<{ cents: number; reason: string } | null>(null);
  const [sending, setSending] = useState(false);
  const amountId = useId();
  const reasonId = useId();
  const confirmTextId = useId();
  const amountInput = useRef<HTMLInputElement>(null);
  const reasonInput = useRef<HTMLInputElement>(null);
  const confirmText = useRef<HTMLParagraphElement>(null);
  // The box to focus once the form shows again (a step back, a rule broken, a refusal): a new object each time.
  const [focusRequest, setFocusRequest] = useState<{ field: RefundField } | null>(null);
  const reference = referenceOf(payment);

  // The confirmation takes the focus, so a screen reader reads its question first.
  useEffect(() => {
    if (confirming) confirmText.current?.focus();
  }, [confirming]);
  useEffect(() => {
    if (!focusRequest || confirming) return;
    (focusRequest.field === "amount" ? amountInput : reasonInput).current?.focus();
  }, [focusRequest, confirming]);

  const showErrors = (found: RefundErrors) => {
    setErrors(found);
    setFocusRequest({ field: found.amount ? "amount" : "reason" });
  };

  const review = (event: FormEvent) => {
    event.preventDefault();
    setProblem(null);
    const checked = checkRefund(draft, left, t);
    if (!checked.body) return showErrors(checked.errors);
    setErrors({});
    setConfirming({ cents: checked.cents!, reason: checked.body.reason });
  };

  const refund = useRefundPayment({
    onSuccess: (reply) => onRefunded(reply, payment),
    onError: (error) => {
      setSending(false);
      setConfirming(null);
      const onFields = error instanceof ApiError ? serverFieldErrors(error.body) : null;
      if (onFields) return showErrors(onFields);
      setProblem(
        error instanceof ApiError && error.status >= 400 && error.status < 500
          ? error.message
          : t("admin.payments.dialog.failed"),
      );
      setFocusRequest({ field: "amount" });
    },
  });
  const send = () => {
    if (!confirming) return;
    setSending(true);
    setProblem(null);
    refund.mutate({
      id: payment.id,
      body: { amount: toDollars(confirming.cents), reason: confirming.reason },
    });
  };

  const update = (field: RefundField, value: string) => {
    setDraft((current) => ({ ...current, [field]: value }));
    // The rule stays until the box is typed in again.
    if (errors[field]) setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const amountText = confirming ? formatDollars(toDollars(confirming.cents)) : "";
  return (
    <div className="mt-2 flex flex-col gap-4">
      <p className="text-sm text-muted tabular-nums">
        {t("admin.payments.dialog.summary", {
          amount: formatDollars(payment.amount),
          refunded: formatDollars(payment.refunded),
          left: prefilledAmount(left),
        })}
      </p>
      {problem && (
        <p
          role="alert"
          className="flex items-start gap-2 rounded-xl border border-sale bg-card p-3 text-sm text-ink"
        >
          <TriangleAlert size={16} aria-hidden className="mt-0.5 shrink-0 text-sale" />
          {problem}
        </p>
      )}
      {confirming ? (
        <div role="group" aria-labelledby={confirmTextId} className="flex flex-col gap-3">
          <p
            id={confirmTextId}
            ref={confirmText}
            tabIndex={-1}
            className={`rounded-lg text-base font-semibold text-ink ${focusRingClass}`}
          >
            {t("admin.payments.dialog.confirmTitle", { amount: amountText })}
          </p>
          <p className="text-sm text-ink">
            {t("admin.payments.dialog.confirmText", {
              amount: amountText,
              reference,
              user: payment.userId,
              provider: payment.provider,
            })}
          </p>
          <p className="text-sm text-ink">
            {confirming.cents === left
              ? t("admin.payments.dialog.confirmFull")
              : t("admin.payments.dialog.confirmPartial", {
                  after: prefilledAmount(left - confirming.cents),
                })}
          </p>
          <p className="text-sm break-words text-muted">
            {t("admin.payments.dialog.confirmReason", { reason: confirming.reason })}
          </p>
          <div className="mt-2 flex flex-wrap justify-end gap-3">
            <Button
              variant="secondary"
              onClick={() => {
                setConfirming(null);
                setFocusRequest({ field: "amount" });
              }}
              disabled={sending}
            >
              {t("admin.payments.dialog.back")}
            </Button>
            <Button variant="primary" onClick={send} disabled={sending} aria-busy={sending}>
              {sending
                ? t("admin.payments.dialog.sending")
                : t("admin.payments.dialog.confirm", { amount: amountText })}
            </Button>
          </div>
        </div>
      ) : (
        <form onSubmit={review} noValidate className="flex flex-col gap-4">
          <Field
            id={amountId}
            label={t("admin.payments.dialog.amount")}
            hint={t("admin.payments.dialog.amountHint", { left: prefilledAmount(left) })}
            error={errors.amount}
          >
            <input
              id={amountId}
              ref={amountInput}
              value={draft.amount}
              onChange={(event) => update("amount", typedAmount(event.target.value))}
              inputMode="decimal"
              autoComplete="off"
              required
              aria-invalid={errors.amount ? true : undefined}
              aria-describedby={`${amountId}-hint${errors.amount ? ` ${amountId}-error` : ""}`}
              className={fieldClass(Boolean(errors.amount))}
            />
          </Field>
          <Field
            id={reasonId}
            label={t("admin.payments.dialog.reason")}
            hint={t("admin.payments.dialog.reasonHint")}
            error={errors.reason}
          >
            <input
              id={reasonId}
              ref={reasonInput}
              value={draft.reason}
              onChange={(event) => update("reason", event.target.value)}
              maxLength={REASON_MAX}
              autoComplete="off"
              required
              aria-invalid={errors.reason ? true : undefined}
              aria-describedby={`${reasonId}-hint${errors.reason ? ` ${reasonId}-error` : ""}`}
              className={fieldClass(Boolean(errors.reason))}
            />
          </Field>
          <div className="mt-2 flex flex-wrap justify-end gap-3">
            <Button variant="secondary" onClick={onClose}>
              {t("admin.payments.dialog.cancel")}
            </Button>
            <Button type="submit">{t("admin.payments.dialog.review")}</Button>
          </div>
        </form>
      )}
    </div>
  );
}

const fieldClass = (invalid: boolean) =>
  `h-11 w-full rounded-xl border bg-card px-3 text-ink tabular-nums focus-visible:outline-2 focus-visible:outline-offset-1 ${
    invalid ? "border-sale focus-visible:outline-sale" : "border-line focus-visible:outline-accent"
  }`;
