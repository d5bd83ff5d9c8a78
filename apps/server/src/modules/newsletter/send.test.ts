import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { asc, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../config";
import { auditLog, mailOutbox, newsletterUnsubscribes, users } from "../../db/schema";
import { startMailWorker } from "../../integrations/mail/worker";
import { createTestApp, type TestContext } from "../../../test/app";
import { startFakeSmtp, type FakeSmtp } from "../../../test/smtp-server";
import { personalizeNewsletter } from "./send";

/**
 * POST /emails and GET /emails on a real database, delivered by the real mail worker to a
 * real SMTP server on 127.0.0.1 (the one fake: it stands for the mail provider).
 */
let t: TestContext;
let smtp: FakeSmtp;
let serial = 0;
beforeAll(async () => {
  [t, smtp] = await Promise.all([createTestApp(), startFakeSmtp()]);
});
afterAll(async () => {
  await smtp?.close();
  await t?.close();
});
beforeEach(async () => {
  await t.database.db.delete(mailOutbox);
  // Only this file's own users are subscribed: each test decides who.
  await t.database.db.update(users).set({ newsletterSubscription: false });
  smtp.received.length = 0;
  smtp.refuseNext(0);
});

const send = async (payload: unknown, headers?: Record<string, string>) =>
  t.app.inject({
    method: "POST",
    url: "/api/emails",
    headers: headers ?? (await t.bearer(1)),
    payload: payload as object,
  });

async function subscriber(subscribed = true) {
  const email = `reader-${++serial}@voltio.test`;
  const [row] = await t.database.db
    .insert(users)
    .values({
      firstName: "Reader",
      lastName: "R",
      email,
      passwordHash: "x",
      newsletterSubscription: subscribed,
    })
    .returning({ id: users.id });
  return { id: row!.id, email };
}

const queuedTo = async (newsletterId: number) =>
  (
    await t.database.db
      .select({ recipient: mailOutbox.recipient })
      .from(mailOutbox)
      .where(eq(mailOutbox.newsletterId, newsletterId))
      .orderBy(asc(mailOutbox.recipient))
  ).map((row) => row.recipient);

/** The mail worker as the server runs it, delivering to the fake SMTP server when the test says so. */
function worker() {
  const config = loadConfig({
    LOG_LEVEL: "silent",
    DATA_DIR: mkdtempSync(join(tmpdir(), "voltio-newsletter-")),
    JWT_SECRET: t.config.jwtSecret,
    SMTP_URL: smtp.url,
  });
  return startMailWorker({
    db: t.database.db,
    config,
    log: { info() {}, warn() {}, error() {} },
    poll: false,
    personalize: personalizeNewsletter(t.config),
  });
}

/** Quoted-printable as nodemailer writes long lines: soft breaks joined, '=3D' back to '='. */
const decoded = (body: string) => body.replace(/=\r\n/g, "").replace(/=3D/g, "=");

describe("POST /api/emails", () => {
  it("needs a subject and a message, with the SPEC's words, and someone to send to", async () => {
    const empty = await send({ title: " ", message: "", receivers: ["a@b.co"] });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().details).toEqual(
      expect.arrayContaining([
        { field: "title", reason: "Subject is required" },
        { field: "message", reason: "Message is required" },
      ]),
    );
    const nobody = await send({ title: "Hi", message: "News", receivers: ["", "not-an-email"] });
    expect(nobody.statusCode).toBe(400);
    expect(nobody.json().details).toEqual([
      { field: "receivers", reason: "must list at least one e-mail address, or All" },
    ]);
    for (const body of [
      { title: "Hi", message: "News" },
      { title: "Hi", message: "News", receivers: "All" },
    ]) {
      const reply = await send(body);
      expect(reply.statusCode, JSON.stringify(body)).toBe(400);
      expect(reply.json().details[0].field).toBe("receivers");
    }
    const twoLines = await send({ title: "Hi\r\nBcc: x@y.z", message: "News", receivers: ["a@b.co"] });
    expect(twoLines.statusCode).toBe(400);
    expect(await t.database.db.select().from(mailOutbox)).toEqual([]);
  });

  it("is for admins only", async () => {
    const payload = { title: "Hi", message: "News", receivers: ["a@b.co"] };
    expect((await send(payload, {})).statusCode).toBe(401);
    expect((await send(payload, await t.bearer(2))).statusCode).toBe(403);
    expect((await t.app.inject({ url: "/api/emails", headers: await t.bearer(2) })).statusCode).toBe(403);
  });

  it("queues one message per receiver: All's subscribers and typed addresses, each once; invalid ones and unsubscribed ones left out", async () => {
    const [reader, other, quiet] = [await subscriber(), await subscriber(), await subscriber(false)];
    await t.database.db.insert(newsletterUnsubscribes).values({ email: "gone@elsewhere.test" });
    const reply = await send({
      title: "November deals",
      message: "Hello!\n\nEverything is 10% off.",
      receivers: [
        "All",
        "friend@elsewhere.test",
        "FRIEND@elsewhere.test ",
        reader.email.toUpperCase(),
        "not an e-mail",
        "",
        quiet.email,
        "gone@elsewhere.test",
      ],
    });
    expect(reply.statusCode, reply.body).toBe(201);
    const sent = reply.json<{
      id: number;
      msg: string;
      queued: number;
      ignored: string[];
      skipped: number;
    }>();
    expect(sent).toMatchObject({
      msg: "Email sent !",
      queued: 3,
      ignored: ["not an e-mail", ""],
      skipped: 2,
    });
    expect(await queuedTo(sent.id)).toEqual(["friend@elsewhere.test", reader.email, other.email].sort());
    const [entry] = await t.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, "newsletter.send"))
      .orderBy(sql`${auditLog.id} desc`)
      .limit(1);
    expect(entry).toMatchObject({ actorId: 1, entityId: String(sent.id) });
  });

  it("refuses a send that reaches nobody, and keeps nothing of it", async () => {
    const reply = await send({ title: "Hi", message: "News", receivers: ["All"] });
    expect(reply.statusCode).toBe(409);
    expect(await t.database.db.select().from(mailOutbox)).toEqual([]);
  });

  it("sends 10,000 subscribers in one request: queued, not delivered, while the request runs", async () => {
    await t.database.db.execute(sql`
      insert into users (first_name, last_name, email, password_hash, newsletter_subscription)
      select 'Bulk', 'Reader', 'bulk-' || n || '@voltio.test', 'x', true from generate_series(1, 10000) as n`);
    const reply = await send({ title: "To everyone", message: "Big news", receivers: ["All"] });
    expect(reply.statusCode, reply.body).toBe(201);
    const { id, queued } = reply.json<{ id: number; queued: number }>();
    expect(queued).toBe(10_000);
    const progress = await t.app.inject({ url: "/api/emails?limit=1", headers: await t.bearer(1) });
    expect(progress.json().newsletters[0]).toMatchObject({
      id,
      title: "To everyone",
      sentBy: { id: 1 },
      delivery: { queued: 10_000, sent: 0, failed: 0 },
    });
    expect(progress.json().subscribers).toBe(10_000);
    await t.database.db.delete(users).where(sql`${users.email} like 'bulk-%@voltio.test'`);
  });
});

