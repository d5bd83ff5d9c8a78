import { count, desc, eq, sql } from "drizzle-orm";
import { pageInfo } from "@voltio/domain/http";
import {
  NEWSLETTER_MESSAGES,
  parseReceivers,
  type NewsletterInput,
  type NewsletterPage,
  type NewsletterSendReply,
} from "@voltio/domain/newsletter";
import type { Config } from "../../config";
import type { Db } from "../../db/client";
import { mailOutbox, newsletterEmails, users } from "../../db/schema";
import { Conflict, InvalidInput } from "../../errors";
import { escapeXml } from "../../http/escape";
import type { ClaimedMail } from "../../integrations/mail/worker";
import type { Caller } from "../identity/caller";
import { recordChange } from "../audit/service";
import { unsubscribeUrl } from "./service";

/**
 * POST /emails (docs/product-rules.md §10.6): a newsletter is one row and one queued message per receiver,
 * written by a single INSERT … SELECT, so a send to 10,000 subscribers returns at once and the mail worker
 * delivers it. Each message names its newsletter; the worker writes the receiver's own unsubscribe link
 * where UNSUBSCRIBE_LINK stands (personalizeNewsletter), when it sends.
 */
const UNSUBSCRIBE_LINK = "%%UNSUBSCRIBE_URL%%";

function newsletterBody(message: string) {
  const text = [
    message,
    "",
    "—",
    `You receive this e-mail because you subscribed to the Voltio newsletter. Unsubscribe: ${UNSUBSCRIBE_LINK}`,
    `Recibes este correo porque te suscribiste a la newsletter de Voltio. Darte de baja: ${UNSUBSCRIBE_LINK}`,
  ].join("\n");
  const paragraphs = message
    .split(/\n{2,}/)
    .map((paragraph) => `<p>${escapeXml(paragraph).replace(/\n/g, "<br>")}</p>`)
    .join("");
  const html =
    `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#0f172a">${paragraphs}` +
    `<hr><p style="font-size:12px;color:#475569">You receive this e-mail because you subscribed to the Voltio ` +
    `newsletter. <a href="${UNSUBSCRIBE_LINK}">Unsubscribe</a> · Recibes este correo porque te suscribiste ` +
    `a la newsletter de Voltio. <a href="${UNSUBSCRIBE_LINK}">Darte de baja</a></p></body></html>`;
  return { text, html };
}

/** RFC 2369 and RFC 8058: mail clients show an unsubscribe button that posts to the link. */
const NEWSLETTER_HEADERS = {
  "List-Unsubscribe": `<${UNSUBSCRIBE_LINK}>`,
  "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
};

/** An address that said no: a user by their own switch, anyone else by the unsubscribe link. */
const unsubscribed = (email: ReturnType<typeof sql>) => sql`(
  exists (select 1 from users u where lower(u.email) = ${email} and u.deleted_at is null and not u.newsletter_subscription)
  or (
    not exists (select 1 from users u where lower(u.email) = ${email} and u.deleted_at is null)
    and exists (select 1 from newsletter_unsubscribes n where n.email = ${email})
  )
)`;

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

