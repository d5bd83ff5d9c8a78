import { formatDollars, toDollars } from "@voltio/domain/money";
import type { RefundBody } from "@voltio/domain/payments";
import type { Translate } from "@/i18n";

/** The refund form as typed: the amount stays the text the admin typed ("31.50") until it is sent. */
export interface RefundDraft {
  amount: string;
  reason: string;
}

export type RefundField = keyof RefundDraft;
export type RefundErrors = Partial<Record<RefundField, string>>;

/** The server's limit on a reason (refundBodySchema: one line of at most 500 characters). */
export const REASON_MAX = 500;

/** The amount box keeps digits and one decimal separator, as typed; a comma reads as the point. */
export const typedAmount = (text: string) => {
  const kept = text.replace(/[^\d.,]/g, "");
  const separator = kept.search(/[.,]/);
  return separator < 0
    ? kept
    : `${kept.slice(0, separator + 1)}${kept.slice(separator + 1).replace(/[.,]/g, "")}`;
};

/** What is left of a payment to refund, in cents. */
export const leftCents = (payment: { amount: number; refunded: number }) =>
  Math.max(0, Math.round(payment.amount * 100) - Math.round(payment.refunded * 100));

/** The box's first value: all that is left, as "31.50". */
export const prefilledAmount = (cents: number) => formatDollars(toDollars(cents));

/**
 * The form checked by the server's rules (refundBodySchema) plus the one it can't know here — at most what is
 * left — with the rule in the admin's language. The body sends the amount always, so what the admin confirmed
 * is what is refunded, even if the list was out of date.
 */
export function checkRefund(
  draft: RefundDraft,
  left: number,
  t: Translate,
): { errors: RefundErrors; body?: RefundBody & { amount: number }; cents?: number } {
  const errors: RefundErrors = {};
  const text = draft.amount.trim().replace(",", ".");
  let cents: number | undefined;
  if (!text) errors.amount = t("admin.payments.rules.amountRequired");
  else if (!/^(\d+(\.\d*)?|\.\d+)$/.test(text)) errors.amount = t("admin.payments.rules.amountInvalid");
  else if ((text.split(".")[1] ?? "").length > 2) errors.amount = t("admin.payments.rules.amountDecimals");
  else {
    cents = Math.round(Number(text) * 100);
    if (cents <= 0) errors.amount = t("admin.payments.rules.amountPositive");
    else if (cents > left)
      errors.amount = t("admin.payments.rules.amountTooHigh", { left: prefilledAmount(left) });
  }
  const reason = draft.reason.trim().replace(/\s+/g, " ");
  if (!reason) errors.reason = t("admin.payments.rules.reasonRequired");
  else if (reason.length > REASON_MAX) errors.reason = t("admin.payments.rules.reasonTooLong");
  if (errors.amount || errors.reason || cents === undefined) return { errors };
  return { errors, body: { amount: toDollars(cents), reason }, cents };
}

/**
 * The server's refusal put on the field it names ({details: [{field, reason}]}, e.g. an amount above what is
 * left); null when it names none of the form's fields.
 */
export function serverFieldErrors(body: unknown): RefundErrors | null {
  const details = (body as { details?: unknown } | undefined)?.details;
  if (!Array.isArray(details)) return null;
  const errors: RefundErrors = {};
  for (const detail of details as { field?: unknown; reason?: unknown; message?: unknown }[]) {
    const field = String(detail.field ?? "");
    const text = String(detail.reason ?? detail.message ?? "");
    if ((field === "amount" || field === "reason") && text && !errors[field]) errors[field] = text;
  }
  return errors.amount || errors.reason ? errors : null;
}
