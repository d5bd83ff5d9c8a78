import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { normalizeIP } from "@fastify/rate-limit";
import type { Config } from "../../config";
import { TooManyAttempts } from "../../errors";

type Check = ReturnType<FastifyInstance["createRateLimit"]>;

const emailOf = (request: FastifyRequest) => {
  const email = (request.body as { email?: unknown } | undefined)?.email;
  return typeof email === "string" ? email.trim().toLowerCase() : "";
};

/** The client's address, IPv6 by its /64: one machine rarely has just one address there. */
const addressOf = (request: FastifyRequest) => normalizeIP(request.ip, 64);

/**
 * Two counters per guarded route (ASVS 2.2.1): one per client IP, so one machine can't hammer the endpoint,
 * and one per e-mail, so one address (e-mail check, registration) can't be probed from many machines. Over
 * either one the reply is 429 with Retry-After. The windows live in the rate-limit plugin's store.
 * Logins are guarded by LoginGuard instead.
 */
export class AuthRateLimit {
  private readonly byIp: Check;
  private readonly byEmail: Check;

  constructor(app: FastifyInstance, config: Pick<Config, "authRateLimit">, name: string) {
    const { windowSeconds, perIp, perEmail } = config.authRateLimit;
    this.byIp = app.createRateLimit({
      max: perIp,
      timeWindow: windowSeconds * 1000,
      keyGenerator: (request) => `${name}:ip:${addressOf(request)}`,
    });
    this.byEmail = app.createRateLimit({
      max: perEmail,
      timeWindow: windowSeconds * 1000,
      keyGenerator: (request) => `${name}:email:${emailOf(request)}`,
    });
  }

  /** Counts one request of this IP. */
  async hitIp(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const limit = await this.byIp(request);
    if (!limit.isAllowed && limit.isExceeded) refuse(reply, limit.key, limit.ttlInSeconds);
  }

  /** Counts one request for the e-mail in the body. */
  async hitEmail(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    if (!emailOf(request)) return;
    const limit = await this.byEmail(request);
    if (!limit.isAllowed && limit.isExceeded) refuse(reply, limit.key, limit.ttlInSeconds);
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

/**
 * Failure counts in fixed windows, in process memory like the plugin's store, and bounded: past `capacity`
 * keys the oldest window is forgotten. Unlike the plugin's store, a count can be reset and taken back.
 */
class WindowCounter {
  private readonly windows = new Map<string, { count: number; startedAt: number }>();

  constructor(
    private readonly windowMs: number,
    private readonly capacity = 100_000,
  ) {}

  private live(key: string, now: number) {
    const window = this.windows.get(key);
    return window && now - window.startedAt < this.windowMs ? window : undefined;
  }

  count(key: string, now = Date.now()): number {
    return this.live(key, now)?.count ?? 0;
  }

  retryAfterSeconds(key: string, now = Date.now()): number {
    const window = this.live(key, now);
    return window ? Math.ceil((window.startedAt + this.windowMs - now) / 1000) : 0;
  }

  add(key: string, delta: number, now = Date.now()): void {
    const window = this.live(key, now);
    const count = Math.max(0, (window?.count ?? 0) + delta);
    this.windows.delete(key);
    if (count === 0) return;
    if (this.windows.size >= this.capacity) {
      const oldest = this.windows.keys().next();
      if (!oldest.done) this.windows.delete(oldest.value);
    }
    this.windows.set(key, { count, startedAt: window?.startedAt ?? now });
  }

  reset(key: string): void {
    this.windows.delete(key);
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Password guessing without locking owners out (ASVS 2.2.1). Failed logins count per client address and per
 * (e-mail, address): over either one the reply is 429 with Retry-After. Failures of an e-mail from every
 * address only slow its logins down (loginDelayMs), so guessing from many machines can't keep the owner
 * out: the right password from another address always gets in. Each attempt is counted as a failure before
 * the password is checked, so parallel guesses can't slip past the limits, and taken back when it succeeds,
 * which also resets the e-mail's and the pair's counts.
 */
export class LoginGuard {
  private readonly failures: WindowCounter;
  private readonly schedule: SlowdownSchedule;

  constructor(private readonly config: Config) {
    const { windowSeconds, perEmail, loginDelayMs: baseMs, loginMaxDelayMs: maxMs } = config.authRateLimit;
    this.failures = new WindowCounter(windowSeconds * 1000);
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
    if (this.failures.count(keys.ip) >= perIp)
      refuse(reply, keys.ip, this.failures.retryAfterSeconds(keys.ip));
    if (this.failures.count(keys.pair) >= perEmail)
      refuse(reply, keys.pair, this.failures.retryAfterSeconds(keys.pair));
    const delay = loginDelayMs(this.failures.count(keys.email), this.schedule);
    for (const key of Object.values(keys)) this.failures.add(key, 1);
    if (delay > 0) {
      request.log.warn({ event: "login.throttled", delayMs: delay }, "login slowed down");
      await sleep(delay);
    }
    return {
      succeeded: () => {
        this.failures.add(keys.ip, -1);
        this.failures.reset(keys.pair);
        this.failures.reset(keys.email);
      },
      abandoned: () => {
        for (const key of Object.values(keys)) this.failures.add(key, -1);
      },
    };
  }
}

export interface LoginAttempt {
  /** The password was right: the attempt wasn't a failure after all. */
  succeeded(): void;
  /** Neither right nor wrong (a server fault): the attempt doesn't count. */
  abandoned(): void;
}
