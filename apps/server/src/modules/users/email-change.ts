import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, isNull, ne, sql } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { decodeJwt } from "jose";
import {
  EMAIL_CHANGE_MINUTES,
  EMAIL_REVERT_DAYS,
  GOOGLE_REAUTH_MINUTES,
  emailLinkReplySchema,
  emailLinkSchema,
} from "@voltio/domain/account";
import { ACCOUNT_MESSAGES } from "@voltio/domain/account-messages";
import { errorSchema } from "@voltio/domain/http";
import type { Config } from "../../config";
import type { Db } from "../../db/client";
import { emailChanges, passwordResetTokens, users } from "../../db/schema";
import { Conflict, InvalidInput, NotFound, ServiceError } from "../../errors";
import { queueMail, type MailMessage } from "../../integrations/mail/outbox";
import { recordChange } from "../audit/service";
import type { GoogleVerifier } from "../auth/google";
import { queueSecurityNotice } from "../auth/notices";
import { verifyPassword } from "../auth/password";
import { AuthRateLimit, authCounter } from "../auth/rate-limit";
import { revokeUserSessions } from "../auth/sessions";
import { keepRepliesPrivate } from "../../http/private-replies";

/**
 * Changing the e-mail an account signs in with (ASVS 2.5.5, 3.7.1): whoever holds a stolen access token
 * must not be able to move the account to their own inbox and then reset its password. So the owner proves
 * it is them (the current password; a Google account, a Google sign-in of the last few minutes), the change
 * waits for the link sent to the new address, and the old address is told, with a link that puts it back
 * and signs out everywhere. Link tokens are 32 random bytes; only their SHA-256 is stored.
 */

const m = ACCOUNT_MESSAGES;
const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");
const newToken = () => randomBytes(32).toString("base64url");
const sameEmail = (email: string) => sql`lower(${users.email}) = lower(${email})`;

/** The reply to an e-mail change that waits for its link. */
export const emailChangeSentMessage = (email: string) =>
  `We sent a link to ${email}: the e-mail changes once it is opened`;

function confirmMail(to: string, link: string, changeId: number): MailMessage {
  return {
    to,
    subject: "Voltio: confirm your new e-mail / confirma tu nuevo correo",
    dedupeKey: `email-change:${changeId}`,
    text: [
      "Someone (we hope you) asked to sign in to a Voltio account with this address from now on.",
      `Open this link within ${EMAIL_CHANGE_MINUTES} minutes to confirm it; it works once:`,
      "",
      link,
      "",
      "If you didn't ask for it, ignore this e-mail: nothing changes.",
      "",
      "—",
      "Alguien (esperamos que tú) pidió entrar a una cuenta de Voltio con esta dirección a partir de ahora.",
      `Abre este enlace antes de ${EMAIL_CHANGE_MINUTES} minutos para confirmarlo; sirve una sola vez:`,
      "",
      link,
      "",
      "Si no lo pediste, ignora este correo: nada cambia.",
    ].join("\n"),
  };
}

export interface EmailChangeRequest {
  email: string;
  currentPassword?: string;
  googleToken?: string;
}

/**
 * The owner's proof: the password of an account that has one, otherwise a Google ID token of the account's
 * own Google subject, issued in the last GOOGLE_REAUTH_MINUTES (a token from the sign-in long ago won't do).
 */
async function proveOwner(
  account: { passwordHash: string | null; googleSubject: string | null },
  request: EmailChangeRequest,
  verifyGoogle: GoogleVerifier | null,
): Promise<void> {
  if (account.passwordHash) {
    if (!request.currentPassword) throw new InvalidInput("currentPassword", m.currentPasswordRequired);
    if (!(await verifyPassword(request.currentPassword, account.passwordHash))) {
      throw new InvalidInput("currentPassword", "The password is incorrect");
    }
    return;
  }
  if (!request.googleToken) throw new InvalidInput("googleToken", m.googleSignInRequired);
  if (!verifyGoogle) throw new InvalidInput("googleToken", "Google sign-in is not configured");
  let subject: string;
  try {
    ({ subject } = await verifyGoogle(request.googleToken));
  } catch (error) {
    // A bad token is a refused field of this form, not a signed-out caller (the session is fine).
    if (error instanceof ServiceError) throw new InvalidInput("googleToken", "Invalid Google token");
    throw error;
  }
  if (!account.googleSubject || subject !== account.googleSubject) {
    throw new InvalidInput("googleToken", m.googleSignInOther);
  }
  // The signature was checked just above, so the token's own issue time can be trusted.
  const issuedAt = decodeJwt(request.googleToken).iat ?? 0;
  if (Date.now() - issuedAt * 1000 > GOOGLE_REAUTH_MINUTES * 60_000) {
    throw new InvalidInput("googleToken", m.googleSignInStale);
  }
}

/**
 * PUT /user {email}: once the owner is proven, a link goes to the new address; the e-mail stays as it is
 * until the link is opened. A newer request replaces the pending ones, so only the last link works.
 */
