import { formatDollars } from "@voltio/domain/money";
import type { ShippingAddress } from "../../db/schema";
import type { MailMessage } from "../../integrations/mail/outbox";

/**
 * The buyer's e-mails about a checkout (issue 10 point 6), queued in the transaction that settles it. The
 * store doesn't know the buyer's language, so each message says it in English, then in Spanish.
 */
export interface SettledLine {
  title: string;
  amount: number;
  lineTotalCents: number | null;
  shippingCostCents: number | null;
}

const dollars = (cents: number) => `US$ ${formatDollars(cents / 100)}`;

const addressLine = (address: ShippingAddress) =>
  [
    `${address.street} ${address.streetNumber}`,
    [address.floor, address.unit].filter(Boolean).join(" "),
    `${address.postalCode} ${address.city}`,
  ]
    .filter(Boolean)
    .join(", ");

export function orderConfirmation(
  checkout: { id: number; shippingAddress: ShippingAddress },
  to: string,
  paymentId: string,
  lines: SettledLine[],
): MailMessage {
  const products = lines.reduce((sum, line) => sum + (line.lineTotalCents ?? 0), 0);
  const shipping = lines.reduce((sum, line) => sum + (line.shippingCostCents ?? 0), 0);
  const items = lines.map((line) => `- ${line.title} × ${line.amount}: ${dollars(line.lineTotalCents ?? 0)}`);
  return {
    to,
    subject: `Voltio: order ${checkout.id} confirmed / pedido ${checkout.id} confirmado`,
    dedupeKey: `order-confirmation:checkout:${checkout.id}`,
    text: [
      `Thank you for your purchase! Your payment ${paymentId} was approved.`,
      "",
      ...items,
      `Products: ${dollars(products)}`,
      `Shipping: ${dollars(shipping)}`,
      `Total: ${dollars(products + shipping)}`,
      "",
      `Ship to: ${addressLine(checkout.shippingAddress)}`,
      "",
      "—",
      `¡Gracias por tu compra! Tu pago ${paymentId} fue aprobado. Total: ${dollars(products + shipping)}.`,
      `Envío a: ${addressLine(checkout.shippingAddress)}`,
    ].join("\n"),
  };
}

export function refundNotice(checkout: { id: number }, to: string, paymentId: string): MailMessage {
  return {
    to,
    subject: `Voltio: order ${checkout.id} can't be completed / el pedido ${checkout.id} no puede completarse`,
    dedupeKey: `order-refund:checkout:${checkout.id}`,
    text: [
      `We received your payment ${paymentId}, but the products ran out before it arrived.`,
      "Your order was cancelled and the store will refund you.",
      "",
      "—",
      `Recibimos tu pago ${paymentId}, pero los productos se agotaron antes de que llegara.`,
      "Tu pedido fue cancelado y la tienda te devolverá el dinero.",
    ].join("\n"),
  };
}
