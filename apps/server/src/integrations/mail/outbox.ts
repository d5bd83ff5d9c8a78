import { sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../../db/client";
import { mailOutbox } from "../../db/schema";

/**
 * The store's outgoing mail is a table: a change that causes a message queues it in its own transaction, so
 * the two commit (or roll back) together, and the worker (worker.ts) delivers it afterwards. Nothing is
 * sent from inside a transaction, and nothing is lost if the mail server is down or the process ends.
 */

/** Headers the message itself sets: a queued message may add others (List-Unsubscribe…), not replace these. */
const RESERVED_HEADERS = new Set([
  "from",
  "to",
  "cc",
  "bcc",
  "subject",
  "date",
  "message-id",
  "mime-version",
  "content-type",
  "content-transfer-encoding",
  "sender",
  "return-path",
]);

const noLineBreaks = (what: string) =>
  z.string().refine((value) => !/[\r\n]/.test(value), `${what} must be one line`);

export const mailMessageSchema = z.object({
  /** One recipient per message: each gets its own copy (and, for the newsletter, its own unsubscribe link). */
  to: z.email().max(254),
  subject: noLineBreaks("subject").pipe(z.string().min(1).max(500)),
  text: z.string().min(1),
  html: z.string().min(1).optional(),
  headers: z
    .record(
      z
        .string()
        .regex(/^[!-9;-~]+$/, "a header name is printable ASCII without ':' or spaces")
        .refine((name) => !RESERVED_HEADERS.has(name.toLowerCase()), "this header is set by the message"),
      noLineBreaks("a header value").pipe(z.string().max(2000)),
    )
    .default({}),
  /** What caused the message, e.g. `order-confirmation:bulk:12`: the same key is queued once, ever. */
  dedupeKey: z.string().min(1).max(200).optional(),
});

export type MailMessage = z.input<typeof mailMessageSchema>;

/**
 * Queues a message in the caller's transaction (or, given the database itself, on its own). Returns the
 * message's id, or undefined when its dedupe key was queued before (then nothing changes).
 */
export async function queueMail(tx: Pick<Db, "insert">, message: MailMessage): Promise<number | undefined> {
  const { to, subject, text, html, headers, dedupeKey } = mailMessageSchema.parse(message);
  const [row] = await tx
    .insert(mailOutbox)
    .values({ recipient: to, subject, textBody: text, htmlBody: html, headers, dedupeKey })
    .onConflictDoNothing({ target: mailOutbox.dedupeKey })
    .returning({ id: mailOutbox.id });
  return row?.id;
}

/** How many messages the outbox holds in each status (for /api/metrics). */
export async function outboxDepth(db: Db): Promise<{ status: string; count: number }[]> {
  const rows = await db
    .select({ status: mailOutbox.status, count: sql<number>`count(*)::int` })
    .from(mailOutbox)
    .groupBy(mailOutbox.status);
  return rows.map((row) => ({ status: row.status, count: Number(row.count) }));
}
