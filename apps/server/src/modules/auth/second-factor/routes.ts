import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { sessionReplySchema } from "@voltio/domain/account";
import { errorSchema, messageReplySchema } from "@voltio/domain/http";
import {
  recoveryCodesReplySchema,
  secondFactorCodeBodySchema,
  secondFactorLoginSchema,
  secondFactorStatusSchema,
  totpEnrolmentReplySchema,
} from "@voltio/domain/second-factor";
import type { Config } from "../../../config";
import type { Db } from "../../../db/client";
import { InvalidInput, NotSignedIn, TooManyAttempts } from "../../../errors";
import { signedIn } from "../../../http/access";
import { BEARER, SIGNED_IN_ERRORS } from "../../../http/private-replies";
import { normalizeIp } from "../../../http/normalize-ip";
import { AuthRateLimit, authCounter } from "../rate-limit";
import type { SharedWindowCounter } from "../shared-counter";
import { finishPendingLogin, pendingLoginUser } from "./pending-login";
import {
  confirmTotp,
  disableTotp,
  regenerateRecoveryCodes,
  secondFactorStatus,
  startTotpEnrolment,
  useSecondFactorCode,
} from "./service";

export interface SecondFactorRoutesDeps {
  db: Db;
  config: Config;
  /** Wakes the mail worker once a security notice is queued. */
  notifyMail?: () => void;
}

const loginErrors = { 400: errorSchema, 401: errorSchema, 429: errorSchema };
const signedInErrors = { ...SIGNED_IN_ERRORS, 409: errorSchema, 429: errorSchema };

/**
 * Code guessing is counted like password guessing (ASVS 2.2.1): every request per client address, and wrong
 * codes per account, from anywhere: past the limit the account's codes are refused with 429 until the
 * window ends, however many times the password is entered again to open new steps.
 */
class CodeGuard {
  constructor(
    private readonly counter: SharedWindowCounter,
    private readonly config: Pick<Config, "authRateLimit">,
  ) {}

  private key = (userId: number) => `second-factor:user:${userId}`;

  async check(reply: FastifyReply, userId: number): Promise<void> {
    const window = (await this.counter.counts([this.key(userId)])).get(this.key(userId))!;
    if (window.count >= this.config.authRateLimit.perEmail) {
      reply.log.warn({ event: "rate-limited", key: this.key(userId) }, "too many codes");
      throw new TooManyAttempts("Too many attempts, try again later", Math.max(1, window.retryAfterSeconds));
    }
  }

  failed = (userId: number) => this.counter.add([this.key(userId)], 1);
  succeeded = (userId: number) => this.counter.reset([this.key(userId)]);
}

/** The login's second step, and the authenticator app's set-up, status and removal. */
export function secondFactorRoutes({
  db,
  config,
  notifyMail,
}: SecondFactorRoutesDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const counter = authCounter(db, config);
    const codes = new CodeGuard(counter, config);
    const perIp = new AuthRateLimit(counter, config, "second-factor");

    /** Runs a code check with the limits: counted per address, refused past the account's wrong codes. */
    async function guarded<T>(
      request: FastifyRequest,
      reply: FastifyReply,
      userId: number | undefined,
      run: () => Promise<T>,
    ): Promise<T> {
      await perIp.hitIp(request, reply);
      if (userId !== undefined) await codes.check(reply, userId);
      try {
        const result = await run();
        if (userId !== undefined) await codes.succeeded(userId);
        return result;
      } catch (error) {
        const wrong =
          (error instanceof InvalidInput && error.field === "code") ||
          (error instanceof NotSignedIn && !error.extra?.secondFactorGone);
        if (wrong && userId !== undefined) {
          await codes.failed(userId);
          request.log.warn({ event: "second-factor.failed", ip: normalizeIp(request.ip) }, "wrong code");
        }
        throw error;
      }
    }

    app.post(
      "/user/login/second-factor",
      {
        config: { access: "public" },
        schema: {
          tags: ["users"],
          summary:
            "Login step 2: the token the login answered with and a 6-digit code from the authenticator app or a " +
            "recovery code. Five wrong codes close the step: log in with the password again",
          body: secondFactorLoginSchema,
          response: { 200: sessionReplySchema, ...loginErrors },
        },
      },
      async (request, reply) => {
        const { token, code } = request.body;
        const userId = await pendingLoginUser(db, token);
        const tokens = await guarded(request, reply, userId, () =>
          finishPendingLogin(db, config, token, ({ tx, userId }) =>
            useSecondFactorCode(tx, config, userId, code),
          ),
        );
        request.log.info({ event: "login", secondFactor: true }, "login");
        return { msg: "Logged in", ...tokens };
      },
    );

    app.get(
      "/user/second-factor",
      {
        config: { access: "user" },
        schema: {
          tags: ["users"],
          summary:
            "Two-step sign-in: whether the authenticator app is on, recovery codes left, passkeys, whether this " +
            "account must use it and whether this session did",
          security: BEARER,
          response: { 200: secondFactorStatusSchema, ...SIGNED_IN_ERRORS },
        },
      },
      async (request) => secondFactorStatus(db, config, signedIn(request)),
    );

    app.post(
      "/user/second-factor/totp",
      {
        config: { access: "user" },
        schema: {
          tags: ["users"],
          summary:
            "Start setting up the authenticator app: its otpauth:// link, QR code and key. Not in force until confirmed",
          security: BEARER,
          response: { 200: totpEnrolmentReplySchema, ...signedInErrors },
        },
      },
      async (request) => startTotpEnrolment(db, config, signedIn(request)),
    );

    app.post(
      "/user/second-factor/totp/confirm",
      {
        config: { access: "user" },
        schema: {
          tags: ["users"],
          summary:
            "Turn the authenticator app on with its first code; answers the 10 recovery codes, shown only this once",
          security: BEARER,
          body: secondFactorCodeBodySchema,
          response: { 200: recoveryCodesReplySchema, ...signedInErrors },
        },
      },
      async (request, reply) => {
        const caller = signedIn(request);
        const result = await guarded(request, reply, caller.id, () =>
          confirmTotp(db, config, caller, request.body.code),
        );
        notifyMail?.();
        return result;
      },
    );

    app.delete(
      "/user/second-factor/totp",
      {
        config: { access: "user" },
        schema: {
          tags: ["users"],
          summary: "Turn the authenticator app off, with a current code or a recovery code",
          security: BEARER,
          body: secondFactorCodeBodySchema,
          response: { 200: messageReplySchema, ...signedInErrors },
        },
      },
      async (request, reply) => {
        const caller = signedIn(request);
        await guarded(request, reply, caller.id, () => disableTotp(db, config, caller, request.body.code));
        notifyMail?.();
        return { msg: "Two-step sign-in is off" };
      },
    );

    app.post(
      "/user/second-factor/recovery-codes",
      {
        config: { access: "user" },
        schema: {
          tags: ["users"],
          summary:
            "A new set of 10 recovery codes (the old ones stop working), with a current code or a recovery code",
          security: BEARER,
          body: secondFactorCodeBodySchema,
          response: { 200: recoveryCodesReplySchema, ...signedInErrors },
        },
      },
      async (request, reply) => {
        const caller = signedIn(request);
        return guarded(request, reply, caller.id, () =>
          regenerateRecoveryCodes(db, config, caller, request.body.code),
        );
      },
    );
  };
}