export async function requestEmailChange(
  db: Db,
  config: Pick<Config, "publicUrl">,
  verifyGoogle: GoogleVerifier | null,
  userId: number,
  request: EmailChangeRequest,
): Promise<{ pendingEmail: string }> {
  const [account] = await db
    .select({ email: users.email, passwordHash: users.passwordHash, googleSubject: users.googleSubject })
    .from(users)
    .where(and(eq(users.id, userId), isNull(users.deletedAt)));
  if (!account) throw new NotFound("User Not Found");
  await proveOwner(account, request, verifyGoogle);
  const email = request.email;
  if (email.toLowerCase() === account.email.toLowerCase()) throw new InvalidInput("email", m.emailUnchanged);
  const [owner] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(sameEmail(email), isNull(users.deletedAt)));
  if (owner) throw new Conflict("email exists");

  const token = newToken();
  await db.transaction(async (tx) => {
    await tx
      .delete(emailChanges)
      .where(and(eq(emailChanges.userId, userId), isNull(emailChanges.confirmedAt)));
    const [row] = await tx
      .insert(emailChanges)
      .values({
        userId,
        oldEmail: account.email,
        newEmail: email,
        confirmTokenHash: hashToken(token),
        expiresAt: new Date(Date.now() + EMAIL_CHANGE_MINUTES * 60_000),
      })
      .returning({ id: emailChanges.id });
    await queueMail(tx, confirmMail(email, `${config.publicUrl}/user/email/confirm?token=${token}`, row!.id));
  });
  return { pendingEmail: email };
}

const refuse = (reason: string) => new InvalidInput("token", reason);

/** The account still there, locked for the change; its other accounts' claim on `email` refused. */
async function lockAccount(tx: Db, userId: number) {
  const [account] = await tx
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(and(eq(users.id, userId), isNull(users.deletedAt)))
    .for("update");
  if (!account) throw refuse(m.emailLinkInvalid);
  return account;
}

async function takenByAnother(tx: Db, userId: number, email: string): Promise<boolean> {
  const [other] = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(sameEmail(email), ne(users.id, userId)));
  return other !== undefined;
}

const isUniqueViolation = (error: unknown): boolean => {
  for (let e = error; e && typeof e === "object"; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === "23505") return true;
  }
  return false;
};

/**
 * POST /user/email/confirm: the new address's link. The account then signs in with the new address; the old
 * one gets a notice with a "this wasn't me" link, in the same transaction. A link is claimed by one
 * conditional UPDATE, so it works once even when opened twice at the same moment.
 */
export async function confirmEmailChange(
  db: Db,
  config: Pick<Config, "publicUrl">,
  token: string,
): Promise<{ email: string }> {
  const tokenHash = hashToken(token);
  const [found] = await db
    .select({ confirmedAt: emailChanges.confirmedAt, expiresAt: emailChanges.expiresAt })
    .from(emailChanges)
    .where(eq(emailChanges.confirmTokenHash, tokenHash));
  if (!found) throw refuse(m.emailLinkInvalid);
  if (found.confirmedAt) throw refuse(m.emailLinkUsed);
  if (found.expiresAt.getTime() <= Date.now()) throw refuse(m.emailLinkExpired);

  const revertToken = newToken();
  try {
    return await db.transaction(async (tx) => {
      const now = new Date();
      const [change] = await tx
        .update(emailChanges)
        .set({ confirmedAt: now, revertTokenHash: hashToken(revertToken) })
        .where(
          and(
            eq(emailChanges.confirmTokenHash, tokenHash),
            isNull(emailChanges.confirmedAt),
            gt(emailChanges.expiresAt, now),
          ),
        )
        .returning({ id: emailChanges.id, userId: emailChanges.userId, newEmail: emailChanges.newEmail });
      if (!change) throw refuse(m.emailLinkUsed);
      const account = await lockAccount(tx, change.userId);
      // Someone registered with the address since the link was sent: the link stays unused (rolled back).
      if (await takenByAnother(tx, account.id, change.newEmail)) throw new Conflict("email exists");
      // The address the account had until now is the one told, and the one a revert puts back.
      await tx.update(emailChanges).set({ oldEmail: account.email }).where(eq(emailChanges.id, change.id));
      await tx.update(users).set({ email: change.newEmail }).where(eq(users.id, account.id));
      await recordChange(tx, account, "user.email-change", account.id, {
        before: { email: account.email },
        after: { email: change.newEmail },
      });
      await queueSecurityNotice(tx, account.email, {
        kind: "email-changed",
        newEmail: change.newEmail,
        revertLink: `${config.publicUrl}/user/email/revert?token=${revertToken}`,
      });
      return { email: change.newEmail };
    });
  } catch (error) {
    // Another account took the address between the check and the update.
    if (isUniqueViolation(error)) throw new Conflict("email exists");
    throw error;
  }
}

