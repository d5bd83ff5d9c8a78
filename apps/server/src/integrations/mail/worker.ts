import { and, eq, inArray, lte, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Config, MailConfig } from "../../config";
import type { Db } from "../../db/client";
import { mailOutbox } from "../../db/schema";
import type { WorkerMetrics } from "../../modules/metrics/registry";
import { startPollingWorker, type PollingWorker } from "../../workers/polling-worker";
import { createMailTransport, describeFailure, isPermanentFailure, type MailTransport } from "./transport";

/**
 * runOnce() delivers every message due now, one after the other, and resolves with how many were delivered;
 * notify() says a message was just queued (and committed): deliver soon rather than at the next poll; stop()
 * finishes the message in hand, then closes the transport's connections. The loop (timer, notify, backoff
 * while the database is away) is workers/polling-worker.ts's.
 */
export type MailWorker = PollingWorker<number>;

export interface MailWorkerOptions {
  db: Db;
  config: Pick<Config, "mail">;
  log: Pick<FastifyBaseLogger, "info" | "warn" | "error">;
  /**
   * Look for due messages every MAIL_POLL_MS and when notified (the default). Tests pass false and call
   * runOnce() themselves.
   */
  poll?: boolean;
  /**
   * The last touch to a message before it goes out, e.g. the newsletter's per-receiver unsubscribe link
   * (modules/newsletter/send.ts): what a message says can depend on its receiver without being stored so.
   */
  personalize?: (message: ClaimedMail) => Promise<ClaimedMail>;
  /** The wait between failed rounds grows up to this (default: polling-worker.ts's MAX_BACKOFF_MS). */
  maxBackoffMs?: number;
  metrics?: WorkerMetrics;
}

/** Wait after the nth failed attempt: 1 min, 5 min, 30 min, 2 h, 6 h, 12 h, then a day. */
const RETRY_DELAYS_SECONDS = [60, 300, 1800, 7200, 21_600, 43_200, 86_400];
export const retryDelaySeconds = (attempts: number) =>
  RETRY_DELAYS_SECONDS[Math.min(attempts, RETRY_DELAYS_SECONDS.length) - 1]!;

export type ClaimedMail = typeof mailOutbox.$inferSelect;

/**
 * Takes the next due message: a queued one whose time has come, or one still 'sending' whose lease ran out
 * (the process sending it died). The row is locked with SKIP LOCKED, so workers in several processes never
 * take the same message; taking it counts an attempt and leases it until now + MAIL_LEASE_SECONDS. Times
 * are the database's clock, the one clock every process shares.
 */
export async function claimNextMail(db: Db, leaseSeconds: number): Promise<ClaimedMail | undefined> {
  const due = db
    .select({ id: mailOutbox.id })
    .from(mailOutbox)
    .where(and(inArray(mailOutbox.status, ["queued", "sending"]), lte(mailOutbox.nextAttemptAt, sql`now()`)))
    .orderBy(mailOutbox.nextAttemptAt, mailOutbox.id)
    .limit(1)
    .for("update", { skipLocked: true });
  const [claimed] = await db
    .update(mailOutbox)
    .set({
      status: "sending",
      attempts: sql`${mailOutbox.attempts} + 1`,
      nextAttemptAt: sql`now() + ${leaseSeconds} * interval '1 second'`,
      updatedAt: sql`now()`,
    })
    .where(inArray(mailOutbox.id, due))
    .returning();
  return claimed;
}

/**
 * The delivery worker: one per server process, any number of processes. A message is marked sent right
 * after the transport took it; only a process that dies between the two (or a send that outlasts the lease)
 * can send a message twice.
 */
export function startMailWorker({
  db,
  config,
  log,
  poll = true,
  personalize = async (message) => message,
  maxBackoffMs,
  metrics,
}: MailWorkerOptions): MailWorker {
  const settings: MailConfig = config.mail;
  const transport: MailTransport = createMailTransport(settings);

  async function deliverDue(stopping: AbortSignal): Promise<number> {
    let delivered = 0;
    while (!stopping.aborted) {
      const message = await claimNextMail(db, settings.leaseSeconds);
      if (!message) break;
      if (await deliver(message)) delivered++;
    }
    return delivered;
  }

  async function deliver(message: ClaimedMail): Promise<boolean> {
    if (message.attempts > settings.maxAttempts) {
      // Its last attempt was cut short by a process that ended while sending: don't start another.
      await finish(
        message.id,
        "failed",
        `gave up: attempt ${message.attempts - 1} of ${settings.maxAttempts} was interrupted`,
      );
      log.error(`mail #${message.id} to ${message.recipient} failed: its last attempt was interrupted`);
      return false;
    }
    // The lease is renewed while the message is in hand: only a worker that died lets it run out.
    const heartbeat = setInterval(
      () => {
        void db
          .update(mailOutbox)
          .set({ nextAttemptAt: sql`now() + ${settings.leaseSeconds} * interval '1 second'` })
          .where(and(eq(mailOutbox.id, message.id), eq(mailOutbox.status, "sending")))
          .catch(() => {});
      },
      (settings.leaseSeconds * 1000) / 3,
    );
    try {
      const content = await personalize(message);
      const { location } = await transport.deliver({
        messageId: message.messageId,
        to: message.recipient,
        subject: message.subject,
        text: content.textBody,
        html: content.htmlBody,
        headers: content.headers,
        date: message.createdAt,
      });
      await db
        .update(mailOutbox)
        .set({ status: "sent", sentAt: sql`now()`, lastError: null, updatedAt: sql`now()` })
        .where(eq(mailOutbox.id, message.id));
      log.info(`mail #${message.id} "${message.subject}" to ${message.recipient}: ${location ?? "sent"}`);
      return true;
    } catch (error) {
      const reason = describeFailure(error);
      if (isPermanentFailure(error) || message.attempts >= settings.maxAttempts) {
        await finish(message.id, "failed", reason);
        log.error(
          `mail #${message.id} to ${message.recipient} failed after ${message.attempts} attempt(s): ${reason}`,
        );
      } else {
        const delay = retryDelaySeconds(message.attempts);
        await db
          .update(mailOutbox)
          .set({
            status: "queued",
            lastError: reason,
            nextAttemptAt: sql`now() + ${delay} * interval '1 second'`,
            updatedAt: sql`now()`,
          })
          .where(eq(mailOutbox.id, message.id));
        log.warn(
          `mail #${message.id} to ${message.recipient}: attempt ${message.attempts} failed (${reason}); next in ${delay} s`,
        );
      }
      return false;
    } finally {
      clearInterval(heartbeat);
    }
  }

  const finish = (id: number, status: "failed", lastError: string) =>
    db
      .update(mailOutbox)
      .set({ status, lastError, updatedAt: sql`now()` })
      .where(eq(mailOutbox.id, id));

  if (poll) log.info(`mail: delivering through ${transport.description}`);
  // Messages left from before a restart go out at once, not a poll later.
  const worker = startPollingWorker({
    name: "mail",
    round: deliverDue,
    pollMs: settings.pollMs,
    background: poll,
    roundAtStart: true,
    maxBackoffMs,
    log,
    metrics,
  });
  return {
    ...worker,
    async stop() {
      await worker.stop();
      transport.close();
    },
  };
}
