import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { asc, eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { loadConfig, type Config } from "../../config";
import type { Database } from "../../db/client";
import { mailOutbox, networks } from "../../db/schema";
import { createTestApp } from "../../../test/app";
import { createTestDatabase } from "../../../test/database";
import { freePort } from "../../../test/processes";
import { startFakeSmtp, type FakeSmtp } from "../../../test/smtp-server";
import { queueMail, type MailMessage } from "./outbox";
import { claimNextMail, startMailWorker, type MailWorker } from "./worker";

/**
 * The outbox on a real database, delivering to a real SMTP server on 127.0.0.1 (the only fake: it stands
 * for the mail provider) or to .eml files. Time passing is the database's clock moved by hand: a due time
 * set to now() is what a minute of waiting would have done.
 */
let database: Database;
let smtp: FakeSmtp;
const workers: MailWorker[] = [];
const silent = { info() {}, warn() {}, error() {} };

beforeAll(async () => {
  database = await createTestDatabase("empty");
  smtp = await startFakeSmtp();
});
afterAll(async () => {
  await smtp?.close();
  await database?.close();
});
beforeEach(async () => {
  await database.db.delete(mailOutbox);
  smtp.received.length = 0;
  smtp.refuseNext(0);
  smtp.delayMs = 0;
});
afterEach(async () => {
  await Promise.all(workers.splice(0).map((worker) => worker.stop()));
});

const configWith = (env: Record<string, string> = {}): Config =>
  loadConfig({
    LOG_LEVEL: "silent",
    DATA_DIR: mkdtempSync(join(tmpdir(), "voltio-mail-")),
    JWT_SECRET: "test-secret-that-is-long-enough-for-hs256-signing",
    ...env,
  });

/** A worker as a server process runs it, but only delivering when the test calls runOnce(). */
const worker = (config: Config = configWith({ SMTP_URL: smtp.url })) => {
  const started = startMailWorker({ db: database.db, config, log: silent, poll: false });
  workers.push(started);
  return started;
};

const confirmation = (overrides: Partial<MailMessage> = {}): MailMessage => ({
  to: "buyer@example.com",
  subject: "Your Voltio order #12",
  text: "Thank you for your order.\nTotal: $42.50",
  html: "<p>Thank you for your order.</p><p>Total: $42.50</p>",
  ...overrides,
});

const rows = () => database.db.select().from(mailOutbox).orderBy(asc(mailOutbox.id));
const row = async (id: number) =>
  (await database.db.select().from(mailOutbox).where(eq(mailOutbox.id, id)))[0]!;
/** Seconds from the database's now() until the message is due (or its lease ends). */
const secondsUntilDue = async (id: number) =>
  (
    await database.db
      .select({ wait: sql`extract(epoch from ${mailOutbox.nextAttemptAt} - now())`.mapWith(Number) })
      .from(mailOutbox)
      .where(eq(mailOutbox.id, id))
  )[0]!.wait;
/** When the message is next due (a claim's lease end), in seconds since 1970, as the database counts. */
const dueAt = async (id: number) =>
  Number(
    (
      await database.db
        .select({ due: sql<number>`extract(epoch from ${mailOutbox.nextAttemptAt})::float8` })
        .from(mailOutbox)
        .where(eq(mailOutbox.id, id))
    )[0]!.due,
  );

/** What waiting would do: the message is due now. */

const timePasses = (id: number) =>
  database.db
    .update(mailOutbox)
    .set({ nextAttemptAt: sql`now() - interval '1 second'` })
    .where(eq(mailOutbox.id, id));

describe("queueMail", () => {
  it("queues in the caller's transaction: rolled back with it, committed with it", async () => {
    await expect(
      database.db.transaction(async (tx) => {
        await tx.update(networks).set({ facebook: "https://facebook.com/voltio" });
        await queueMail(tx, confirmation());
        throw new Error("the order could not be finished");
      }),
    ).rejects.toThrow("the order could not be finished");
    expect(await rows()).toEqual([]);

    const id = await database.db.transaction(async (tx) => queueMail(tx, confirmation()));
    expect(id).toEqual(expect.any(Number));
    expect(await row(id!)).toMatchObject({ status: "queued", attempts: 0, recipient: "buyer@example.com" });
  });

  it("queues a dedupe key once, even from concurrent transactions", async () => {
    const key = "order-confirmation:bulk:12";
    const ids = await Promise.all(
      Array.from({ length: 5 }, () =>
        database.db.transaction(async (tx) => queueMail(tx, confirmation({ dedupeKey: key }))),
      ),
    );
    expect(ids.filter((id) => id !== undefined)).toHaveLength(1);
    expect(await queueMail(database.db, confirmation({ dedupeKey: key, subject: "again" }))).toBeUndefined();
    // Messages without a key never collide.
    await queueMail(database.db, confirmation());
    await queueMail(database.db, confirmation());
    expect((await rows()).map((message) => message.dedupeKey)).toEqual([key, null, null]);

    expect(await worker().runOnce()).toBe(3);
    expect(smtp.received.filter((mail) => mail.header("subject") === "Your Voltio order #12")).toHaveLength(
      3,
    );
  });

  it("refuses what would break the message: a bad recipient, a line break in the subject, a From header", async () => {
    await expect(queueMail(database.db, confirmation({ to: "not-an-address" }))).rejects.toThrow();
    await expect(
      queueMail(database.db, confirmation({ subject: "Hi\r\nBcc: x@example.com" })),
    ).rejects.toThrow("subject must be one line");
    await expect(
      queueMail(database.db, confirmation({ headers: { From: "ceo@example.com" } })),
    ).rejects.toThrow("this header is set by the message");
    await expect(
      queueMail(database.db, confirmation({ headers: { "X-Note": "a\nBcc: x@example.com" } })),
    ).rejects.toThrow("a header value must be one line");
    expect(await rows()).toEqual([]);
  });
});

describe("delivery through SMTP", () => {
  it("hands the message to the SMTP server with its sender, recipient, subject, body and headers", async () => {
    const unsubscribe = "<https://shop.example.com/api/newsletter/unsubscribe?token=abc>";
    const id = (await queueMail(
      database.db,
      confirmation({
        headers: { "List-Unsubscribe": unsubscribe, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
      }),
    ))!;
    const mailer = worker();
    expect(await mailer.runOnce()).toBe(1);

    expect(smtp.received).toHaveLength(1);
    const [mail] = smtp.received;
    expect(mail!.mailFrom).toBe("no-reply@voltio.test");
    expect(mail!.rcptTo).toEqual(["buyer@example.com"]);
    expect(mail!.header("from")).toBe("Voltio <no-reply@voltio.test>");
    expect(mail!.header("to")).toBe("buyer@example.com");
    expect(mail!.header("subject")).toBe("Your Voltio order #12");
    expect(mail!.header("list-unsubscribe")).toBe(unsubscribe);
    expect(mail!.header("list-unsubscribe-post")).toBe("List-Unsubscribe=One-Click");
    expect(mail!.header("content-type")).toContain("multipart/alternative");
    expect(mail!.body).toContain("Thank you for your order.\r\nTotal: $42.50");
    expect(mail!.body).toContain("<p>Thank you for your order.</p>");

    const sent = await row(id);
    expect(mail!.header("message-id")).toBe(`<${sent.messageId}@voltio.test>`);
    expect(sent).toMatchObject({ status: "sent", attempts: 1, lastError: null });
    expect(sent.sentAt).toBeInstanceOf(Date);

    expect(await mailer.runOnce()).toBe(0);
    expect(smtp.received).toHaveLength(1);
  });

  it("uses MAIL_FROM", async () => {
    await queueMail(database.db, confirmation());
    await worker(
      configWith({ SMTP_URL: smtp.url, MAIL_FROM: '"Voltio Shop" <orders@shop.example.com>' }),
    ).runOnce();
    expect(smtp.received[0]!.mailFrom).toBe("orders@shop.example.com");
    expect(smtp.received[0]!.header("from")).toBe("Voltio Shop <orders@shop.example.com>");
    expect(smtp.received[0]!.header("message-id")).toMatch(/@shop\.example\.com>$/);
  });

  it("retries a refused attempt (451) after its backoff, and delivers it once", async () => {
    const id = (await queueMail(database.db, confirmation()))!;
    smtp.refuseNext(1, 451);
    const mailer = worker();

    expect(await mailer.runOnce()).toBe(0);
    let message = await row(id);
    expect(message).toMatchObject({ status: "queued", attempts: 1 });
    expect(message.lastError).toContain("451");
    expect(await secondsUntilDue(id)).toBeGreaterThan(55);
    expect(await secondsUntilDue(id)).toBeLessThanOrEqual(60);

    // Not due yet: nothing happens.
    expect(await mailer.runOnce()).toBe(0);
    expect(smtp.received).toHaveLength(0);

    await timePasses(id);
    expect(await mailer.runOnce()).toBe(1);
    message = await row(id);
    expect(message).toMatchObject({ status: "sent", attempts: 2, lastError: null });
    expect(smtp.received).toHaveLength(1);
    expect(await mailer.runOnce()).toBe(0);
    expect(smtp.received).toHaveLength(1);
  });

  it("waits longer after each failure and gives up after MAIL_MAX_ATTEMPTS", async () => {
    // Nothing listens there: every attempt fails to connect.
    const closed = `smtp://127.0.0.1:${await freePort()}`;
    const mailer = worker(configWith({ SMTP_URL: closed, MAIL_MAX_ATTEMPTS: "3" }));
    const id = (await queueMail(database.db, confirmation()))!;

    expect(await mailer.runOnce()).toBe(0);
    expect(await row(id)).toMatchObject({ status: "queued", attempts: 1 });
    expect(await secondsUntilDue(id)).toBeGreaterThan(55);
    await timePasses(id);
    expect(await mailer.runOnce()).toBe(0);
    expect(await row(id)).toMatchObject({ status: "queued", attempts: 2 });
    expect(await secondsUntilDue(id)).toBeGreaterThan(295);
    await timePasses(id);
    expect(await mailer.runOnce()).toBe(0);
    const failed = await row(id);
    expect(failed).toMatchObject({ status: "failed", attempts: 3 });
    expect(failed.lastError).toContain("ECONNREFUSED");

    await timePasses(id);
    expect(await mailer.runOnce()).toBe(0);
    expect(await row(id)).toMatchObject({ status: "failed", attempts: 3 });
  });

  it("marks a message the server refuses for good (5xx) failed without retrying", async () => {
    const id = (await queueMail(database.db, confirmation()))!;
    smtp.refuseNext(1, 554);
    expect(await worker().runOnce()).toBe(0);
    const failed = await row(id);
    expect(failed).toMatchObject({ status: "failed", attempts: 1 });
    expect(failed.lastError).toContain("554");
  });

  it("keeps retrying while the SMTP login is refused (a setting to fix, not a bad message)", async () => {
    const wrong = smtp.url.replace(/:[^:@]+@/, ":wrong@");
    const id = (await queueMail(database.db, confirmation()))!;
    expect(await worker(configWith({ SMTP_URL: wrong })).runOnce()).toBe(0);
    expect(smtp.received).toHaveLength(0);
    const waiting = await row(id);
    expect(waiting).toMatchObject({ status: "queued", attempts: 1 });
    expect(waiting.lastError).toContain("535");

    // The operator corrects SMTP_URL and restarts.
    await timePasses(id);
    expect(await worker().runOnce()).toBe(1);
    expect(await row(id)).toMatchObject({ status: "sent", attempts: 2 });
  });
});

describe("restarts and several workers", () => {
  it("sends a message left in 'sending' by a killed process again once its lease ends, once", async () => {
    const id = (await queueMail(database.db, confirmation()))!;
    // The last thing the killed process did: take the message. It never sent it.
    const config = configWith({ SMTP_URL: smtp.url });
    expect((await claimNextMail(database.db, config.mail.leaseSeconds))!.id).toBe(id);
    expect(await row(id)).toMatchObject({ status: "sending", attempts: 1 });
    expect(await secondsUntilDue(id)).toBeGreaterThan(config.mail.leaseSeconds - 5);

    // The restarted server's worker leaves it alone while the lease holds…
    const restarted = worker(config);
    expect(await restarted.runOnce()).toBe(0);
    expect(smtp.received).toHaveLength(0);

    // …and sends it once the lease is over.
    await timePasses(id);
    expect(await restarted.runOnce()).toBe(1);
    expect(smtp.received).toHaveLength(1);
    expect(await row(id)).toMatchObject({ status: "sent", attempts: 2 });
    expect(await restarted.runOnce()).toBe(0);
    expect(smtp.received).toHaveLength(1);
  });

  it("keeps a slow delivery's claim alive: another worker doesn't send it again meanwhile", async () => {
    const config = configWith({ SMTP_URL: smtp.url, MAIL_LEASE_SECONDS: "3" });
    const id = (await queueMail(database.db, confirmation()))!;
    // The SMTP server takes as long as the test needs to answer.
    const answer = smtp.holdReplies();
    const slow = worker(config).runOnce();
    await expect.poll(() => smtp.inHand, { timeout: 10_000 }).toBe(1);
    const claimedUntil = await dueAt(id);
    // Its claim is renewed while the message is in hand (every third of the lease)…
    await expect.poll(async () => (await dueAt(id)) > claimedUntil, { timeout: 10_000 }).toBe(true);
    // …so another worker leaves it alone, however long the delivery takes.
    expect(await worker(config).runOnce()).toBe(0);
    answer();
    expect(await slow).toBe(1);
    expect(smtp.received).toHaveLength(1);
    expect(await row(id)).toMatchObject({ status: "sent", attempts: 1 });
  });

  it("marks failed, without sending, a message whose last allowed attempt was interrupted", async () => {
    const config = configWith({ SMTP_URL: smtp.url, MAIL_MAX_ATTEMPTS: "1" });
    const id = (await queueMail(database.db, confirmation()))!;
    await claimNextMail(database.db, config.mail.leaseSeconds);
    await timePasses(id);
    expect(await worker(config).runOnce()).toBe(0);
    expect(smtp.received).toHaveLength(0);
    const failed = await row(id);
    expect(failed).toMatchObject({ status: "failed", attempts: 2 });
    expect(failed.lastError).toContain("interrupted");
  });

  it("two workers running at once send every message exactly once", async () => {
    const count = 40;
    for (let i = 0; i < count; i++)
      await queueMail(database.db, confirmation({ to: `buyer${i}@example.com` }));
    smtp.delayMs = 5;
    const [first, second] = [worker(), worker()];
    const delivered = await Promise.all([first.runOnce(), second.runOnce()]);

    expect(delivered[0] + delivered[1]).toBe(count);
    // Both took part: the test raced them for real.
    expect(delivered[0]).toBeGreaterThan(0);
    expect(delivered[1]).toBeGreaterThan(0);
    expect(smtp.received).toHaveLength(count);
    const recipients = smtp.received.map((mail) => mail.rcptTo[0]);
    expect(new Set(recipients).size).toBe(count);
    const messageIds = smtp.received.map((mail) => mail.header("message-id"));
    expect(new Set(messageIds).size).toBe(count);
    expect((await rows()).every((message) => message.status === "sent" && message.attempts === 1)).toBe(true);
  });

  it("hands each due message to exactly one of many claims made at the same moment", async () => {
    for (let i = 0; i < 5; i++) await queueMail(database.db, confirmation({ to: `buyer${i}@example.com` }));
    const claims = await Promise.all(Array.from({ length: 12 }, () => claimNextMail(database.db, 600)));
    const taken = claims.filter((claim) => claim !== undefined).map((claim) => claim.id);
    expect(taken).toHaveLength(5);
    expect(new Set(taken).size).toBe(5);
    expect((await rows()).every((message) => message.status === "sending" && message.attempts === 1)).toBe(
      true,
    );
  });
});

describe("delivery as .eml files", () => {
  it("writes each message to DATA_DIR/mail/<message id>.eml when SMTP_URL is unset", async () => {
    const config = configWith();
    expect(config.mail.smtpUrl).toBeUndefined();
    const id = (await queueMail(
      database.db,
      confirmation({ headers: { "List-Unsubscribe": "<https://x.test/u>" } }),
    ))!;
    expect(await worker(config).runOnce()).toBe(1);

    const { messageId } = await row(id);
    expect(readdirSync(config.mail.dir)).toEqual([`${messageId}.eml`]);
    const eml = readFileSync(join(config.mail.dir, `${messageId}.eml`), "utf8");
    expect(eml).toContain("From: Voltio <no-reply@voltio.test>\r\n");
    expect(eml).toContain("To: buyer@example.com\r\n");
    expect(eml).toContain("Subject: Your Voltio order #12\r\n");
    expect(eml).toContain(`Message-ID: <${messageId}@voltio.test>\r\n`);
    expect(eml).toContain("List-Unsubscribe: <https://x.test/u>\r\n");
    expect(eml).toContain("Thank you for your order.\r\nTotal: $42.50");
    expect(eml).not.toMatch(/[^\r]\n/);
    expect(await row(id)).toMatchObject({ status: "sent", attempts: 1 });
  });

  it("retries when the directory can't be written", async () => {
    const config = configWith();
    // A file where the mail directory should be.
    const { writeFileSync } = await import("node:fs");
    writeFileSync(config.mail.dir, "");
    const id = (await queueMail(database.db, confirmation()))!;
    expect(await worker(config).runOnce()).toBe(0);
    expect(await row(id)).toMatchObject({ status: "queued", attempts: 1 });
    expect((await row(id)).lastError).toMatch(/EEXIST|ENOTDIR/);
  });
});

describe("the worker in the background", () => {
  it("delivers right after notify(), without waiting for the next poll, and stops cleanly", async () => {
    const config = configWith({ SMTP_URL: smtp.url, MAIL_POLL_MS: "3600000" });
    const background = startMailWorker({ db: database.db, config, log: silent });
    workers.push(background);
    await queueMail(database.db, confirmation());
    background.notify();
    await expect.poll(() => smtp.received.length, { timeout: 10_000 }).toBe(1);
    await background.stop();
    // Woken after it stopped, it takes nothing: a live worker woken right after it delivers the message, on
    // its first attempt and with no error (the stopped one's transport is closed: had it claimed the message
    // first, that claim would show as a failed attempt).
    const id = (await queueMail(database.db, confirmation()))!;
    background.notify();
    const live = startMailWorker({ db: database.db, config, log: silent });
    workers.push(live);
    live.notify();
    await expect.poll(async () => (await row(id)).status, { timeout: 10_000 }).toBe("sent");
    expect(await row(id)).toMatchObject({ attempts: 1, lastError: null });
    expect(smtp.received).toHaveLength(2);
  });

  it("runs with the server: the app's worker polls every MAIL_POLL_MS and stops when the app closes", async () => {
    const t = await createTestApp({
      contents: "empty",
      mailWorker: true,
      env: { SMTP_URL: smtp.url, MAIL_POLL_MS: "100" },
    });
    try {
      await queueMail(t.database.db, confirmation());
      await expect.poll(() => smtp.received.length, { timeout: 10_000 }).toBe(1);
    } finally {
      await t.close();
    }
    expect(existsSync(t.config.mail.dir)).toBe(false);
  });
});
