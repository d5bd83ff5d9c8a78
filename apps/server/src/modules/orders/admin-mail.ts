import type { MailMessage } from "../../integrations/mail/outbox";

/**
 * The buyer's e-mail when an admin moves their order on: on its way, delivered or
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
  /** The order page at the store; null for a purchase without a number. */
  link: string | null;
  /** The parcel's tracking, once the admin gave it when shipping. */
  tracking: { number: string; carrier: string | null; url: string | null } | null;
}

/** The order page of a purchase at the store's address: every order e-mail links it. */
export const orderPageUrl = (storeUrl: string, number: string) =>
  `${storeUrl.replace(/\/+$/, "")}/purchases/${encodeURIComponent(number)}`;

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
  // The shipping and delivery e-mails name the parcel; a cancelled one doesn't travel.
  const tracking = status !== "cancelled" ? order.tracking : null;
  const trackingLines = (label: { number: string; carrier: string; follow: string }) =>
    tracking
      ? [
          "",
          `${label.number}: ${tracking.number}`,
          ...(tracking.carrier ? [`${label.carrier}: ${tracking.carrier}`] : []),
          ...(tracking.url ? [`${label.follow}: ${tracking.url}`] : []),
        ]
      : [];
  const link = (label: string) => (order.link ? ["", `${label}: ${order.link}`] : []);
  return {
    to,
    subject: `Voltio: your ${en} ${text.en} / tu ${es} ${text.es}`,
    dedupeKey: `order-status:${order.kind}:${order.id}:${change}`,
    text: [
      `Your ${en} ${text.en}.`,
      "",
      ...items,
      ...trackingLines({ number: "Tracking number", carrier: "Carrier", follow: "Track it" }),
      ...(status === "cancelled" ? ["", "If you had paid for it, the store will refund you."] : []),
      ...link("See your order"),
      "",
      "—",
      `Tu ${es} ${text.es}.`,
      "",
      ...items,
      ...trackingLines({ number: "Número de seguimiento", carrier: "Transportista", follow: "Seguilo" }),
      ...(status === "cancelled" ? ["", "Si lo habías pagado, la tienda te devolverá el dinero."] : []),
      ...link("Mirá tu pedido"),
    ].join("\n"),
  };
}