describe("delivery", () => {
  it("goes through SMTP with each receiver's own unsubscribe link; a refused message is retried; the link unsubscribes", async () => {
    const readers = [await subscriber(), await subscriber()];
    const reply = await send({
      title: "Weekly",
      message: "Line one\nLine <two>",
      receivers: ["All", "guest@elsewhere.test"],
    });
    expect(reply.statusCode, reply.body).toBe(201);
    const { id } = reply.json<{ id: number }>();

    const mailer = worker();
    smtp.refuseNext(1);
    expect(await mailer.runOnce()).toBe(2);
    const progress = async () =>
      (await t.app.inject({ url: "/api/emails", headers: await t.bearer(1) }))
        .json()
        .newsletters.find((newsletter: { id: number }) => newsletter.id === id).delivery;
    expect(await progress()).toEqual({ queued: 1, sent: 2, failed: 0 });
    // The refused one waits a minute: what a minute of waiting does.
    await t.database.db
      .update(mailOutbox)
      .set({ nextAttemptAt: sql`now()` })
      .where(eq(mailOutbox.status, "queued"));
    expect(await mailer.runOnce()).toBe(1);
    expect(await progress()).toEqual({ queued: 0, sent: 3, failed: 0 });
    await mailer.stop();

    expect(smtp.received.map((mail) => mail.rcptTo[0]).sort()).toEqual(
      ["guest@elsewhere.test", ...readers.map((r) => r.email)].sort(),
    );
    const links = smtp.received.map((mail) => {
      expect(mail.header("subject")).toBe("Weekly");
      expect(mail.header("list-unsubscribe-post")).toBe("List-Unsubscribe=One-Click");
      const link = /^<(http:\/\/localhost:3000\/api\/newsletter\/unsubscribe\?token=[^>]+)>$/.exec(
        mail.header("list-unsubscribe") ?? "",
      )?.[1];
      expect(link, mail.raw).toBeTruthy();
      const body = decoded(mail.body);
      expect(body).toContain("Line one");
      expect(body).toContain("Line &lt;two&gt;");
      expect(body).not.toContain("%%UNSUBSCRIBE_URL%%");
      return { to: mail.rcptTo[0]!, link: link! };
    });
    expect(new Set(links.map((l) => l.link)).size).toBe(3);

    // One-click unsubscribe (RFC 8058) from the first reader's own link, and from the guest's.
    for (const who of [readers[0]!.email, "guest@elsewhere.test"]) {
      const { link } = links.find((l) => l.to === who)!;
      const url = link.replace("http://localhost:3000", "");
      const done = await t.app.inject({
        method: "POST",
        url,
        headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
        payload: "List-Unsubscribe=One-Click",
      });
      expect(done.statusCode, done.body).toBe(200);
    }
    const again = await send({
      title: "Next week",
      message: "More",
      receivers: ["All", "guest@elsewhere.test"],
    });
    expect(again.json()).toMatchObject({ queued: 1, skipped: 1 });
    expect(await queuedTo(again.json().id)).toEqual([readers[1]!.email]);
    const [first] = await t.database.db
      .select({ subscribed: users.newsletterSubscription })
      .from(users)
      .where(inArray(users.email, [readers[0]!.email]));
    expect(first!.subscribed).toBe(false);
  });

  it("marks a message refused for good as failed, and counts it", async () => {
    await subscriber();
    const { id } = (await send({ title: "Oops", message: "x", receivers: ["All"] })).json<{ id: number }>();
    const mailer = worker();
    smtp.refuseNext(1, 554);
    await mailer.runOnce();
    await mailer.stop();
    const page = (await t.app.inject({ url: "/api/emails", headers: await t.bearer(1) })).json();
    expect(page.newsletters.find((n: { id: number }) => n.id === id).delivery).toEqual({
      queued: 0,
      sent: 0,
      failed: 1,
    });
  });
});
