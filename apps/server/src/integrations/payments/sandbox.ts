import { randomBytes } from "node:crypto";
import { parse as parseQuery } from "node:querystring";
import { and, eq, ne } from "drizzle-orm";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { formatDollars } from "@voltio/domain/money";
import type { Db } from "../../db/client";
import { sandboxCharges } from "../../db/schema";
import type { CheckoutRequest, PaymentProvider, ProviderPayment } from "./provider";

/**
 * The built-in payment provider (issue 10 point 3): a hosted card page of our own that works with no
 * internet, with the test cards every provider documents. It keeps its own books (sandbox_charges), as a
 * payment company would; the store reads a payment's outcome from there, never from the return URL.
 */
export const SANDBOX_CARDS = {
  "4242424242424242": "approved",
  "4000000000000002": "rejected",
  "4000000000009995": "pending",
} as const;

const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString("hex")}`;

export function sandboxProvider(db: Db): PaymentProvider {
  return {
    name: "sandbox",
    async createCheckout(request: CheckoutRequest) {
      const id = newId("sbx_ch");
      await db.insert(sandboxCharges).values({
        id,
        reference: request.reference,
        amountCents: request.amountCents,
        description: request.description,
        successUrl: request.successUrl,
        failureUrl: request.failureUrl,
      });
      return { id, initPoint: new URL(`/pay/sandbox/${id}`, request.successUrl).href };
    },
    async paymentFromReturn(query) {
      const paymentId = query.payment_id;
      if (!paymentId) return null;
      const [charge] = await db.select().from(sandboxCharges).where(eq(sandboxCharges.paymentId, paymentId));
      if (!charge || charge.status === "open") return null;
      return {
        id: paymentId,
        status: charge.status as ProviderPayment["status"],
        amountCents: charge.amountCents,
        reference: charge.reference,
        declineReason: charge.declineReason ?? undefined,
        raw: { charge: charge.id, status: charge.status, declineReason: charge.declineReason },
      };
    },
  };
}

type Language = "en" | "es";

const TEXTS = {
  en: {
    title: "Voltio sandbox payment",
    intro: "This is the store's test payment page: no real card is charged.",
    amount: "Amount",
    card: "Card number",
    expiry: "Expiry (MM/YY)",
    cvc: "CVC",
    pay: "Pay",
    cards:
      "Test cards: 4242 4242 4242 4242 approves, 4000 0000 0000 0002 declines, 4000 0000 0000 9995 stays pending.",
    badCard: "Use one of the sandbox test cards.",
    badExpiry: "Enter a future expiry date as MM/YY.",
    badCvc: "Enter the 3 or 4 digits of the CVC.",
    declined: "Your card was declined.",
    done: "This payment is already done.",
    missing: "There is no such payment.",
  },
  es: {
    title: "Pago de prueba de Voltio",
    intro: "Esta es la página de pago de prueba de la tienda: no se cobra ninguna tarjeta real.",
    amount: "Importe",
    card: "Número de tarjeta",
    expiry: "Vencimiento (MM/AA)",
    cvc: "CVC",
    pay: "Pagar",
    cards:
      "Tarjetas de prueba: 4242 4242 4242 4242 aprueba, 4000 0000 0000 0002 rechaza, 4000 0000 0000 9995 queda pendiente.",
    badCard: "Usa una de las tarjetas de prueba.",
    badExpiry: "Ingresa un vencimiento futuro como MM/AA.",
    badCvc: "Ingresa los 3 o 4 dígitos del CVC.",
    declined: "Tu tarjeta fue rechazada.",
    done: "Este pago ya está hecho.",
    missing: "No existe ese pago.",
  },
} satisfies Record<Language, Record<string, string>>;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

const languageOf = (request: FastifyRequest): Language =>
  /^es\b/i.test(request.headers["accept-language"] ?? "") ? "es" : "en";

type CardCheck =
  { ok: true; outcome: ProviderPayment["status"] } | { ok: false; field: string; error: string };

/** The card form's fields as typed (spaces allowed in the number, MM/YY expiry). */
export function checkCard(
  form: { number?: string; expiry?: string; cvc?: string },
  language: Language,
  now = new Date(),
): CardCheck {
  const texts = TEXTS[language];
  const number = (form.number ?? "").replace(/[\s-]/g, "");
  const outcome = SANDBOX_CARDS[number as keyof typeof SANDBOX_CARDS];
  if (!outcome) return { ok: false, field: "number", error: texts.badCard };
  const expiry = /^(\d{2})\s*\/\s*(\d{2})$/.exec(form.expiry ?? "");
  const month = Number(expiry?.[1]);
  const year = 2000 + Number(expiry?.[2]);
  const endOfMonth = new Date(Date.UTC(year, month, 1));
  if (!expiry || month < 1 || month > 12 || endOfMonth <= now)
    return { ok: false, field: "expiry", error: texts.badExpiry };
  if (!/^\d{3,4}$/.test(form.cvc ?? "")) return { ok: false, field: "cvc", error: texts.badCvc };
  return { ok: true, outcome };
}

function page(language: Language, body: string) {
  const texts = TEXTS[language];
  return `<!doctype html>
