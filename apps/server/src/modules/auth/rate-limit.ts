import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { normalizeIP } from "@fastify/rate-limit";
import type { Config } from "../../config";
import { TooManyAttempts } from "../../errors";

type Check = ReturnType<FastifyInstance["createRateLimit"]>;

const emailOf = (request: FastifyRequest) => {
  const email = (request.body as { email?: unknown } | undefined)?.email;
  return typeof email === "string" ? email.trim().toLowerCase() : "";
};

/**
 * Two counters per guarded route (ASVS 2.2.1): one per client IP, so one machine can't hammer the endpoint,
 * and one per e-mail, so a password can't be guessed slowly from many machines. Over either one the reply is
 * 429 with Retry-After. The windows live in the rate-limit plugin's store.
 */
export class AuthRateLimit {
  private readonly byIp: Check;
  private readonly byEmail: Check;

  constructor(app: FastifyInstance, config: Pick<Config, "authRateLimit">, name: string) {
    const { windowSeconds, perIp, perEmail } = config.authRateLimit;
    this.byIp = app.createRateLimit({
      max: perIp,
      timeWindow: windowSeconds * 1000,
      keyGenerator: (request) => `${name}:ip:${normalizeIP(request.ip, 64)}`,
    });
    this.byEmail = app.createRateLimit({
      max: perEmail,
      timeWindow: windowSeconds * 1000,
      keyGenerator: (request) => `${name}:email:${emailOf(request)}`,
    });
  }

  /** Counts one request of this IP. */
  async hitIp(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    refuseIfExceeded(reply, await this.byIp(request));
  }

  /** Counts one request for the e-mail in the body (or only looks, with `count: false`). */
  async hitEmail(request: FastifyRequest, reply: FastifyReply, count = true): Promise<void> {
    if (!emailOf(request)) return;
    refuseIfExceeded(reply, await this.byEmail(request, { increment: count }));
  }
}

function refuseIfExceeded(reply: FastifyReply, limit: Awaited<ReturnType<Check>>) {
  if (limit.isAllowed || !limit.isExceeded) return;
  reply.log.warn({ event: "rate-limited", key: limit.key }, "too many attempts");
  throw new TooManyAttempts("Too many attempts, try again later", Math.max(1, limit.ttlInSeconds));
}
