import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { sessionReplySchema } from "@voltio/domain/account";
import { errorSchema, idParamSchema, messageReplySchema } from "@voltio/domain/http";
import {
  passkeyAddSchema,
  passkeyListSchema,
  passkeyLoginOptionsReplySchema,
  passkeyLoginSchema,
  passkeyOptionsSchema,
  passkeyRenameSchema,
  passkeySchema,
  passkeyStepTokenSchema,
  webauthnOptionsSchema,
} from "@voltio/domain/passkeys";
import type { Config } from "../../../config";
import type { Db } from "../../../db/client";
import { signedIn } from "../../../http/access";
import { BEARER, SIGNED_IN_ERRORS } from "../../../http/private-replies";
import { AuthRateLimit, authCounter } from "../rate-limit";
import {
  PasskeyRefused,
  addPasskey,
  listPasskeys,
  loginOptions,
  passkeyLogin,
  registrationOptions,
  relyingParty,
  removePasskey,
  renamePasskey,
} from "./service";
import { finishWithPasskey, secondFactorOptions } from "./second-factor";

const signedInErrors = { ...SIGNED_IN_ERRORS, 409: errorSchema, 429: errorSchema };
const publicErrors = { 400: errorSchema, 401: errorSchema, 429: errorSchema };

export interface PasskeyRoutesDeps {
  db: Db;
  /** PUBLIC_URL (the relying party), sessions and the sign-in rate limits. */
  config: Config;
  /** Wakes the mail worker once a security notice is queued. */
  notifyMail?: () => void;
}

/** Adding, listing, renaming and removing the caller's passkeys, and signing in with one alone. */
export function passkeyRoutes({ db, config, notifyMail }: PasskeyRoutesDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const rp = relyingParty(config);
    const counter = authCounter(db, config);
    const loginLimit = new AuthRateLimit(counter, config, "passkey-login");
    const addLimit = new AuthRateLimit(counter, config, "passkey-add");

    app.post(
      "/user/passkeys/options",
      {
        config: { access: "user" },
        schema: {
          tags: ["users"],
          summary:
            "Adding a passkey, step 1: the current password (a Google account: a sign-in in the last minutes), then the options for the browser's navigator.credentials.create()",
          security: BEARER,
          body: passkeyOptionsSchema,
          response: { 200: webauthnOptionsSchema, ...signedInErrors },
        },
      },
      async (request, reply) => {
        // The password is checked here: counted like the other password checks.
        await addLimit.hitIp(request, reply);
        return registrationOptions(db, rp, signedIn(request), request.body?.currentPassword);
      },
    );

    app.post(
      "/user/passkeys",
      {
        config: { access: "user" },
        schema: {
          tags: ["users"],
          summary:
            "Adding a passkey, step 2: the browser's answer is verified and kept; the account's e-mail is told",
          security: BEARER,
          body: passkeyAddSchema,
          response: { 201: passkeySchema, ...signedInErrors },
        },
      },
      async (request, reply) => {
        await addLimit.hitIp(request, reply);
        const passkey = await addPasskey(
          db,
          rp,
          signedIn(request).id,
          request.body,
          request.headers["user-agent"],
        );
        notifyMail?.();
        request.log.info({ event: "passkey.added" }, "passkey added");
        return reply.code(201).send(passkey);
      },
    );

    app.get(
      "/user/passkeys",
      {
        config: { access: "user" },
        schema: {
          tags: ["users"],
          summary: "The caller's passkeys: name, when added and when last used",
          security: BEARER,
          response: { 200: passkeyListSchema, ...SIGNED_IN_ERRORS },
        },
      },
      async (request) => listPasskeys(db, signedIn(request).id),
    );

    app.patch(
      "/user/passkeys/:id",
      {
        config: { access: "user" },
        schema: {
          tags: ["users"],
          summary: "Renames one of the caller's passkeys (another user's answers 404)",
          security: BEARER,
          params: idParamSchema,
          body: passkeyRenameSchema,
          response: { 200: passkeySchema, ...SIGNED_IN_ERRORS },
        },
      },
      async (request) => renamePasskey(db, signedIn(request).id, request.params.id, request.body.name),
    );

    app.delete(
      "/user/passkeys/:id",
      {
        config: { access: "user" },
        schema: {
          tags: ["users"],
          summary:
            "Removes one of the caller's passkeys (another user's answers 404); the account's e-mail is told",
          security: BEARER,
          params: idParamSchema,
          response: { 200: messageReplySchema, ...SIGNED_IN_ERRORS },
        },
      },
      async (request) => {
        await removePasskey(db, signedIn(request).id, request.params.id);
        notifyMail?.();
        request.log.info({ event: "passkey.removed" }, "passkey removed");
        return { msg: "Passkey removed" };
      },
    );

    app.post(
      "/user/login/passkey/options",
      {
        config: { access: "public" },
        schema: {
          tags: ["users"],
          summary:
            "Signing in with a passkey, step 1: the options for navigator.credentials.get() and the step's token",
          response: { 200: passkeyLoginOptionsReplySchema, ...publicErrors },
        },
      },
      async (request, reply) => {
        await loginLimit.hitIp(request, reply);
        return loginOptions(db, rp);
      },
    );

    app.post(
      "/user/login/passkey",
      {
        config: { access: "public" },
        schema: {
          tags: ["users"],
          summary:
            "Signing in with a passkey, step 2: the browser's answer with the step's token; a passkey is a second factor too",
          body: passkeyLoginSchema,
          response: { 200: sessionReplySchema, ...publicErrors },
        },
      },
      async (request, reply) => {
        await loginLimit.hitIp(request, reply);
        try {
          const tokens = await passkeyLogin(db, config, rp, request.body, request.headers["user-agent"]);
          request.log.info({ event: "login", method: "passkey" }, "login");
          return { msg: "Logged in", ...tokens };
        } catch (error) {
          if (error instanceof PasskeyRefused)
            request.log.warn({ event: "login.failed", method: "passkey", why: error.why }, "login failed");
          throw error;
        }
      },
    );

    app.post(
      "/user/login/second-factor/passkey/options",
      {
        config: { access: "public" },
        schema: {
          tags: ["users"],
          summary:
            "Login step 2 with a passkey, part 1: the options for navigator.credentials.get(), naming only the account's passkeys",
          body: passkeyStepTokenSchema,
          response: { 200: passkeyLoginOptionsReplySchema, ...publicErrors },
        },
      },
      async (request, reply) => {
        await loginLimit.hitIp(request, reply);
        return secondFactorOptions(db, rp, request.body.token);
      },
    );

    app.post(
      "/user/login/second-factor/passkey",
      {
        config: { access: "public" },
        schema: {
          tags: ["users"],
          summary:
            "Login step 2 with a passkey, part 2: the browser's answer with the login's token. A refused passkey counts as a wrong code",
          body: passkeyLoginSchema,
          response: { 200: sessionReplySchema, ...publicErrors },
        },
      },
      async (request, reply) => {
        await loginLimit.hitIp(request, reply);
        const tokens = await finishWithPasskey(db, config, rp, request.body, (why) =>
          request.log.warn({ event: "login.failed", method: "passkey", why }, "second factor refused"),
        );
        request.log.info({ event: "login", secondFactor: true, method: "passkey" }, "login");
        return { msg: "Logged in", ...tokens };
      },
    );
  };
}
