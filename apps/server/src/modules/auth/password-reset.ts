import { createHash, randomBytes, randomUUID } from "node:crypto";
import { and, eq, gt, isNull, ne } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import {
  PASSWORD_RESET_MINUTES,
  passwordForgotSchema,
  passwordResetReplySchema,
  passwordResetSchema,
} from "@voltio/domain/account";
import { ACCOUNT_MESSAGES } from "@voltio/domain/account-messages";
import { errorSchema, messageReplySchema } from "@voltio/domain/http";
import type { Config } from "../../config";
import type { Db } from "../../db/client";
import { passwordResetTokens, users } from "../../db/schema";
import { InvalidInput } from "../../errors";
import { queueMail, type MailMessage } from "../../integrations/mail/outbox";
import { recordChange } from "../audit/service";
import { queueSecurityNotice } from "./notices";
import { hashPassword } from "./password";
import { requireStrongPassword } from "./password-policy";
import { AuthRateLimit, authCounter } from "./rate-limit";
import { findUserByEmail } from "./service";
import { revokeUserSessions } from "./sessions";

/**
 * "Forgot password?". A link with a random token goes to the account's e-mail through
 * the outbox; only the token's SHA-256 is stored, so the table can't be used to reset anyone's password.
 * The link works once, for PASSWORD_RESET_MINUTES, and using it ends every session of the account: whoever
 * knew the old password is signed out everywhere.
 */

/** The one reply to "Forgot password?", whether or not the e-mail has an account (no account probing). */
export const FORGOT_REPLY = "If an account exists for that e-mail, we sent a link";

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

function resetMail(to: string, link: string, tokenId: number): MailMessage {
  return {
    to,
    subject: "Voltio: reset your password / restablece tu contraseña",
    dedupeKey: `password-reset:${tokenId}`,
    text: [
      "Someone (we hope you) asked to reset the password of your Voltio account.",
      `Open this link within ${PASSWORD_RESET_MINUTES} minutes to choose a new one; it works once:`,
      "",
      link,
      "",
      "If you didn't ask for it, ignore this e-mail: your password stays as it is.",
      "",
      "—",
      "Alguien (esperamos que tú) pidió restablecer la contraseña de tu cuenta de Voltio.",
      `Abre este enlace antes de ${PASSWORD_RESET_MINUTES} minutos para elegir una nueva; sirve una sola vez:`,
      "",
      link,
      "",
      "Si no lo pediste, ignora este correo: tu contraseña no cambia.",
    ].join("\n"),
  };
}

function googleAccountMail(to: string, loginLink: string): MailMessage {
  return {
    to,
    subject: "Voltio: your account signs in with Google / tu cuenta entra con Google",
    // Nothing to dedupe: each request is told again (the rate limits bound how often).
    dedupeKey: `password-reset-google:${randomUUID()}`,
    text: [
      "Someone (we hope you) asked to reset the password of your Voltio account.",
      "Your account has no password here: it signs in with Google. Choose 'Login with Google' at",
      loginLink,
      "",
      "—",
      "Alguien (esperamos que tú) pidió restablecer la contraseña de tu cuenta de Voltio.",
      "Tu cuenta no tiene contraseña aquí: entra con Google. Elige 'Iniciar sesión con Google' en",
      loginLink,
    ].join("\n"),
  };
}

/**
 * POST /user/password/forgot, once the reply (FORGOT_REPLY, whatever happens here) is on its way: the caller
 * learns nothing about the account, not even from the time the reply takes.
 */
export async function requestPasswordReset(
  db: Db,
  config: Pick<Config, "publicUrl">,
  email: string,
): Promise<{ mailed: boolean }> {
  const user = await findUserByEmail(db, email);
  if (!user) return { mailed: false };
  const token = randomBytes(32).toString("base64url");
  const tokenHash = hashToken(token);
  return db.transaction(async (tx) => {
    if (!user.passwordHash) {
      // A Google account: a link would give it a password it never had. It is told to use Google.
      await queueMail(tx, googleAccountMail(user.email, `${config.publicUrl}/login`));
      return { mailed: true };
    }
    const [row] = await tx
      .insert(passwordResetTokens)
      .values({
        userId: user.id,
        tokenHash,
        expiresAt: new Date(Date.now() + PASSWORD_RESET_MINUTES * 60_000),
      })
      .returning({ id: passwordResetTokens.id });
    const link = `${config.publicUrl}/password/reset?token=${token}`;
    await queueMail(tx, resetMail(user.email, link, row!.id));
    return { mailed: true };
  });
}

const refuse = (reason: string) => new InvalidInput("token", reason);

/**
 * POST /user/password/reset. The token is claimed by one conditional UPDATE (unused, unexpired), so two
 * requests with one link can't both succeed; the new password, the other open links of the account, its
 * sessions and the audit entry change in the same transaction.
 */