<html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(texts.title)}</title>
<meta name="robots" content="noindex">
<style>
:root{color-scheme:light dark;font-family:system-ui,sans-serif}
body{margin:0;min-height:100vh;display:grid;place-items:center;background:Canvas;color:CanvasText}
main{width:min(26rem,92vw);padding:2rem;border:1px solid color-mix(in srgb,CanvasText 20%,transparent);border-radius:1rem}
h1{font-size:1.3rem;margin:0 0 .5rem}label{display:block;margin-top:1rem;font-weight:600}
input{width:100%;box-sizing:border-box;margin-top:.3rem;padding:.6rem;font:inherit;border-radius:.5rem;border:1px solid GrayText}
.row{display:flex;gap:1rem}.row>div{flex:1}
button{margin-top:1.5rem;width:100%;padding:.8rem;font:inherit;font-weight:700;border:0;border-radius:.6rem;background:#4f46e5;color:#fff;cursor:pointer}
button:focus-visible,input:focus-visible{outline:3px solid #818cf8;outline-offset:2px}
.error{color:light-dark(#b91c1c,#fca5a5);font-weight:600}.small{font-size:.85rem;opacity:.8}
</style></head><body><main>${body}</main></body></html>`;
}

function cardPage(
  charge: { id: string; amountCents: number; description: string },
  language: Language,
  error?: { field: string; error: string },
) {
  const texts = TEXTS[language];
  const invalid = (field: string) =>
    error?.field === field ? ' aria-invalid="true" aria-describedby="form-error"' : "";
  return page(
    language,
    `<h1>${escapeHtml(texts.title)}</h1>
<p class="small">${escapeHtml(texts.intro)}</p>
<p>${escapeHtml(charge.description)}</p>
<p><strong>${escapeHtml(texts.amount)}: US$ ${formatDollars(charge.amountCents / 100)}</strong></p>
${error ? `<p id="form-error" class="error" role="alert">${escapeHtml(error.error)}</p>` : ""}
<form method="post" action="/pay/sandbox/${encodeURIComponent(charge.id)}">
<label for="number">${escapeHtml(texts.card)}</label>
<input id="number" name="number" inputmode="numeric" autocomplete="cc-number" required${invalid("number")}>
<div class="row"><div><label for="expiry">${escapeHtml(texts.expiry)}</label>
<input id="expiry" name="expiry" placeholder="12/30" autocomplete="cc-exp" required${invalid("expiry")}></div>
<div><label for="cvc">${escapeHtml(texts.cvc)}</label>
<input id="cvc" name="cvc" inputmode="numeric" autocomplete="cc-csc" required${invalid("cvc")}></div></div>
<button type="submit">${escapeHtml(texts.pay)} US$ ${formatDollars(charge.amountCents / 100)}</button>
</form>
<p class="small">${escapeHtml(texts.cards)}</p>`,
  );
}

const sendPage = (reply: FastifyReply, status: number, html: string) =>
  reply
    .code(status)
    .type("text/html; charset=utf-8")
    .header("cache-control", "no-store")
    .header("referrer-policy", "no-referrer")
    .send(html);

const chargeParams = z.object({ id: z.string().max(100) });
const cardForm = z.record(z.string(), z.unknown()).optional();

/** GET and POST /pay/sandbox/:id: the card page of a charge, and what the card decides. */
export function sandboxPageRoutes({ db }: { db: Db }): FastifyPluginAsyncZod {
  return async (app) => {
    app.addContentTypeParser(
      "application/x-www-form-urlencoded",
      { parseAs: "string", bodyLimit: 4096 },
      (_request, body, done) => done(null, parseQuery(body as string)),
    );
    const findCharge = async (id: string) =>
      (await db.select().from(sandboxCharges).where(eq(sandboxCharges.id, id)))[0];

    app.get("/pay/sandbox/:id", { schema: { params: chargeParams, hide: true } }, async (request, reply) => {
      const language = languageOf(request);
      const charge = await findCharge(request.params.id);
      if (!charge) return sendPage(reply, 404, page(language, `<p>${TEXTS[language].missing}</p>`));
      // A declined or pending attempt may be tried again with another card (the POST below allows it too).
      if (charge.status === "approved")
        return sendPage(reply, 409, page(language, `<p>${TEXTS[language].done}</p>`));
      return sendPage(reply, 200, cardPage(charge, language));
    });

    app.post(
      "/pay/sandbox/:id",
      { schema: { params: chargeParams, body: cardForm, hide: true } },
      async (request, reply) => {
        const language = languageOf(request);
        const charge = await findCharge(request.params.id);
        if (!charge) return sendPage(reply, 404, page(language, `<p>${TEXTS[language].missing}</p>`));
        const field = (name: string) => {
          const value = request.body?.[name];
          return typeof value === "string" ? value : undefined;
        };
        const card = checkCard(
          { number: field("number"), expiry: field("expiry"), cvc: field("cvc") },
          language,
        );
        if (!card.ok) return sendPage(reply, 400, cardPage(charge, language, card));
        const paymentId = newId("sbx_pay");
        // A declined or pending attempt may be tried again with another card; an approved charge is done, and a
        // second submit (double click, back button) finds it so.
        const [paid] = await db
          .update(sandboxCharges)
          .set({
            status: card.outcome,
            paymentId,
            declineReason: card.outcome === "rejected" ? TEXTS.en.declined : null,
          })
          .where(and(eq(sandboxCharges.id, charge.id), ne(sandboxCharges.status, "approved")))
          .returning({ id: sandboxCharges.id });
        if (!paid) return sendPage(reply, 409, page(language, `<p>${TEXTS[language].done}</p>`));
        const target = new URL(card.outcome === "approved" ? charge.successUrl : charge.failureUrl);
        target.searchParams.set("payment_id", paymentId);
        target.searchParams.set("status", card.outcome);
        target.searchParams.set("external_reference", charge.reference);
        return reply.code(303).header("cache-control", "no-store").redirect(target.href);
      },
    );
  };
}
