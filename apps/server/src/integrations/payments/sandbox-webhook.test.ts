import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { InvalidWebhookSignature } from "./provider";
import {
  SANDBOX_SIGNATURE_HEADER,
  signSandboxEvent,
  startSandboxNotifier,
  verifySandboxSignature,
  type SandboxNotifier,
} from "./sandbox-webhook";

/**
 * The sandbox's notifications on their own: signed as documented, tried again with
 * backoff until a 2xx, given up with a warning, and stopped with nothing left running.
 */
const SECRET = "sandbox-webhook-test-secret";

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A store's webhook on this machine: answers each request with the next status of `statuses` (the last repeats); 0 never answers. */
async function startStore(statuses: number[]) {
  const received: Received[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString("utf8") });
      const status = statuses[Math.min(received.length, statuses.length) - 1]!;
      if (status === 0) return;
      response.writeHead(status, { "content-type": "application/json" }).end('{"received":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  servers.push(server);
  return { url: `http://127.0.0.1:${port}/api/sandbox/webhook`, received };
}

const servers: Server[] = [];
const notifiers: SandboxNotifier[] = [];
afterEach(async () => {
  await Promise.all(notifiers.splice(0).map((notifier) => notifier.stop()));
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

function notifier(url: string, retryDelaysMs: number[] = [20, 20, 20, 20]) {
  const log = { warn: vi.fn() };
  const started = startSandboxNotifier({ url, secret: SECRET, log, retryDelaysMs, attemptTimeoutMs: 2000 });
  notifiers.push(started);
  return { notifier: started, log };
}

const until = async (check: () => boolean, timeoutMs = 5000) => {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

describe("the sandbox's notifications", () => {
  it("POST a payment.updated event signed with t=…,v1=…, which the signature check accepts", async () => {
    const store = await startStore([200]);
    const { notifier: sandbox } = notifier(store.url);
    sandbox.notify("sbx_pay_1");
    await until(() => sandbox.pending === 0);
    expect(store.received).toHaveLength(1);
    const [{ headers, body }] = store.received as [Received];
    expect(headers["content-type"]).toBe("application/json");
    expect(JSON.parse(body)).toEqual({
      id: expect.stringMatching(/^evt_[0-9a-f]{24}$/),
      type: "payment.updated",
      data: { payment_id: "sbx_pay_1" },
    });
    const signature = headers[SANDBOX_SIGNATURE_HEADER] as string;
    expect(signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(() => verifySandboxSignature(SECRET, signature, Buffer.from(body))).not.toThrow();
  });

  it("return at once, whatever the store takes to answer", async () => {
    const store = await startStore([0]);
    const { notifier: sandbox } = notifier(store.url);
    const started = performance.now();
    sandbox.notify("sbx_pay_slow");
    expect(performance.now() - started).toBeLessThan(50);
    await until(() => store.received.length === 1);
    expect(sandbox.pending).toBe(1);
    // Stopping cuts the request that hangs.
    const stopping = performance.now();
    await sandbox.stop();
    expect(performance.now() - stopping).toBeLessThan(1000);
    expect(sandbox.pending).toBe(0);
  });

  it("are tried again until the store answers 2xx: the same event, signed anew each time", async () => {
    const store = await startStore([500, 503, 204]);
    const { notifier: sandbox, log } = notifier(store.url);
    sandbox.notify("sbx_pay_2");
    await until(() => sandbox.pending === 0);
    expect(store.received).toHaveLength(3);
    expect(new Set(store.received.map((request) => request.body)).size).toBe(1);
    for (const { headers, body } of store.received)
      verifySandboxSignature(SECRET, headers[SANDBOX_SIGNATURE_HEADER], Buffer.from(body));
    expect(log.warn).not.toHaveBeenCalled();
  });

  it("are given up after the last retry, with a warning", async () => {
    const store = await startStore([500]);
    const { notifier: sandbox, log } = notifier(store.url, [10, 10]);
    sandbox.notify("sbx_pay_3");
    await until(() => sandbox.pending === 0);
    expect(store.received).toHaveLength(3);
    expect(log.warn).toHaveBeenCalledOnce();
    expect(log.warn.mock.calls[0]![0]).toMatchObject({
      paymentId: "sbx_pay_3",
      attempts: 3,
      failure: "answered 500",
      eventId: JSON.parse(store.received[0]!.body).id,
    });
    // A store that can't be reached at all is given up the same way.
    const unreachable = notifier("http://127.0.0.1:9/api/sandbox/webhook", [10]);
    unreachable.notifier.notify("sbx_pay_4");
    await until(() => unreachable.notifier.pending === 0);
    expect(unreachable.log.warn).toHaveBeenCalledOnce();
  });

  it("stop with their retries, leaving no timer behind, and take no more after", async () => {
    const store = await startStore([500]);
    const { notifier: sandbox, log } = notifier(store.url, [60_000]);
    sandbox.notify("sbx_pay_5");
    sandbox.notify("sbx_pay_6");
    await until(() => store.received.length === 2);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(sandbox.pending).toBe(2);
    const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === "Timeout").length;
    const waiting = timers();
    await sandbox.stop();
    expect(sandbox.pending).toBe(0);
    expect(timers()).toBeLessThanOrEqual(waiting - 2);
    sandbox.notify("sbx_pay_7");
    expect(sandbox.pending).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(store.received).toHaveLength(2);
    expect(log.warn).not.toHaveBeenCalled();
  });
});

describe("a sandbox signature", () => {
  const body = Buffer.from('{"id":"evt_1","type":"payment.updated","data":{"payment_id":"sbx_pay_1"}}');
  const now = Math.floor(Date.now() / 1000);

  it("is accepted for the body it signs, with the secret, within five minutes", () => {
    verifySandboxSignature(SECRET, signSandboxEvent(SECRET, body, now - 299), body, now);
    verifySandboxSignature(SECRET, signSandboxEvent(SECRET, body.toString("utf8"), now), body, now);
  });

  it("is refused for another body, another secret, too old or malformed", () => {
    const genuine = signSandboxEvent(SECRET, body, now);
    const refused = [
      [genuine, Buffer.from(body.toString("utf8").replace("sbx_pay_1", "sbx_pay_2"))],
      [signSandboxEvent("another-secret", body, now), body],
      [signSandboxEvent(SECRET, body, now - 301), body],
      [signSandboxEvent(SECRET, body, now + 301), body],
      [genuine.slice(0, -1) + (genuine.endsWith("0") ? "1" : "0"), body],
      ["t=1,v1=00", body],
      [`v1=${genuine.split("v1=")[1]}`, body],
      ["", body],
      [undefined, body],
      [[genuine, genuine], body],
    ] as const;
    for (const [header, signed] of refused)
      expect(() =>
        verifySandboxSignature(SECRET, header as string | string[] | undefined, signed, now),
      ).toThrow(InvalidWebhookSignature);
  });
});