export async function resetPassword(db: Db, token: string, password: string): Promise<{ email: string }> {
  const tokenHash = hashToken(token);
  const [found] = await db
    .select({
      usedAt: passwordResetTokens.usedAt,
      expiresAt: passwordResetTokens.expiresAt,
      deletedAt: users.deletedAt,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
    })
    .from(passwordResetTokens)
    .innerJoin(users, eq(users.id, passwordResetTokens.userId))
    .where(eq(passwordResetTokens.tokenHash, tokenHash));
  // Checked before hashing, so a bad link costs no scrypt work.
  if (!found || found.deletedAt) throw refuse(ACCOUNT_MESSAGES.resetLinkInvalid);
  if (found.usedAt) throw refuse(ACCOUNT_MESSAGES.resetLinkUsed);
  if (found.expiresAt.getTime() <= Date.now()) throw refuse(ACCOUNT_MESSAGES.resetLinkExpired);
  // After the link's checks: only the link's holder learns how the account's password is judged.
  await requireStrongPassword("password", password, found);
  const passwordHash = await hashPassword(password);

  return db.transaction(async (tx) => {
    const now = new Date();
    const [claimed] = await tx
      .update(passwordResetTokens)
      .set({ usedAt: now })
      .where(
        and(
          eq(passwordResetTokens.tokenHash, tokenHash),
          isNull(passwordResetTokens.usedAt),
          gt(passwordResetTokens.expiresAt, now),
        ),
      )
      .returning({ id: passwordResetTokens.id, userId: passwordResetTokens.userId });
    // Another request used it (or it ran out) while the password was being hashed.
    if (!claimed) throw refuse(ACCOUNT_MESSAGES.resetLinkUsed);
    const [user] = await tx
      .update(users)
      .set({ passwordHash })
      .where(and(eq(users.id, claimed.userId), isNull(users.deletedAt)))
      .returning({ id: users.id, email: users.email });
    if (!user) throw refuse(ACCOUNT_MESSAGES.resetLinkInvalid);
    // Older links of the account stop working too: only the newest e-mail matters after this.
    await tx
      .update(passwordResetTokens)
      .set({ usedAt: now })
      .where(
        and(
          eq(passwordResetTokens.userId, user.id),
          isNull(passwordResetTokens.usedAt),
          ne(passwordResetTokens.id, claimed.id),
        ),
      );
    // Every login ends, this browser's too (it wasn't signed in as the account: it had lost the password).
    await revokeUserSessions(tx, user.id);
    await queueSecurityNotice(tx, user.email, { kind: "password-reset" });
    await recordChange(tx, user, "user.password-reset", user.id, {
      before: null,
      after: { by: "reset link" },
    });
    return { email: user.email };
  });
}

export interface PasswordResetRoutesDeps {
  db: Db;
  config: Pick<Config, "authRateLimit" | "publicUrl">;
  /** Wakes the mail worker once a message is queued (else it goes at the next poll). */
  notifyMail?: () => void;
}

const errors = { 400: errorSchema, 429: errorSchema };

export function passwordResetRoutes({
  db,
  config,
  notifyMail,
}: PasswordResetRoutesDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const counter = authCounter(db, config);
    const forgotLimit = new AuthRateLimit(counter, config, "password-forgot");
    const resetLimit = new AuthRateLimit(counter, config, "password-reset");

    app.post(
      "/user/password/forgot",
      {
        config: { access: "public" },
        schema: {
          tags: ["users"],
          summary:
            "Forgot password: e-mails a single-use reset link valid 30 minutes (Google accounts are told to use " +
            "Google); the same 202 reply whether or not the account exists",
          body: passwordForgotSchema,
          response: { 202: messageReplySchema, ...errors },
        },
      },
      async (request, reply) => {
        // Per address, so one machine can't mail the world; per e-mail, so no inbox is flooded from many.
        await forgotLimit.hitIp(request, reply);
        await forgotLimit.hitEmail(request, reply);
        // Answered before the account is even looked up, so the reply's timing can't tell an account from
        // none; the link is made and queued after (the handler still counts as running until then).
        void reply.code(202).send({ msg: FORGOT_REPLY });
        try {
          const { mailed } = await requestPasswordReset(db, config, request.body.email);
          if (mailed) notifyMail?.();
        } catch (error) {
          request.log.error({ err: error, event: "password.forgot.failed" }, "password reset not queued");
        }
        return reply;
      },
    );

    app.post(
      "/user/password/reset",
      {
        config: { access: "public" },
        schema: {
          tags: ["users"],
          summary:
            "Set a new password with the token of a reset link (once, within 30 minutes); every session of " +
            "the account ends",
          body: passwordResetSchema,
          response: { 200: passwordResetReplySchema, ...errors },
        },
      },
      async (request, reply) => {
        await resetLimit.hitIp(request, reply);
        const { email } = await resetPassword(db, request.body.token, request.body.password);
        request.log.info({ event: "password.reset" }, "password reset");
        notifyMail?.();
        // The e-mail the link was sent to, so the login form opens with it: whoever holds the link has it.
        return { msg: "Password changed", email };
      },
    );
  };
}
