import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { Config } from "../../config";
import type { Db } from "../../db/client";
import { escapeXml } from "../../http/escape";
import { errorSchema } from "@voltio/domain/http";
import {
  newsletterInputSchema,
  newsletterListQuerySchema,
  newsletterPageSchema,
  newsletterSendReplySchema,
} from "@voltio/domain/newsletter";
import { signedIn } from "../../http/access";
import { BEARER, SIGNED_IN_ERRORS, keepRepliesPrivate } from "../../http/private-replies";
import { styleNonce } from "../../http/security-headers";
import { pageNewsletters, sendNewsletter } from "./send";
import { readUnsubscribeToken, unsubscribe } from "./service";

const querySchema = z.object({ token: z.string().min(1).max(2000) });

const TEXTS = {
  en: {
    title: "Newsletter",
    confirm: "Do you want to stop receiving the Voltio newsletter?",
    button: "Unsubscribe",
    done: "You have been unsubscribed. You won't receive the newsletter any more.",
    invalid: "This unsubscribe link is not valid. Log in and switch the newsletter off from the home page.",
    back: "Back to the store",
  },
  es: {
    title: "Newsletter",
    confirm: "¿Quieres dejar de recibir la newsletter de Voltio?",
    button: "Darme de baja",
    done: "Te has dado de baja. Ya no recibirás la newsletter.",
    invalid:
      "Este enlace para darse de baja no es válido. Inicia sesión y desactiva la newsletter desde el inicio.",
    back: "Volver a la tienda",
  },
};

const languageOf = (request: FastifyRequest) =>
  /^\s*es\b/i.test(request.headers["accept-language"] ?? "") ? "es" : "en";

/** A small page of its own: the link is opened from a mail client, maybe where the store's app never loaded. */
function page(reply: FastifyReply, lang: "en" | "es", status: number, body: string) {
  const t = TEXTS[lang];
  return reply
    .code(status)
    .header("cache-control", "no-store")
    .type("text/html; charset=utf-8")
    .send(
      `<!doctype html><html lang="${lang}"><head><meta charset="utf-8">` +
        `<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">` +
        `<title>${t.title} · Voltio</title><style nonce="${styleNonce(reply)}">body{font-family:system-ui,sans-serif;background:#f8fafc;color:#0f172a;` +
        `display:grid;place-items:center;min-height:100vh;margin:0}main{background:#fff;border:1px solid #e2e8f0;` +
        `border-radius:16px;padding:32px;max-width:28rem;margin:16px}button{background:#4f46e5;color:#fff;border:0;` +
        `border-radius:12px;padding:10px 20px;font-size:1rem;cursor:pointer}a{color:#4338ca}</style></head>` +
        `<body><main><h1>${t.title}</h1>${body}<p><a href="/">${t.back}</a></p></main></body></html>`,
    );
}

/**
 * The newsletter: the admin's sends (POST /emails, queued in the mail outbox) and their progress, and the
 * unsubscribe link of every newsletter e-mail. GET only asks (mail scanners open links on their own); POST
 * — the page's button, or a mail client's one-click List-Unsubscribe-Post (RFC 8058) — unsubscribes.
 */
export interface NewsletterRoutesDeps {
  db: Db;
  /** Unsubscribe links are signed with the store's secret. */
  config: Pick<Config, "jwtSecret">;
  /** A send was committed: the mail worker may start at once. */
  notifyMail?: () => void;
}

export function newsletterRoutes({ db, config, notifyMail }: NewsletterRoutesDeps): FastifyPluginAsyncZod {
  return async (app) => {
    // Unsubscribe pages and the admin's lists alike: nothing here is for a cache.
    keepRepliesPrivate(app);
    app.post(
      "/emails",
      {
        config: { access: "admin" },
        schema: {
          tags: ["newsletter", "admin"],
          summary:
            "Send a newsletter (admin): one message per receiver — typed addresses, or All for every " +
            "subscribed user; invalid ones ignored, unsubscribed ones skipped — delivered by the mail worker",
          security: BEARER,
          body: newsletterInputSchema,
          response: { 201: newsletterSendReplySchema, ...SIGNED_IN_ERRORS, 409: errorSchema },
        },
      },
      async (request, reply) => {
        const sent = await sendNewsletter(db, signedIn(request), request.body);
        notifyMail?.();
        return reply.code(201).send(sent);
      },
    );

    app.get(
      "/emails",
      {
        config: { access: "admin" },
        schema: {
          tags: ["newsletter", "admin"],
          summary: "The newsletters sent, newest first, with their delivery: queued, sent, failed (admin)",
          security: BEARER,
          querystring: newsletterListQuerySchema,
          response: { 200: newsletterPageSchema, ...SIGNED_IN_ERRORS },
        },
      },
      async (request) => pageNewsletters(db, request.query),
    );

    // RFC 8058 one-click posts "List-Unsubscribe=One-Click" as a form; the token is in the URL.
    app.addContentTypeParser(
      "application/x-www-form-urlencoded",
      { parseAs: "string", bodyLimit: 1024 },
      (_request, body, done) => done(null, body),
    );

    app.get(
      "/newsletter/unsubscribe",
      {
        config: { access: "public", page: true },
        schema: {
          tags: ["newsletter"],
          summary: "The unsubscribe link's page: asks to confirm",
          querystring: querySchema,
        },
      },
      async (request, reply) => {
        const lang = languageOf(request);
        const t = TEXTS[lang];
        const email = await readUnsubscribeToken(config.jwtSecret, request.query.token);
        if (!email) return page(reply, lang, 400, `<p>${t.invalid}</p>`);
        const action = `/api/newsletter/unsubscribe?token=${encodeURIComponent(request.query.token)}`;
        return page(
          reply,
          lang,
          200,
          `<p>${t.confirm}</p><p><strong>${escapeXml(email)}</strong></p>` +
            `<form method="post" action="${escapeXml(action)}"><button type="submit">${t.button}</button></form>`,
        );
      },
    );

    app.post(
      "/newsletter/unsubscribe",
      {
        config: { access: "public", page: true },
        schema: {
          tags: ["newsletter"],
          summary: "Unsubscribe the address of a signed unsubscribe token",
          querystring: querySchema,
        },
      },
      async (request, reply) => {
        const lang = languageOf(request);
        const t = TEXTS[lang];
        const email = await readUnsubscribeToken(config.jwtSecret, request.query.token);
        const wantsJson = (request.headers.accept ?? "").includes("application/json");
        if (!email) {
          return wantsJson
            ? reply.code(400).send({ error: "Invalid unsubscribe token" })
            : page(reply, lang, 400, `<p>${t.invalid}</p>`);
        }
        await unsubscribe(db, email);
        return wantsJson ? { msg: "Unsubscribed" } : page(reply, lang, 200, `<p>${t.done}</p>`);
      },
    );
  };
}
