import { checkoutTotals } from "@voltio/domain/checkout";
import { formatDollars } from "@voltio/domain/money";
import { orderNumber } from "@voltio/domain/order-status";
import type { ShippingAddress } from "../../db/schema";
import type { MailMessage } from "../../integrations/mail/outbox";
import type { AutomaticRefundCause } from "./refunds";

/**
 * The buyer's e-mails about a checkout, queued in the transaction that settles it. The
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

/** The order page of a checkout's purchase, at the store's address the buyer paid from. */
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

/** Why the store gave a payment back on its own, in the buyer's words (English, Spanish). */
export interface RefundReason {
  en: string;
  es: string;
}

/** What the buyer is told of an automatic refund, and whether the checkout has an order page to link. */
export function automaticRefundReason(cause: AutomaticRefundCause): {
  reason: RefundReason;
  orderPage: boolean;
} {
  const unpaid = {
    en: "your orders were not paid and can be paid again.",
    es: "tus pedidos no quedaron pagos y podés pagarlos de nuevo.",
  };
  switch (cause.kind) {
    case "closed checkout":
      if (cause.status === "paid")
        return {
          reason: {
            en: `your order had already been paid with payment ${cause.paidBy}; this second payment goes back and your order stands.`,
            es: `tu pedido ya estaba pagado con el pago ${cause.paidBy}; este segundo pago se devuelve y tu pedido sigue en pie.`,
          },
          orderPage: true,
        };
      return {
        reason:
          cause.status === "replaced"
            ? {
                en: "it was made on a checkout page that a newer one had replaced, so it paid for nothing; your orders are paid through the newer page only.",
                es: "se hizo en una página de pago que otra más nueva había reemplazado, así que no pagó nada; tus pedidos se pagan solo desde la página nueva.",
              }
            : {
                en: "it was made on a checkout page that had already been closed, so it paid for nothing.",
                es: "se hizo en una página de pago que ya estaba cerrada, así que no pagó nada.",
              },
        orderPage: false,
      };
    case "currency":
      return {
        reason: {
          en: `it was made in ${cause.currency.toUpperCase()}, but the store charges in US dollars; ${unpaid.en}`,
          es: `se hizo en ${cause.currency.toUpperCase()}, pero la tienda cobra en dólares estadounidenses; ${unpaid.es}`,
        },
        orderPage: false,
      };
    case "amount":
      return {
        reason: {
          en: `it was for ${dollars(cause.paidCents)}, but your order's total was ${dollars(cause.dueCents)}; ${unpaid.en}`,
          es: `fue de ${dollars(cause.paidCents)}, pero el total de tu pedido era ${dollars(cause.dueCents)}; ${unpaid.es}`,
        },
        orderPage: false,
      };
    case "orders not pending":
      return {
        reason: {
          en: "your orders had already been paid or cancelled when it arrived, so it paid for nothing.",
          es: "cuando llegó, tus pedidos ya estaban pagos o cancelados, así que no pagó nada.",
        },
        orderPage: false,
      };
    case "orders changed":
      return {
        reason: {
          en: "your order changed after its checkout page was opened (a product went back to the cart), so the payment no longer matched it; what is left can be paid again.",
          es: "tu pedido cambió después de abrir la página de pago (un producto volvió al carrito), así que el pago ya no coincidía; lo que queda podés pagarlo de nuevo.",
        },
        orderPage: false,
      };
    case "stock gone":
      return {
        reason: {
          en: "the products ran out before your payment arrived, so your order was cancelled.",
          es: "los productos se agotaron antes de que llegara tu pago, así que tu pedido fue cancelado.",
        },
        orderPage: true,
      };
  }
}

/**
 * A refund of (part of) a payment: the owner's, or one the store decided on its own, which says why. `key`
 * names this refund, so a repeated request or notification mails once. `orderPage`: the payment's checkout
 * has an order page (its orders are this checkout's: paid, or cancelled for it); otherwise the mail links the
 * buyer's purchases, where unpaid lines wait too.
 */
export function refundMail(
  checkout: { id: number; baseUrl: string },
  to: string,
  refund: {
    providerPaymentId: string;
    amountCents: number;
    key: string;
    reason?: RefundReason;
    orderPage?: boolean;
  },
): MailMessage {
  const { providerPaymentId, amountCents, reason, orderPage = true } = refund;
  const number = orderNumber(checkout.id);
  const page = orderPage ? orderPageOf(checkout) : `${checkout.baseUrl.replace(/\/+$/, "")}/purchases`;
  return {
    to,
    subject: `Voltio: refund for order ${number} / reembolso del pedido ${number}`,
    dedupeKey: `order-refund:${refund.key}`,
    text: [
      `The store is refunding ${dollars(amountCents)} of your payment ${providerPaymentId} for order ${number}.`,
      ...(reason ? [`Why: ${reason.en}`] : []),
      "It reaches your card within a few days, depending on your bank.",
      `${orderPage ? "See your order" : "See your purchases"}: ${page}`,
      "",
      "—",
      `La tienda te está reembolsando ${dollars(amountCents)} de tu pago ${providerPaymentId} del pedido ${number}.`,
      ...(reason ? [`Motivo: ${reason.es}`] : []),
      "Llega a tu tarjeta en unos días, según tu banco.",
      `${orderPage ? "Mirá tu pedido" : "Mirá tus compras"}: ${page}`,
    ].join("\n"),
  };
}
