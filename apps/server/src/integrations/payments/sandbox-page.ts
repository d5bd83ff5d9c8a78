import { parse as parseQuery } from "node:querystring";
import { and, eq, gt, isNull, notInArray, or, sql } from "drizzle-orm";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { formatDollars } from "@voltio/domain/money";
import type { Db } from "../../db/client";
import { sandboxCharges } from "../../db/schema";
import { styleNonce } from "../../http/security-headers";
import type { ProviderPayment } from "./provider";
import { startSandboxNotifier } from "./sandbox-webhook";
import { SANDBOX_CARDS, newId, type SandboxCharge } from "./sandbox";

/**
 * The sandbox's hosted card page: where the shopper types a test card, in English or
 * Spanish, and is sent back to the store; the books it writes are sandbox.ts's.
 */

type Language = "en" | "es";

const TEXTS = {
  en: {
    title: "Voltio sandbox payment",
    intro: "This is the store's test payment page: no real card is charged.",
    charged: "Amount",
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
    refunded: "Of it, {amount} has been refunded.",
    backToStore: "Back to the store",
    closed:
      "This payment was closed: its time to pay ran out, or a newer checkout replaced it. Nothing was charged.",
    replaced:
      "A newer payment, started in another tab or window, replaced this one. Nothing was charged: pay on the newer payment page, or go back to the checkout.",
    backToCheckout: "Back to the checkout",
    missing: "There is no such payment.",
  },
  es: {
    title: "Pago de prueba de Voltio",
    intro: "Esta es la página de pago de prueba de la tienda: no se cobra ninguna tarjeta real.",
    charged: "Importe",
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
    refunded: "De él, se devolvieron {amount}.",
    backToStore: "Volver a la tienda",
    closed:
      "Este pago se cerró: venció el plazo para pagarlo o lo reemplazó una compra más nueva. No se cobró nada.",
    replaced:
      "Un pago más nuevo, iniciado en otra pestaña o ventana, reemplazó a este. No se cobró nada: paga en la página de pago más nueva o vuelve a la compra.",
    backToCheckout: "Volver a la compra",
    missing: "No existe ese pago.",
  },
} satisfies Record<Language, Record<string, string>>;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

const languageOf = (request: FastifyRequest): Language =>
  /^es\b/i.test(request.headers["accept-language"] ?? "") ? "es" : "en";

const dollars = (cents: number) => `US$ ${formatDollars(cents / 100)}`;

type CardCheck =
  { ok: true; outcome: ProviderPayment["status"] } | { ok: false; field: string; error: string };

/** The card form as typed. */
export interface CardForm {
  number?: string;
  expiry?: string;
  cvc?: string;
}

/**
 * The card form's fields as typed: spaces or dashes in the number; the expiry as MM/YY with or without the
 * slash and spaces ("12/30", "12 / 30", "1230", "12 30"), as card forms and autofill write it.
 */
