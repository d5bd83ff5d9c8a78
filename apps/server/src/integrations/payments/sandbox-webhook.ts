import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { FastifyBaseLogger } from "fastify";
import { InvalidWebhookSignature, WEBHOOK_TOLERANCE_SECONDS, signatureParts } from "./provider";

/**
 * The sandbox's notifications, as a payment company sends them: once the card page has
 * decided a charge, a signed `payment.updated` event goes to the store's POST /api/sandbox/webhook, tried
 * again with backoff until the store answers 2xx. The store believes only the signature, and then only the
 * payment id: what became of it is read from the sandbox's books.
 */
export const SANDBOX_SIGNATURE_HEADER = "voltio-sandbox-signature";

/** The one event type: a payment's status was decided (approved, rejected or pending). */
export const SANDBOX_EVENT_TYPE = "payment.updated";

export interface SandboxEvent {
  id: string;
  type: typeof SANDBOX_EVENT_TYPE;
  data: { payment_id: string };
}

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, as Stripe signs its events. */
export function signSandboxEvent(secret: string, rawBody: string | Buffer, timestamp = nowSeconds()): string {
  return `t=${timestamp},v1=${hmac(secret, timestamp, rawBody).toString("hex")}`;
}

/** Throws InvalidWebhookSignature unless `header` signs `rawBody` with `secret`, within the tolerance. */
export function verifySandboxSignature(
  secret: string,
  header: string | string[] | undefined,
  rawBody: Buffer,
  now = nowSeconds(),
): void {
  if (typeof header !== "string" || !header)
    throw new InvalidWebhookSignature(`A sandbox notification needs its ${SANDBOX_SIGNATURE_HEADER} header`);
  const parts = signatureParts(header);
  const t = parts.get("t") ?? "";
  const v1 = parts.get("v1") ?? "";
  if (!/^\d{1,12}$/.test(t) || !/^[0-9a-f]{64}$/i.test(v1))
    throw new InvalidWebhookSignature(`${SANDBOX_SIGNATURE_HEADER} must be t=…,v1=…`);
  if (!timingSafeEqual(Buffer.from(v1, "hex"), hmac(secret, Number(t), rawBody)))
    throw new InvalidWebhookSignature(`${SANDBOX_SIGNATURE_HEADER} does not match this notification`);
  if (Math.abs(now - Number(t)) > WEBHOOK_TOLERANCE_SECONDS)
    throw new InvalidWebhookSignature(`${SANDBOX_SIGNATURE_HEADER} is too old`);
}

const hmac = (secret: string, timestamp: number, rawBody: string | Buffer) =>
  createHmac("sha256", secret).update(`${timestamp}.`).update(rawBody).digest();

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** After the first attempt: 1 s, 5 s, 25 s and 2 min, then the notification is given up with a warning. */
export const SANDBOX_RETRY_DELAYS_MS = [1_000, 5_000, 25_000, 120_000];

export interface SandboxNotifierOptions {
  /** The store's POST /api/sandbox/webhook, at its public address. */
  url: string;
  secret: string;
  log: Pick<FastifyBaseLogger, "warn">;
  retryDelaysMs?: readonly number[];
  /** How long one attempt may take before it counts as failed. */
  attemptTimeoutMs?: number;
}

export interface SandboxNotifier {
  /** Sends a `payment.updated` event about `paymentId` in the background; the caller never waits for it. */
  notify(paymentId: string): void;
  /** Notifications not yet delivered nor given up (in flight or waiting for a retry). */
  readonly pending: number;
  /** Cancels what is waiting and in flight: nothing is left running, no timer is left behind. */
  stop(): Promise<void>;
}

export function startSandboxNotifier({
  url,
  secret,
  log,
  retryDelaysMs = SANDBOX_RETRY_DELAYS_MS,
  attemptTimeoutMs = 10_000,
}: SandboxNotifierOptions): SandboxNotifier {
  const stopping = new AbortController();
  const timers = new Set<NodeJS.Timeout>();
  const inFlight = new Set<Promise<void>>();
  let pending = 0;

  /** One POST; the reason it failed, or null once the store took it. */
  async function attempt(body: string): Promise<string | null> {
    try {
      const response = await fetch(url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "user-agent": "Voltio-Sandbox/1",
          [SANDBOX_SIGNATURE_HEADER]: signSandboxEvent(secret, body),
        },
        body,
        redirect: "manual",
        signal: AbortSignal.any([stopping.signal, AbortSignal.timeout(attemptTimeoutMs)]),
      });
      // The body is not needed, but read: an unread one keeps its connection from being reused.
      await response.arrayBuffer().catch(() => undefined);
      return response.ok ? null : `answered ${response.status}`;
    } catch (error) {
      return (error as Error).message;
    }
  }

  function deliver(event: SandboxEvent, body: string, attempts: number) {
    const run = attempt(body).then((failure) => {
      inFlight.delete(run);
      if (failure === null || stopping.signal.aborted) {
        pending--;
        return;
      }
      const delay = retryDelaysMs[attempts - 1];
      if (delay === undefined) {
        pending--;
        log.warn(
          { eventId: event.id, paymentId: event.data.payment_id, attempts, failure, url },
          "The sandbox gave up notifying the store of a payment: its return page or the re-check settles it",
        );
        return;
      }
      const timer = setTimeout(() => {
        timers.delete(timer);
        deliver(event, body, attempts + 1);
      }, delay);
      timers.add(timer);
    });
    inFlight.add(run);
  }

  return {
    notify(paymentId) {
      if (stopping.signal.aborted) return;
      const event: SandboxEvent = {
        id: `evt_${randomBytes(12).toString("hex")}`,
        type: SANDBOX_EVENT_TYPE,
        data: { payment_id: paymentId },
      };
      pending++;
      // Each attempt is signed anew (a retry minutes later is still within the tolerance); the event id stays.
      deliver(event, JSON.stringify(event), 1);
    },
    get pending() {
      return pending;
    },
    async stop() {
      stopping.abort();
      for (const timer of timers) clearTimeout(timer);
      pending -= timers.size;
      timers.clear();
      await Promise.all(inFlight);
    },
  };
}
