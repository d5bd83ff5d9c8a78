import type { FastifyReply, FastifyRequest } from "fastify";
import type { Config } from "../../config";
import type { Db } from "../../db/client";
import { TooManyAttempts } from "../../errors";
import { normalizeIp } from "../../http/normalize-ip";
import { SharedWindowCounter } from "./shared-counter";

const emailOf = (request: FastifyRequest) => {
  const email = (request.body as { email?: unknown } | undefined)?.email;
  return typeof email === "string" ? email.trim().toLowerCase() : "";
};

/** The client's address, IPv6 by its /64 (normalize-ip.ts). */
const addressOf = (request: FastifyRequest) => normalizeIp(request.ip);

/** Every auth limit counts in one window length, in the database all processes share. */
export const authCounter = (db: Db, config: Pick<Config, "authRateLimit">) =>
  new SharedWindowCounter(db, config.authRateLimit.windowSeconds);

/**
 * Two counters per guarded route (ASVS 2.2.1): one per client IP, so one machine can't hammer the endpoint,
 * and one per e-mail, so one address (e-mail check, registration) can't be probed from many machines. Over
 * either one the reply is 429 with Retry-After. The windows live in PostgreSQL (shared-counter.ts), so every
 * process counts the same requests. Logins are guarded by LoginGuard instead.
 */
export class AuthRateLimit {
  constructor(
    private readonly counter: SharedWindowCounter,
    private readonly config: Pick<Config, "authRateLimit">,
    private readonly name: string,
  ) {}

  private async hit(reply: FastifyReply, key: string, max: number) {
    const window = (await this.counter.add([key], 1)).get(key)!;
    if (window.count > max) refuse(reply, key, window.retryAfterSeconds);
  }

  /** Counts one request of this IP. */
  async hitIp(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    await this.hit(reply, `${this.name}:ip:${addressOf(request)}`, this.config.authRateLimit.perIp);
  }

  /** Counts one request for the e-mail in the body. */
  async hitEmail(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const email = emailOf(request);
    if (email) await this.hit(reply, `${this.name}:email:${email}`, this.config.authRateLimit.perEmail);
  }
}

function refuse(reply: FastifyReply, key: string, retryAfterSeconds: number): never {
  reply.log.warn({ event: "rate-limited", key }, "too many attempts");
  throw new TooManyAttempts("Too many attempts, try again later", Math.max(1, retryAfterSeconds));
}

export interface SlowdownSchedule {
  /** Failures of an e-mail (from anywhere) before its logins slow down. */
  after: number;
  /** The first delay; each further failure doubles it… */
  baseMs: number;
  /** …up to this. */
  maxMs: number;
}

/** How long a login for an e-mail waits, given the failures counted against it in the window. */
export function loginDelayMs(failures: number, { after, baseMs, maxMs }: SlowdownSchedule): number {
  if (failures < after || baseMs <= 0) return 0;
  return Math.min(maxMs, baseMs * 2 ** Math.min(failures - after, 30));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Password guessing without locking owners out (ASVS 2.2.1), counted in the database every process shares. Failed logins count per client address and per
 * (e-mail, address): over either one the reply is 429 with Retry-After. Failures of an e-mail from every
 * address only slow its logins down (loginDelayMs), so guessing from many machines can't keep the owner
 * out: the right password from another address always gets in. Each attempt is counted as a failure before
 * the password is checked, so parallel guesses can't slip past the limits, and taken back when it succeeds,
 * which also resets the e-mail's and the pair's counts.
 */
export class LoginGuard {
  private readonly schedule: SlowdownSchedule;

  constructor(
    private readonly failures: SharedWindowCounter,
    private readonly config: Pick<Config, "authRateLimit">,
  ) {
    const { perEmail, loginDelayMs: baseMs, loginMaxDelayMs: maxMs } = config.authRateLimit;
    this.schedule = { after: perEmail, baseMs, maxMs };
  }

  /** Before the password is checked: refuses or waits, then counts the attempt as a failure. */
  async begin(request: FastifyRequest, reply: FastifyReply): Promise<LoginAttempt> {
    const email = emailOf(request);
    const keys = {
      ip: `login:ip:${addressOf(request)}`,
      pair: `login:pair:${email}:${addressOf(request)}`,
      email: `login:email:${email}`,
    };
    const { perIp, perEmail } = this.config.authRateLimit;
    const counts = await this.failures.counts(Object.values(keys));
    const ip = counts.get(keys.ip)!;
    const pair = counts.get(keys.pair)!;
    if (ip.count >= perIp) refuse(reply, keys.ip, ip.retryAfterSeconds);
    if (pair.count >= perEmail) refuse(reply, keys.pair, pair.retryAfterSeconds);
    const delay = loginDelayMs(counts.get(keys.email)!.count, this.schedule);
    await this.failures.add(Object.values(keys), 1);
    if (delay > 0) {
      request.log.warn({ event: "login.throttled", delayMs: delay }, "login slowed down");
      await sleep(delay);
    }
    return {
      succeeded: async () => {
        await this.failures.add([keys.ip], -1);
        await this.failures.reset([keys.pair, keys.email]);
      },
      abandoned: async () => {
        await this.failures.add(Object.values(keys), -1);
      },
    };
  }
}

export interface LoginAttempt {
  /** The password was right: the attempt wasn't a failure after all. */
  succeeded(): Promise<void>;
  /** Neither right nor wrong (a server fault): the attempt doesn't count. */
  abandoned(): Promise<void>;
}
