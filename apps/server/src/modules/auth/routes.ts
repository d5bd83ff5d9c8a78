import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import {
  authOptionsSchema,
  emailCheckReplySchema,
  emailCheckSchema,
  googleLoginSchema,
  loginReplySchema,
  loginSchema,
  refreshReplySchema,
  refreshTokenBodySchema,
} from "@voltio/domain/account";
import { errorSchema, messageReplySchema } from "@voltio/domain/http";
import type { Config } from "../../config";
import type { Db } from "../../db/client";
import { NotFound, NotSignedIn } from "../../errors";
import { googleVerifier } from "./google";
import { passwordResetRoutes } from "./password-reset";
import { passkeyRoutes } from "./passkeys/routes";
import { dummyPasswordHash } from "./password";
import { AuthRateLimit, LoginGuard, authCounter } from "./rate-limit";
import { secondFactorRoutes } from "./second-factor/routes";
import { checkEmail, googleLogin, login, type LoginOutcome } from "./service";
import { endSession, refreshSession } from "./sessions";
import { sessionRoutes } from "./sessions-routes";
import { keepRepliesPrivate } from "../../http/private-replies";

const errors = { 400: errorSchema, 401: errorSchema, 409: errorSchema, 429: errorSchema };

/** The original specification's reply with the tokens, or the second step's (no tokens yet). */
const loginReply = (outcome: LoginOutcome) =>
  "secondFactor" in outcome
    ? { msg: "Second factor required" as const, secondFactor: outcome.secondFactor }
    : { msg: "Logged in", ...outcome };

/** Signing in and out (docs/product-rules.md §8 Login, Logout, Token refresh; §10 Users). */
export interface AuthRoutesDeps {
  db: Db;
  /** Token lifetimes and secret, session limits, sign-in rate limits and Google sign-in. */
  config: Config;
  /** Wakes the mail worker once a password reset e-mail is queued. */
  notifyMail?: () => void;
}

export function authRoutes({ db, config, notifyMail }: AuthRoutesDeps): FastifyPluginAsyncZod {
  return async (app) => {
    // Computed once now, so the first login of a missing e-mail costs no more than any other.
    await dummyPasswordHash();
    const verifyGoogle = googleVerifier(config);
    const counter = authCounter(db, config);
    const loginGuard = new LoginGuard(counter, config);
    const limits = {
      email: new AuthRateLimit(counter, config, "email-check"),
      google: new AuthRateLimit(counter, config, "google-login"),
      refresh: new AuthRateLimit(counter, config, "refresh"),
    };
    keepRepliesPrivate(app);
    await app.register(passwordResetRoutes({ db, config, notifyMail }));
    await app.register(secondFactorRoutes({ db, config, notifyMail }));
    await app.register(sessionRoutes({ db, config }));
    await app.register(passkeyRoutes({ db, config, notifyMail }));

    app.get(
      "/auth/options",
      {
        config: { access: "public" },
        schema: {
          tags: ["users"],
          summary: "Which sign-in methods the store offers ('Login with Google' needs GOOGLE_CLIENT_ID)",
          response: { 200: authOptionsSchema },
        },
      },
      async () => ({ googleClientId: config.google.clientId ?? null }),
    );

    app.post(
      "/user/email",
      {
        config: { access: "public" },
        schema: {
          tags: ["users"],
          summary: "Login step 1: does an account use this e-mail, and is it a Google account?",
          body: emailCheckSchema,
          response: { 200: emailCheckReplySchema, ...errors },
        },
      },
      async (request, reply) => {
        await limits.email.hitIp(request, reply);
        await limits.email.hitEmail(request, reply);
        return checkEmail(db, request.body.email);
      },
    );

    app.post(
      "/user/login",
      {
        config: { access: "public" },
        schema: {
          tags: ["users"],
          summary: "Log in with e-mail and password; a wrong one answers 401 with 'incorrect' in the error",
          body: loginSchema,
          response: { 200: loginReplySchema, ...errors },
        },
      },
      async (request, reply) => {
        // Guessing from many machines slows an e-mail's logins down but never locks its owner out.
        const attempt = await loginGuard.begin(request, reply);
        try {
          const outcome = await login(db, config, request.body.email, request.body.password, {
            userAgent: request.headers["user-agent"],
          });
          await attempt.succeeded();
          request.log.info({ event: "login", secondFactor: "secondFactor" in outcome }, "login");
          // A sign-in from a browser the account never used queued its notice.
          notifyMail?.();
          return loginReply(outcome);
        } catch (error) {
          if (error instanceof NotSignedIn) {
            // Every failed sign-in is logged, never with the password (ASVS 7.1.1, 7.2.1).
            request.log.warn({ event: "login.failed" }, "login failed");
          } else await attempt.abandoned();
          throw error;
        }
      },
    );

    app.post(
      "/google/login",
      {
        config: { access: "public" },
        schema: {
          tags: ["users"],
          summary: "Log in (or sign up) with a Google ID token",
          body: googleLoginSchema,
          response: { 200: loginReplySchema, ...errors, 404: errorSchema },
        },
      },
      async (request, reply) => {
        if (!verifyGoogle) throw new NotFound("Google sign-in is not configured");
        await limits.google.hitIp(request, reply);
        const outcome = await googleLogin(db, config, verifyGoogle, request.body.tokenId, {
          userAgent: request.headers["user-agent"],
        });
        notifyMail?.();
        return loginReply(outcome);
      },
    );

    app.post(
      "/user/token",
      {
        config: { access: "public" },
        schema: {
          tags: ["users"],
          summary:
            "A new access token for the session's refresh token, which stays the same until the session ends",
          body: refreshTokenBodySchema,
          response: { 200: refreshReplySchema, ...errors },
        },
      },
      async (request, reply) => {
        await limits.refresh.hitIp(request, reply);
        try {
          return await refreshSession(db, config, request.body.token);
        } catch (error) {
          if (error instanceof NotSignedIn)
            request.log.info({ event: "refresh.refused" }, "refresh token refused");
          throw error;
        }
      },
    );

    app.delete(
      "/user/token",
      {
        config: { access: "public" },
        schema: {
          tags: ["users"],
          summary: "Log out: the login of this refresh token ends",
          body: refreshTokenBodySchema,
          response: { 200: messageReplySchema, 400: errorSchema },
        },
      },
      async (request) => {
        await endSession(db, request.body.token);
        return { msg: "Logged out" };
      },
    );
  };
}
