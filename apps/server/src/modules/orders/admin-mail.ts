import type { MailMessage } from "../../integrations/mail/outbox";

/**
 * The buyer's e-mail when an admin moves their order on (issue 13 point 1): on its way, delivered or
 * cancelled. The store doesn't know the buyer's language, so the message says it in English, then in
 * Spanish, as the payment e-mails do (payments/order-mail.ts).
 */

export type NotifiedStatus = "onDelivery" | "delivered" | "cancelled";

export interface StatusMailOrder {
  kind: "order" | "bulk";
  id: number;
  /** The purchase's number (V-000123) once paid: the one the shopper saw on the result page and e-mails. */
  number: string | null;
  products: { title: string; amount: number }[];
}

/** Anonymised accounts (a deleted user) keep an address nobody reads: they get no mail. */
export const isDeletedAddress = (email: string) => email.toLowerCase().endsWith("@deleted.invalid");

const STATUS_TEXT: Record<NotifiedStatus, { en: string; es: string }> = {
  onDelivery: { en: "is on its way", es: "está en camino" },
  delivered: { en: "was delivered", es: "fue entregado" },
  cancelled: { en: "was cancelled", es: "fue cancelado" },
};

/**
 * `change` names this one move (the audit row written with it): a later move of the same order mails
 * again, while the same move can never queue a second copy.
 */
export function orderStatusMail(
  order: StatusMailOrder,
  status: NotifiedStatus,
  to: string,
  change: number,
): MailMessage {
  const name = order.number ?? `#${order.id}`;
  const [en, es] = [`order ${name}`, `pedido ${name}`];
  const text = STATUS_TEXT[status];
  const items = order.products.map((line) => `- ${line.title} × ${line.amount}`);
  return {
    to,
    subject: `Voltio: your ${en} ${text.en} / tu ${es} ${text.es}`,
    dedupeKey: `order-status:${order.kind}:${order.id}:${change}`,
    text: [
      `Your ${en} ${text.en}.`,
      "",
      ...items,
      ...(status === "cancelled" ? ["", "If you had paid for it, the store will refund you."] : []),
      "",
      "—",
      `Tu ${es} ${text.es}.`,
      "",
      ...items,
      ...(status === "cancelled" ? ["", "Si lo habías pagado, la tienda te devolverá el dinero."] : []),
    ].join("\n"),
  };
}
