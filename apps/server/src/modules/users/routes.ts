import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  addressInputSchema,
  messageReplySchema,
  registerSchema,
  roleChangeSchema,
  userDeleteSchema,
  userSchema,
  userSummarySchema,
  userUpdateSchema,
} from "@voltio/domain/account";
import { errorSchema, idParamSchema } from "@voltio/domain/catalog";
import type { AppDeps } from "../../app";
import { AuthRateLimit } from "../auth/rate-limit";
import { requireAdmin, requireUser } from "../auth/guards";
import {
  addAddress,
  changeRole,
  deleteAddress,
  deleteUser,
  getUser,
  listUsers,
  registerUser,
  updateUser,
} from "./service";

const errors = {
  400: errorSchema,
  401: errorSchema,
  403: z.union([errorSchema, z.object({ error: z.object({ name: z.string(), message: z.string() }) })]),
  404: errorSchema,
  409: errorSchema,
  429: errorSchema,
};
const bearer = [{ bearer: [] }];

/** Accounts (SPEC.md §7 Users, DESIGN.md §5): register, the caller's profile and addresses, admin calls. */
export function userRoutes({ db, config }: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const secret = config.jwtSecret;
    const registerLimit = new AuthRateLimit(app, config, "register");
    const passwordLimit = new AuthRateLimit(app, config, "password-change");
    // Personal data is never cached by browsers or proxies (ASVS 8.2.1).
    app.addHook("onSend", async (_request, reply) => {
      reply.header("cache-control", "no-store");
    });

    app.post(
      "/user",
      {
        schema: {
          tags: ["users"],
          summary: "Register with first name (letters only), last name, e-mail and password (8+ characters)",
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
        schema: {
          tags: ["users"],
          summary: "The signed-in user with their addresses",
          security: bearer,
          response: { 200: userSchema, ...errors },
        },
      },
      async (request) => getUser(db, (await requireUser(request, db, secret)).id),
    );

    app.put(
      "/user",
      {
        schema: {
          tags: ["users"],
          summary:
            "Change one thing: firstName, lastName, email, profilePicture, newsletterSubscription, " +
            "prevPassword + newPassword, or a direction {id, …} of the caller's",
          security: bearer,
          body: userUpdateSchema,
          response: { 200: userSchema, ...errors },
        },
      },
      async (request, reply) => {
        const caller = await requireUser(request, db, secret);
        if (request.body.prevPassword !== undefined) await passwordLimit.hitIp(request, reply);
        return updateUser(db, caller, request.body);
      },
    );

    app.post(
      "/user/direction",
      {
        schema: {
          tags: ["users"],
          summary: "Add an address; replies the user with every address",
          security: bearer,
          body: addressInputSchema,
          response: { 201: userSchema, ...errors },
        },
      },
      async (request, reply) => {
        const caller = await requireUser(request, db, secret);
        return reply.code(201).send(await addAddress(db, caller.id, request.body));
      },
    );

    app.delete(
      "/user/direction/:id",
      {
        schema: {
          tags: ["users"],
          summary: "Delete one of the caller's addresses; replies the user with the remaining ones",
          security: bearer,
          params: idParamSchema,
          response: { 200: userSchema, ...errors },
        },
      },
      async (request) => {
        const caller = await requireUser(request, db, secret);
        return deleteAddress(db, caller.id, request.params.id);
      },
    );

    app.get(
      "/user/all",
      {
        schema: {
          tags: ["users", "admin"],
          summary: "Every account (admin)",
          security: bearer,
          response: { 200: z.array(userSummarySchema), ...errors },
        },
      },
      async (request) => {
        await requireAdmin(request, db, secret);
        return listUsers(db);
      },
    );

    app.put(
      "/user/admin",
      {
        schema: {
          tags: ["users", "admin"],
          summary: "Set a user's role, or toggle it without `rol` (admin); user 1 can't be demoted",
          security: bearer,
          body: roleChangeSchema,
          response: { 200: userSummarySchema, ...errors },
        },
      },
      async (request) => {
        const actor = await requireAdmin(request, db, secret);
        return changeRole(db, actor, request.body.id, request.body.rol);
      },
    );

    app.delete(
      "/user/admin",
      {
        schema: {
          tags: ["users", "admin"],
          summary: "Delete an account (admin); not user 1 and not oneself",
          security: bearer,
          body: userDeleteSchema,
          response: { 200: messageReplySchema, ...errors },
        },
      },
      async (request) => {
        const actor = await requireAdmin(request, db, secret);
        await deleteUser(db, actor, request.body.id);
        return { msg: "User deleted" };
      },
    );
  };
}
