import { checkoutTotals } from "@voltio/domain/checkout";
import { formatDollars } from "@voltio/domain/money";
import { orderNumber } from "@voltio/domain/order-status";
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

/** The order page of a checkout's purchase, at the store's address the buyer paid from (issue 23 point 1). */
export const orderPageOf = (checkout: { id: number; baseUrl: string }) =>
  `${checkout.baseUrl.replace(/\/+$/, "")}/purchases/${orderNumber(checkout.id)}`;

export function orderConfirmation(
  checkout: { id: number; shippingAddress: ShippingAddress; baseUrl: string },
  to: string,
  providerPaymentId: string,
  lines: SettledLine[],
): MailMessage {
  // The one money rule (ADR 0015): the same three figures as the cart, checkout and the order page.
  const { productsCents, shippingCents, totalCents } = checkoutTotals(
    lines.map((line) => ({
      lineTotalCents: line.lineTotalCents ?? 0,
      shippingCents: line.shippingCostCents ?? 0,
    })),
  );
  const items = lines.map((line) => `- ${line.title} × ${line.amount}: ${dollars(line.lineTotalCents ?? 0)}`);
  const number = orderNumber(checkout.id);
  return {
    to,
    subject: `Voltio: order ${number} confirmed / pedido ${number} confirmado`,
    dedupeKey: `order-confirmation:checkout:${checkout.id}`,
    text: [
      `Thank you for your purchase! Your payment ${providerPaymentId} was approved.`,
      "",
      ...items,
      `Products: ${dollars(productsCents)}`,
      `Shipping (each product ships on its own): ${dollars(shippingCents)}`,
      `Total: ${dollars(totalCents)}`,
      "",
      `Ship to: ${addressLine(checkout.shippingAddress)}`,
      "",
      `See your order: ${orderPageOf(checkout)}`,
      "",
      "—",
      `¡Gracias por tu compra! Tu pago ${providerPaymentId} fue aprobado.`,
      "",
      ...items,
      `Productos: ${dollars(productsCents)}`,
      `Envío (cada producto se envía por separado): ${dollars(shippingCents)}`,
      `Total: ${dollars(totalCents)}`,
      "",
      `Envío a: ${addressLine(checkout.shippingAddress)}`,
      `Mirá tu pedido: ${orderPageOf(checkout)}`,
    ].join("\n"),
  };
}

export function refundNotice(
  checkout: { id: number; baseUrl: string },
  to: string,
  providerPaymentId: string,
): MailMessage {
  const number = orderNumber(checkout.id);
  return {
    to,
    subject: `Voltio: order ${number} can't be completed / el pedido ${number} no puede completarse`,
    dedupeKey: `order-refund:checkout:${checkout.id}`,
    text: [
      `We received your payment ${providerPaymentId}, but the products ran out before it arrived.`,
      "Your order was cancelled and your payment is being refunded to your card.",
      `See your order: ${orderPageOf(checkout)}`,
      "",
      "—",
      `Recibimos tu pago ${providerPaymentId}, pero los productos se agotaron antes de que llegara.`,
      "Tu pedido fue cancelado y estamos devolviendo el pago a tu tarjeta.",
      `Mirá tu pedido: ${orderPageOf(checkout)}`,
    ].join("\n"),
  };
}

/** The owner refunded (part of) a payment. `key` names this refund, so a repeated request mails once. */
export function refundMail(
  checkout: { id: number; baseUrl: string },
  to: string,
  providerPaymentId: string,
  amountCents: number,
  key: string,
): MailMessage {
  const number = orderNumber(checkout.id);
  return {
    to,
    subject: `Voltio: refund for order ${number} / reembolso del pedido ${number}`,
    dedupeKey: `order-refund:${key}`,
    text: [
      `The store is refunding ${dollars(amountCents)} of your payment ${providerPaymentId} for order ${number}.`,
      "It reaches your card within a few days, depending on your bank.",
      `See your order: ${orderPageOf(checkout)}`,
      "",
      "—",
      `La tienda te está reembolsando ${dollars(amountCents)} de tu pago ${providerPaymentId} del pedido ${number}.`,
      "Llega a tu tarjeta en unos días, según tu banco.",
      `Mirá tu pedido: ${orderPageOf(checkout)}`,
    ].join("\n"),
  };
}
