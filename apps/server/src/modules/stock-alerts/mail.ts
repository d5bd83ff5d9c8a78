import type { MailMessage } from "../../integrations/mail/outbox";

/**
 * The e-mail that ends a back-in-stock request. The store doesn't know the shopper's
 * language, so it says it in English, then in Spanish, as the order e-mails do (payments/order-mail.ts).
 */
export interface RestockedAlert {
  /** The request's id: its dedupe key, so one request can never queue a second message. */
  id: number;
  productId: number;
  variantId: number;
  /** What came back: the product's title, with its variant's options if it has any. */
  title: string;
  firstName: string;
  email: string;
}

/** Subjects are one line of at most 500 characters: a very long title is cut, the link still names it. */
const TITLE_IN_SUBJECT_MAX = 200;

export function backInStockMail(alert: RestockedAlert, storeUrl: string): MailMessage {
  const link = `${storeUrl}/product/${alert.productId}?variant=${alert.variantId}`;
  const title =
    alert.title.length > TITLE_IN_SUBJECT_MAX
      ? `${alert.title.slice(0, TITLE_IN_SUBJECT_MAX - 1)}…`
      : alert.title;
  return {
    to: alert.email,
    subject: `Voltio: ${title} is back in stock / volvió a estar disponible`,
    dedupeKey: `stock-alert:${alert.id}`,
    text: [
      `Hi ${alert.firstName},`,
      "",
      `Good news: ${alert.title} is back in stock. You asked us to let you know, so here it is before it runs out again:`,
      link,
      "",
      "This was a one-time notice: ask again on the product's page if it sells out once more.",
      "",
      "—",
      `Hola ${alert.firstName}:`,
      "",
      `Buenas noticias: ${alert.title} volvió a estar disponible. Nos pediste que te avisáramos, así que aquí está antes de que vuelva a agotarse:`,
      link,
      "",
      "Este aviso se envía una sola vez: pídelo de nuevo en la página del producto si vuelve a agotarse.",
    ].join("\n"),
  };
}
