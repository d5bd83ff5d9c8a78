import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  addressInputSchema,
  adminUserPageSchema,
  adminUserQuerySchema,
  registerSchema,
  roleChangeSchema,
  userDeleteSchema,
  userSchema,
  userSummarySchema,
  userUpdateReplySchema,
  userUpdateSchema,
} from "@voltio/domain/account";
import { errorSchema, idParamSchema, messageReplySchema } from "@voltio/domain/http";
import type { Config } from "../../config";
import type { Db } from "../../db/client";
import { signedIn } from "../../http/access";
import { AuthRateLimit, authCounter } from "../auth/rate-limit";
import {
  addAddress,
  changeRole,
  deleteAddress,
  deleteUser,
  getUser,
  listUsers,
  pageUsers,
  registerUser,
  updateUser,
} from "./service";
import { BEARER, SIGNED_IN_ERRORS, keepRepliesPrivate } from "../../http/private-replies";
import { customerRoute } from "./customer";
import { emailChangeRoutes, emailChangeSentMessage, requestEmailChange } from "./email-change";
import { googleVerifier } from "../auth/google";

const errors = {
  ...SIGNED_IN_ERRORS,
  409: errorSchema,
  429: errorSchema,
};

/** Accounts (docs/product-rules.md §10.6 Users, docs/product-rules.md §10): register, the caller's profile and addresses, admin calls. */
export interface UserRoutesDeps {
  db: Db;
  /** Registration and password changes share the sign-in limits; e-mail changes send links and check Google. */
  config: Config;
  /** Wakes the mail worker once an e-mail change's link or notice is queued. */
  notifyMail?: () => void;
}

export function userRoutes({ db, config, notifyMail }: UserRoutesDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const counter = authCounter(db, config);
    const registerLimit = new AuthRateLimit(counter, config, "register");
    const passwordLimit = new AuthRateLimit(counter, config, "password-change");
    keepRepliesPrivate(app);
    await app.register(customerRoute(db));
    await app.register(emailChangeRoutes({ db, config, notifyMail }));
    const verifyGoogle = googleVerifier(config);

    app.post(
      "/user",
      {
        config: { access: "public" },
        schema: {
          tags: ["users"],
          summary:
            "Register with first and last name (letters of any language, single spaces, hyphens and " +
            "apostrophes between them), e-mail and password (8+ characters)",
          body: registerSchema,
          response: { 201: messageReplySchema.extend({ id: z.number().int() }), ...errors },
        },
      },
      async (request, reply) => {
        await registerLimit.hitIp(request, reply);
        await registerLimit.hitEmail(request, reply);
        const { id } = await registerUser(db, request.body);
        return reply.code(201).send({ msg: "User created", id });
      },
    );

    app.get(
      "/user",
      {
        config: { access: "user" },
        schema: {
          tags: ["users"],
          summary: "The signed-in user with their addresses",
          security: BEARER,
          response: { 200: userSchema, ...errors },
        },
      },
      async (request) => getUser(db, signedIn(request).id),
    );

    app.put(
      "/user",
      {
        config: { access: "user" },
        schema: {
          tags: ["users"],
          summary:
            "Change one thing: firstName, lastName, email, profilePicture, newsletterSubscription, " +
            "prevPassword + newPassword, or a direction {id, …} of the caller's. An e-mail needs " +
            "currentPassword (a Google account: googleToken, from a Google sign-in of the last 5 minutes) and " +
            "changes only when the link sent to it is opened: the reply is the user as it is, with msg",
          security: BEARER,
          body: userUpdateSchema,
          response: { 200: userUpdateReplySchema, ...errors },
        },
      },
      async (request, reply) => {
        const caller = signedIn(request);
        const { body } = request;
        // Both check the password: guessing it through either counts against the same limit.
        if (body.prevPassword !== undefined || body.email !== undefined)
          await passwordLimit.hitIp(request, reply);
        if (body.email !== undefined) {
          const { pendingEmail } = await requestEmailChange(db, config, verifyGoogle, caller.id, {
            email: body.email,
            currentPassword: body.currentPassword,
            googleToken: body.googleToken,
          });
          notifyMail?.();
          const user = await getUser(db, caller.id);
          return { ...user, msg: emailChangeSentMessage(pendingEmail), pendingEmail };
        }
        const updated = await updateUser(db, caller, body);
        // A password change queued its security notice.
        if (body.newPassword !== undefined) notifyMail?.();
        return updated;
      },
    );

    app.post(
      "/user/direction",
      {
        config: { access: "user" },
        schema: {
          tags: ["users"],
          summary: "Add an address; replies the user with every address",
          security: BEARER,
          body: addressInputSchema,
          response: { 201: userSchema, ...errors },
        },
      },
      async (request, reply) => {
        const caller = signedIn(request);
        return reply.code(201).send(await addAddress(db, caller.id, request.body));
      },
    );

    app.delete(
      "/user/direction/:id",
      {
        config: { access: "user" },
        schema: {
          tags: ["users"],
          summary: "Delete one of the caller's addresses; replies the user with the remaining ones",
          security: BEARER,
          params: idParamSchema,
          response: { 200: userSchema, ...errors },
        },
      },
      async (request) => {
        const caller = signedIn(request);
        return deleteAddress(db, caller.id, request.params.id);
      },
    );

    app.get(
      "/user/all",
      {
        config: { access: "admin" },
        schema: {
          tags: ["users", "admin"],
          summary: "Every account (admin)",
          security: BEARER,
          response: { 200: z.array(userSummarySchema), ...errors },
        },
      },
      async () => listUsers(db),
    );

    app.get(
      "/user/admin",
      {
        config: { access: "admin" },
        schema: {
          tags: ["users", "admin"],
          summary: "One page of the accounts, searched by name or e-mail (admin)",
          security: BEARER,
          querystring: adminUserQuerySchema,
          response: { 200: adminUserPageSchema, ...errors },
        },
      },
      async (request) => pageUsers(db, request.query),
    );

    app.put(
      "/user/admin",
      {
        config: { access: "admin" },
        schema: {
          tags: ["users", "admin"],
          summary:
            "Set a user's role, or toggle it without `rol` (admin); user 1 and the last admin can't be demoted. " +
            "The user stays signed in; their next replies carry the header Voltio-Role-Changed: <new role>",
          security: BEARER,
          body: roleChangeSchema,
          response: { 200: userSummarySchema, ...errors },
        },
      },
      async (request) => {
        const actor = signedIn(request);
        const changed = await changeRole(db, actor, request.body.id, request.body.rol);
        // The role change queued its security notice.
        notifyMail?.();
        return changed;
      },
    );

    app.delete(
      "/user/admin",
      {
        config: { access: "admin" },
        schema: {
          tags: ["users", "admin"],
          summary:
            "Delete an account (admin; not user 1, not oneself): its personal data is erased, its orders stay",
          security: BEARER,
          body: userDeleteSchema,
          response: { 200: messageReplySchema, ...errors },
        },
      },
      async (request) => {
        const actor = signedIn(request);
        await deleteUser(db, actor, request.body.id);
        return { msg: "User deleted" };
      },
    );
  };
}