export async function sendNewsletter(
  db: Db,
  actor: Caller,
  input: NewsletterInput,
): Promise<NewsletterSendReply> {
  const receivers = parseReceivers(input.receivers);
  if (!receivers.all && receivers.addresses.length === 0) {
    throw new InvalidInput("receivers", NEWSLETTER_MESSAGES.noReceivers);
  }
  const { text, html } = newsletterBody(input.message);
  return db.transaction(async (tx) => {
    const typed = JSON.stringify(receivers.addresses);
    const skipped = rowsOf<{ email: string }>(
      await tx.execute(
        sql`select t.email from jsonb_array_elements_text(${typed}::jsonb) as t(email) where ${unsubscribed(sql`t.email`)}`,
      ),
    ).map((row) => row.email);
    const sendable = JSON.stringify(receivers.addresses.filter((address) => !skipped.includes(address)));
    const [newsletter] = await tx
      .insert(newsletterEmails)
      .values({
        title: input.title,
        message: input.message,
        receivers: [...(receivers.all ? ["All"] : []), ...receivers.addresses],
        sentBy: actor.id,
      })
      .returning({ id: newsletterEmails.id });
    const id = newsletter!.id;
    const [queued] = rowsOf<{ queued: number }>(
      await tx.execute(sql`
        with receivers as (
          select lower(email) as email from users
          where ${receivers.all} and newsletter_subscription and deleted_at is null
          union
          select email from jsonb_array_elements_text(${sendable}::jsonb) as t(email)
        ), queued as (
          insert into mail_outbox (recipient, subject, text_body, html_body, headers, newsletter_id, dedupe_key)
          select email, ${input.title}, ${text}, ${html}, ${JSON.stringify(NEWSLETTER_HEADERS)}::jsonb, ${id},
                 ${`newsletter:${id}:`} || email
          from receivers
          returning 1
        )
        select count(*)::int as queued from queued`),
    );
    const total = Number(queued?.queued ?? 0);
    if (total === 0) {
      throw new Conflict(
        receivers.all
          ? "Nobody receives it: no user is subscribed and every typed address unsubscribed"
          : "Nobody receives it: every address unsubscribed from the newsletter",
      );
    }
    await recordChange(tx, actor, "newsletter.send", id, {
      before: null,
      after: { title: input.title, all: receivers.all, typed: receivers.addresses.length, queued: total },
    });
    return {
      msg: NEWSLETTER_MESSAGES.sent,
      id,
      queued: total,
      ignored: receivers.ignored,
      skipped: skipped.length,
    };
  });
}

/** Writes the receiver's own unsubscribe link into a newsletter message as the worker sends it. */
export function personalizeNewsletter(config: Pick<Config, "jwtSecret" | "publicUrl">) {
  return async (message: ClaimedMail): Promise<ClaimedMail> => {
    if (message.newsletterId === null) return message;
    const link = await unsubscribeUrl(config, message.recipient);
    const fill = (text: string) => text.replaceAll(UNSUBSCRIBE_LINK, link);
    return {
      ...message,
      textBody: fill(message.textBody),
      htmlBody: message.htmlBody?.replaceAll(UNSUBSCRIBE_LINK, escapeXml(link)) ?? null,
      headers: Object.fromEntries(
        Object.entries(message.headers).map(([name, value]) => [name, fill(value)]),
      ),
    };
  };
}

const delivered = (status: string) =>
  sql<number>`(count(${mailOutbox.id}) filter (where ${mailOutbox.status} in (${sql.raw(status)})))::int`;

/** GET /emails: the newsletters sent, newest first, with how their delivery goes. */
export async function pageNewsletters(
  db: Db,
  { page, limit }: { page: number; limit: number },
): Promise<NewsletterPage> {
  const [rows, [{ total } = { total: 0 }], [{ subscribers } = { subscribers: 0 }]] = await Promise.all([
    db
      .select({
        id: newsletterEmails.id,
        title: newsletterEmails.title,
        message: newsletterEmails.message,
        createdAt: newsletterEmails.createdAt,
        senderId: users.id,
        senderFirstName: users.firstName,
        senderLastName: users.lastName,
        queued: delivered("'queued', 'sending'"),
        sent: delivered("'sent'"),
        failed: delivered("'failed'"),
      })
      .from(newsletterEmails)
      .leftJoin(users, eq(users.id, newsletterEmails.sentBy))
      .leftJoin(mailOutbox, eq(mailOutbox.newsletterId, newsletterEmails.id))
      .groupBy(newsletterEmails.id, users.id)
      .orderBy(desc(newsletterEmails.id))
      .limit(limit)
      .offset((page - 1) * limit),
    db.select({ total: count() }).from(newsletterEmails),
    db
      .select({ subscribers: count() })
      .from(users)
      .where(sql`${users.newsletterSubscription} and ${users.deletedAt} is null`),
  ]);
  return {
    newsletters: rows.map((row) => ({
      id: row.id,
      title: row.title,
      message: row.message,
      createdAt: row.createdAt.toISOString(),
      sentBy:
        row.senderId === null
          ? null
          : { id: row.senderId, firstName: row.senderFirstName!, lastName: row.senderLastName! },
      delivery: { queued: row.queued, sent: row.sent, failed: row.failed },
    })),
    subscribers,
    ...pageInfo(page, limit, total),
  };
}