/**
 * POST /user/email/revert: "this wasn't me" from the old address's notice. The old address comes back,
 * every session of the account ends (whoever changed it is signed out), and pending changes and the
 * account's other open links are cancelled, all in one transaction. The link works once, for EMAIL_REVERT_DAYS after the change.
 */
export async function revertEmailChange(db: Db, token: string): Promise<{ email: string }> {
  const tokenHash = hashToken(token);
  const [found] = await db
    .select({ confirmedAt: emailChanges.confirmedAt, revertedAt: emailChanges.revertedAt })
    .from(emailChanges)
    .where(eq(emailChanges.revertTokenHash, tokenHash));
  const expired = (confirmedAt: Date) => confirmedAt.getTime() + EMAIL_REVERT_DAYS * 86_400_000 <= Date.now();
  if (!found?.confirmedAt) throw refuse(m.emailLinkInvalid);
  if (found.revertedAt) throw refuse(m.emailLinkUsed);
  if (expired(found.confirmedAt)) throw refuse(m.emailLinkExpired);

  try {
    return await db.transaction(async (tx) => {
      const now = new Date();
      const [change] = await tx
        .update(emailChanges)
        .set({ revertedAt: now })
        .where(
          and(
            eq(emailChanges.revertTokenHash, tokenHash),
            isNull(emailChanges.revertedAt),
            gt(emailChanges.confirmedAt, new Date(now.getTime() - EMAIL_REVERT_DAYS * 86_400_000)),
          ),
        )
        .returning({ userId: emailChanges.userId, oldEmail: emailChanges.oldEmail });
      if (!change) throw refuse(m.emailLinkUsed);
      const account = await lockAccount(tx, change.userId);
      if (await takenByAnother(tx, account.id, change.oldEmail)) throw new Conflict(m.emailRevertTaken);
      await tx.update(users).set({ email: change.oldEmail }).where(eq(users.id, account.id));
      await revokeUserSessions(tx, account.id);
      await tx
        .delete(emailChanges)
        .where(and(eq(emailChanges.userId, account.id), isNull(emailChanges.confirmedAt)));
      // Whoever moved the account may hold the other links: a later change's "this wasn't me" (sent to
      // their address) and password reset links sent there. None of them works any more.
      await tx
        .update(emailChanges)
        .set({ revertedAt: now })
        .where(and(eq(emailChanges.userId, account.id), isNull(emailChanges.revertedAt)));
      await tx
        .update(passwordResetTokens)
        .set({ usedAt: now })
        .where(and(eq(passwordResetTokens.userId, account.id), isNull(passwordResetTokens.usedAt)));
      await recordChange(tx, account, "user.email-revert", account.id, {
        before: { email: account.email },
        after: { email: change.oldEmail },
      });
      return { email: change.oldEmail };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new Conflict(m.emailRevertTaken);
    throw error;
  }
}

export interface EmailChangeRoutesDeps {
  db: Db;
  config: Pick<Config, "authRateLimit" | "publicUrl">;
  /** Wakes the mail worker once a notice is queued (else it goes at the next poll). */
  notifyMail?: () => void;
}

const errors = { 400: errorSchema, 409: errorSchema, 429: errorSchema };

/** The two links' routes: public, since a link may be opened in a browser that isn't signed in. */
export function emailChangeRoutes({ db, config, notifyMail }: EmailChangeRoutesDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const counter = authCounter(db, config);
    const confirmLimit = new AuthRateLimit(counter, config, "email-confirm");
    const revertLimit = new AuthRateLimit(counter, config, "email-revert");
    keepRepliesPrivate(app);

    app.post(
      "/user/email/confirm",
      {
        config: { access: "public" },
        schema: {
          tags: ["users"],
          summary:
            "Confirm an e-mail change with the token of the link sent to the new address (once, within 30 " +
            "minutes); the old address is told, with a link that puts it back",
          body: emailLinkSchema,
          response: { 200: emailLinkReplySchema, ...errors },
        },
      },
      async (request, reply) => {
        await confirmLimit.hitIp(request, reply);
        const { email } = await confirmEmailChange(db, config, request.body.token);
        request.log.info({ event: "email.changed" }, "e-mail changed");
        notifyMail?.();
        return { msg: "E-mail changed", email };
      },
    );

    app.post(
      "/user/email/revert",
      {
        config: { access: "public" },
        schema: {
          tags: ["users"],
          summary:
            "Put the old e-mail back with the token of the link sent to it when the e-mail changed (once, " +
            "within 7 days); every session of the account ends",
          body: emailLinkSchema,
          response: { 200: emailLinkReplySchema, ...errors },
        },
      },
      async (request, reply) => {
        await revertLimit.hitIp(request, reply);
        const { email } = await revertEmailChange(db, request.body.token);
        request.log.warn({ event: "email.reverted" }, "e-mail change reverted by the old address");
        return { msg: "E-mail put back: every session ended. Reset your password now", email };
      },
    );
  };
}