export function checkCard(form: CardForm, language: Language, now = new Date()): CardCheck {
  const texts = TEXTS[language];
  const number = (form.number ?? "").replace(/[\s-]/g, "");
  const outcome = SANDBOX_CARDS[number as keyof typeof SANDBOX_CARDS];
  if (!outcome) return { ok: false, field: "number", error: texts.badCard };
  const expiry = /^(\d{2})\s*\/?\s*(\d{2})$/.exec((form.expiry ?? "").trim());
  const month = Number(expiry?.[1]);
  const year = 2000 + Number(expiry?.[2]);
  const endOfMonth = new Date(Date.UTC(year, month, 1));
  if (!expiry || month < 1 || month > 12 || endOfMonth <= now)
    return { ok: false, field: "expiry", error: texts.badExpiry };
  if (!/^\d{3,4}$/.test((form.cvc ?? "").trim())) return { ok: false, field: "cvc", error: texts.badCvc };
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
a{color:light-dark(#4338ca,#a5b4fc);font-weight:600}
button:focus-visible,input:focus-visible,a:focus-visible{outline:3px solid #818cf8;outline-offset:2px}
.error{color:light-dark(#b91c1c,#fca5a5);font-weight:600}.small{font-size:.85rem;opacity:.8}
</style></head><body><main>${body}</main></body></html>`;
}

/** A short page: a message and, when there is somewhere to go, a link there. */
function notice(language: Language, lines: string[], link?: { href: string; text: string }) {
  return page(
    language,
    `<h1>${escapeHtml(TEXTS[language].title)}</h1>
${lines.map((line) => `<p>${escapeHtml(line)}</p>`).join("\n")}
${link ? `<p><a href="${escapeHtml(link.href)}">${escapeHtml(link.text)}</a></p>` : ""}`,
  );
}

function cardPage(
  charge: { id: string; amountCents: number; description: string },
  language: Language,
  typed: CardForm = {},
  error?: { field: string; error: string },
) {
  const texts = TEXTS[language];
  const invalid = (field: string) =>
    error?.field === field ? ' aria-invalid="true" aria-describedby="form-error"' : "";
  // What was typed comes back as typed, so one mistake doesn't cost the whole form.
  const value = (field: keyof CardForm) => ` value="${escapeHtml(typed[field] ?? "")}"`;
  return page(
    language,
    `<h1>${escapeHtml(texts.title)}</h1>
<p class="small">${escapeHtml(texts.intro)}</p>
<p>${escapeHtml(charge.description)}</p>
<p><strong>${escapeHtml(texts.charged)}: ${dollars(charge.amountCents)}</strong></p>
${error ? `<p id="form-error" class="error" role="alert">${escapeHtml(error.error)}</p>` : ""}
<form method="post" action="/pay/sandbox/${encodeURIComponent(charge.id)}">
<label for="number">${escapeHtml(texts.card)}</label>
<input id="number" name="number" inputmode="numeric" autocomplete="cc-number" required${value("number")}${invalid("number")}>
<div class="row"><div><label for="expiry">${escapeHtml(texts.expiry)}</label>
<input id="expiry" name="expiry" placeholder="12/30" autocomplete="cc-exp" required${value("expiry")}${invalid("expiry")}></div>
<div><label for="cvc">${escapeHtml(texts.cvc)}</label>
<input id="cvc" name="cvc" inputmode="numeric" autocomplete="cc-csc" required${value("cvc")}${invalid("cvc")}></div></div>
<button type="submit">${escapeHtml(texts.pay)} ${dollars(charge.amountCents)}</button>
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
    // The page's one style element (page() above; what it shows is escaped, so it holds no other).
    .send(html.replace("<style>", () => `<style nonce="${styleNonce(reply)}">`));

/** Where the card page sends the shopper after a decision: the store's return page, naming the payment. */
export function returnUrl(charge: SandboxCharge, outcome: ProviderPayment["status"], paymentId: string) {
  const target = new URL(outcome === "approved" ? charge.successUrl : charge.failureUrl);
  target.searchParams.set("payment_id", paymentId);
  target.searchParams.set("status", outcome);
  target.searchParams.set("external_reference", charge.reference);
  return target.href;
}

const redirect = (reply: FastifyReply, href: string) =>
  reply.code(303).header("cache-control", "no-store").redirect(href);

/** Closed at the store's request (closeCheckout) or past its hold: no card is taken for it any more. */
const isClosed = (charge: SandboxCharge, now = new Date()) =>
  charge.status === "expired" || (charge.expiresAt !== null && charge.expiresAt <= now);

/**
 * What the card page shows for a charge that takes no card: an approved one goes (again) to the store's return
 * page, as its first approval did, unless money came back of it; a closed one says so, with the way back to
 * the store's checkout. Null for a charge that can still be paid.
 */
function settledPage(
  reply: FastifyReply,
  charge: SandboxCharge,
  language: Language,
  why: "closed" | "replaced" = "closed",
) {
  const texts = TEXTS[language];
  if (charge.status === "approved" && charge.paymentId) {
    const back = returnUrl(charge, "approved", charge.paymentId);
    if (charge.refundedCents === 0) return redirect(reply, back);
    return sendPage(
      reply,
      200,
      notice(language, [texts.done, texts.refunded.replace("{amount}", dollars(charge.refundedCents))], {
        href: back,
        text: texts.backToStore,
      }),
    );
  }
  return isClosed(charge) ? closedPage(reply, charge, language, why) : null;
}

const closedPage = (
  reply: FastifyReply,
  charge: SandboxCharge,
  language: Language,
  why: "closed" | "replaced" = "closed",
) =>
  sendPage(
    reply,
    410,
    notice(language, [TEXTS[language][why]], {
      href: `${new URL(charge.failureUrl).origin}/purchase`,
      text: TEXTS[language].backToCheckout,
    }),
  );

const chargeParams = z.object({ id: z.string().max(100) });
const cardForm = z.record(z.string(), z.unknown()).optional();

export interface SandboxPageSettings {
  db: Db;
  /**
   * The store's POST /api/sandbox/webhook at its public address: the sandbox notifies it of each decision.
   * None: no notifications (tests that drive settlement themselves).
   */
  webhookUrl?: string;
  webhookSecret: string;
  retryDelaysMs?: readonly number[];
  /**
   * The store's word on the checkout a charge pays (its `reference`), asked under the store's lock in the
   * transaction that records a card: "replaced" once a newer Pay replaced it (a card typed in an old tab),
   * "closed" when it can't be paid any more otherwise. None: the sandbox's own books decide alone.
   */
  payable?: (tx: Db, reference: string) => Promise<StoreWord>;
}

export type StoreWord = "payable" | "replaced" | "closed";

/** GET and POST /pay/sandbox/:id: the card page of a charge, and what the card decides. */
export function sandboxPageRoutes({
  db,
  webhookUrl,
  webhookSecret,
  retryDelaysMs,
  payable,
}: SandboxPageSettings): FastifyPluginAsyncZod {
  return async (app) => {
    const notifier = webhookUrl
      ? startSandboxNotifier({ url: webhookUrl, secret: webhookSecret, log: app.log, retryDelaysMs })
      : undefined;
    // Before the server stops listening: no retry starts against a store going away, and no timer is left.
    app.addHook("preClose", async () => notifier?.stop());

    app.addContentTypeParser(
      "application/x-www-form-urlencoded",
      { parseAs: "string", bodyLimit: 4096 },
      (_request, body, done) => done(null, parseQuery(body as string)),
    );
    const findCharge = async (id: string) =>
      (await db.select().from(sandboxCharges).where(eq(sandboxCharges.id, id)))[0];
    const storeWord = async (charge: SandboxCharge): Promise<StoreWord> =>
      payable ? db.transaction((tx) => payable(tx, charge.reference)) : "payable";
    /**
     * Why a closed charge takes no card: "replaced" when a newer Pay replaced its checkout, in the store's word.
     * A word, not a page: a FastifyReply is a thenable, and awaiting one returned by a promise gives undefined.
     */
    const whyClosed = async (charge: SandboxCharge) =>
      charge.status !== "approved" && isClosed(charge) && (await storeWord(charge)) === "replaced"
        ? "replaced"
        : "closed";

    app.get("/pay/sandbox/:id", { schema: { params: chargeParams, hide: true } }, async (request, reply) => {
      const language = languageOf(request);
      const charge = await findCharge(request.params.id);
      if (!charge) return sendPage(reply, 404, notice(language, [TEXTS[language].missing]));
      const settled = settledPage(reply, charge, language, await whyClosed(charge));
      if (settled) return settled;
      const word = await storeWord(charge);
      if (word !== "payable") return closedPage(reply, charge, language, word);
      // A declined or pending attempt may be tried again with another card (the POST below allows it too).
      return sendPage(reply, 200, cardPage(charge, language));
    });

    app.post(
      "/pay/sandbox/:id",
      { schema: { params: chargeParams, body: cardForm, hide: true } },
      async (request, reply) => {
        const language = languageOf(request);
        const charge = await findCharge(request.params.id);
        if (!charge) return sendPage(reply, 404, notice(language, [TEXTS[language].missing]));
        const settled = settledPage(reply, charge, language, await whyClosed(charge));
        if (settled) return settled;
        const field = (name: string) => {
          const value = request.body?.[name];
          return typeof value === "string" ? value : undefined;
        };
        const typed = { number: field("number"), expiry: field("expiry"), cvc: field("cvc") };
        const card = checkCard(typed, language);
        if (!card.ok) return sendPage(reply, 400, cardPage(charge, language, typed, card));
        const paymentId = newId("sbx_pay");
        const payableNow = and(
          eq(sandboxCharges.id, charge.id),
          notInArray(sandboxCharges.status, ["approved", "expired"]),
        );
        const { word, paid } = await db.transaction(async (tx) => {
          // Under the store's lock: a newer Pay replaces the checkout before this card or after it, never
          // while it is taken. A refused card closes the charge, as the store's close would a moment later.
          const word = payable ? await payable(tx, charge.reference) : "payable";
          if (word !== "payable") {
            await tx.update(sandboxCharges).set({ status: "expired" }).where(payableNow);
            return { word };
          }
          // A declined or pending attempt may be tried again with another card; an approved charge is done and
          // a closed one takes nothing, whatever a concurrent submit (double click, back button) or close did.
          const [paid] = await tx
            .update(sandboxCharges)
            .set({
              status: card.outcome,
              paymentId,
              declineReason: card.outcome === "rejected" ? TEXTS.en.declined : null,
            })
            .where(
              and(payableNow, or(isNull(sandboxCharges.expiresAt), gt(sandboxCharges.expiresAt, sql`now()`))),
            )
            .returning();
          return { word, paid };
        });
        if (word !== "payable") {
          // An approval before this (its checkout since paid or replaced) still shows as approved.
          const now = (await findCharge(charge.id)) ?? charge;
          return (
            (now.status === "approved" ? settledPage(reply, now, language) : null) ??
            closedPage(reply, now, language, word)
          );
        }
        if (!paid) {
          // Approved or closed meanwhile; or past its hold by the database's clock, if not yet by this one's.
          const now = (await findCharge(charge.id)) ?? charge;
          return settledPage(reply, now, language, await whyClosed(now)) ?? closedPage(reply, now, language);
        }
        notifier?.notify(paymentId);
        return redirect(reply, returnUrl(paid, card.outcome, paymentId));
      },
    );
  };
}
