import { and, count, eq, isNull } from "drizzle-orm";
import QRCode from "qrcode";
import type {
  RecoveryCodesReply,
  SecondFactorStatus,
  TotpEnrolmentReply,
} from "@voltio/domain/second-factor";
import type { Config } from "../../../config";
import type { Db } from "../../../db/client";
import { passkeys, recoveryCodes, refreshTokens, users } from "../../../db/schema";
import { Conflict, InvalidInput, NotFound } from "../../../errors";
import type { Caller } from "../../identity/caller";
import { queueSecurityNotice } from "../notices";
import { startSession, type SessionContext, type SessionTokens } from "../sessions";
import {
  hashRecoveryCode,
  isTotpCode,
  newRecoveryCodes,
  newTotpSecret,
  recoveryCodeMatches,
  totpOf,
  totpStep,
} from "./codes";
import { startPendingLogin, type PendingLogin } from "./pending-login";
import { openSecret, sealSecret } from "./secret-box";

/**
 * Two-step sign-in with an authenticator app (ASVS 2.7, 2.8; 4.3.1 for admins). Enrolment stores a sealed
 * secret that counts only once a first code confirms it; from then on every login asks for a code, and ten
 * single-use recovery codes stand in for a lost phone. A code works once: the step of the last accepted
 * code is kept, and no code of that step or earlier is taken again.
 */

export const WRONG_CODE = "is incorrect";

/** The store requires this account to sign in with a second factor. */
export const secondFactorRequired = (config: Pick<Config, "adminRequireSecondFactor">, rol: string) =>
  rol === "admin" && config.adminRequireSecondFactor;

/**
 * After the password (or Google) was right: a session, or the second step when the account has a second
 * factor — an authenticator app, or (an admin's) passkeys.
 */
export async function signInOrAskSecondFactor(
  db: Db,
  config: Config,
  userId: number,
  context: SessionContext = {},
): Promise<SessionTokens | { secondFactor: PendingLogin }> {
  const [user] = await db
    .select({ rol: users.rol, totpEnabledAt: users.totpEnabledAt })
    .from(users)
    .where(eq(users.id, userId));
  const [keys] = await db.select({ n: count() }).from(passkeys).where(eq(passkeys.userId, userId));
  const hasFactor = Boolean(user?.totpEnabledAt) || (user?.rol === "admin" && Number(keys?.n ?? 0) > 0);
  if (!hasFactor) return startSession(db, config, userId, context);
  return { secondFactor: await startPendingLogin(db, userId, { userAgent: context.userAgent }) };
}

/**
 * Whether `code` proves the user's authenticator: a current code not used before, or an unused recovery
 * code. A right code is used up in `tx` (commit it with the change it allows).
 */
export async function useSecondFactorCode(
  tx: Db,
  config: Pick<Config, "jwtSecret">,
  userId: number,
  code: string,
): Promise<boolean> {
  const [user] = await tx
    .select({ secret: users.totpSecret, enabledAt: users.totpEnabledAt, lastStep: users.totpLastStep })
    .from(users)
    .where(eq(users.id, userId))
    .for("update");
  if (!user?.secret || !user.enabledAt) return false;
  if (isTotpCode(code)) {
    const secret = openSecret(config.jwtSecret, userId, user.secret);
    const step = secret === undefined ? undefined : totpStep(secret, code);
    if (step === undefined || (user.lastStep !== null && step <= user.lastStep)) return false;
    await tx.update(users).set({ totpLastStep: step }).where(eq(users.id, userId));
    return true;
  }
  const unused = await tx
    .select({ id: recoveryCodes.id, codeHash: recoveryCodes.codeHash })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)))
    .for("update");
  const match = unused.find((row) => recoveryCodeMatches(code, row.codeHash));
  if (!match) return false;
  await tx.update(recoveryCodes).set({ usedAt: new Date() }).where(eq(recoveryCodes.id, match.id));
  return true;
}

/** POST /user/second-factor/totp: a new secret to scan, stored but not in force until a code confirms it. */
export async function startTotpEnrolment(
  db: Db,
  config: Pick<Config, "jwtSecret">,
  caller: Caller,
): Promise<TotpEnrolmentReply> {
  const [user] = await db
    .select({ email: users.email, enabledAt: users.totpEnabledAt })
    .from(users)
    .where(eq(users.id, caller.id));
  if (!user) throw new NotFound("User not found");
  if (user.enabledAt)
    throw new Conflict("Two-step sign-in is already on: turn it off first to change the app");
  const secret = newTotpSecret();
  await db
    .update(users)
    .set({ totpSecret: sealSecret(config.jwtSecret, caller.id, secret), totpLastStep: null })
    .where(and(eq(users.id, caller.id), isNull(users.totpEnabledAt)));
  const otpauthUrl = totpOf(secret, user.email).toString();
  const svg = await QRCode.toString(otpauthUrl, { type: "svg", errorCorrectionLevel: "M", margin: 2 });
  return {
    otpauthUrl,
    qrCode: `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}`,
    secret,
  };
}

/**
 * POST /user/second-factor/totp/confirm: the first code turns the app on, and this session counts as
 * signed in with it (an admin required to enrol goes on at once). The recovery codes are shown this once.
 */
export async function confirmTotp(
  db: Db,
  config: Pick<Config, "jwtSecret">,
  caller: Caller,
  code: string,
): Promise<RecoveryCodesReply> {
  return db.transaction(async (tx) => {
    const [user] = await tx
      .select({
        email: users.email,
        secret: users.totpSecret,
        enabledAt: users.totpEnabledAt,
        lastStep: users.totpLastStep,
      })
      .from(users)
      .where(eq(users.id, caller.id))
      .for("update");
    if (!user) throw new NotFound("User not found");
    if (user.enabledAt) throw new Conflict("Two-step sign-in is already on");
    if (!user.secret) throw new Conflict("Start setting up two-step sign-in first");
    const secret = openSecret(config.jwtSecret, caller.id, user.secret);
    const step = secret === undefined || !isTotpCode(code) ? undefined : totpStep(secret, code);
    if (step === undefined || (user.lastStep !== null && step <= user.lastStep))
      throw new InvalidInput("code", WRONG_CODE);
    await tx
      .update(users)
      .set({ totpEnabledAt: new Date(), totpLastStep: step })
      .where(eq(users.id, caller.id));
    await tx
      .update(refreshTokens)
      .set({ secondFactorAt: new Date() })
      .where(and(eq(refreshTokens.userId, caller.id), eq(refreshTokens.familyId, caller.sessionId)));
    const codes = await replaceRecoveryCodes(tx, caller.id);
    await queueSecurityNotice(tx, user.email, { kind: "second-factor-added", method: "authenticator" });
    return { recoveryCodes: codes };
  });
}

/** DELETE /user/second-factor/totp: with a current code or a recovery code, the app and its codes go. */
export async function disableTotp(
  db: Db,
  config: Pick<Config, "jwtSecret">,
  caller: Caller,
  code: string,
): Promise<void> {
  await db.transaction(async (tx) => {
    const email = await enabledUserEmail(tx, caller.id);
    if (!(await useSecondFactorCode(tx, config, caller.id, code))) throw new InvalidInput("code", WRONG_CODE);
    await tx
      .update(users)
      .set({ totpSecret: null, totpEnabledAt: null, totpLastStep: null })
      .where(eq(users.id, caller.id));
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, caller.id));
    await queueSecurityNotice(tx, email, { kind: "second-factor-removed", method: "authenticator" });
  });
}

/** POST /user/second-factor/recovery-codes: a new set replaces the old one (used up or lost). */
export async function regenerateRecoveryCodes(
  db: Db,
  config: Pick<Config, "jwtSecret">,
  caller: Caller,
  code: string,
): Promise<RecoveryCodesReply> {
  return db.transaction(async (tx) => {
    await enabledUserEmail(tx, caller.id);
    if (!(await useSecondFactorCode(tx, config, caller.id, code))) throw new InvalidInput("code", WRONG_CODE);
    return { recoveryCodes: await replaceRecoveryCodes(tx, caller.id) };
  });
}

/** GET /user/second-factor. */
export async function secondFactorStatus(
  db: Db,
  config: Pick<Config, "adminRequireSecondFactor">,
  caller: Caller,
): Promise<SecondFactorStatus> {
  const [user] = await db
    .select({ enabledAt: users.totpEnabledAt })
    .from(users)
    .where(eq(users.id, caller.id));
  const [codes] = await db
    .select({ n: count() })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, caller.id), isNull(recoveryCodes.usedAt)));
  const [keys] = await db.select({ n: count() }).from(passkeys).where(eq(passkeys.userId, caller.id));
  const totpEnabled = Boolean(user?.enabledAt);
  return {
    totpEnabled,
    recoveryCodesLeft: totpEnabled ? Number(codes?.n ?? 0) : 0,
    passkeys: Number(keys?.n ?? 0),
    required: secondFactorRequired(config, caller.rol),
    sessionVerified: caller.secondFactor,
  };
}

async function enabledUserEmail(tx: Db, userId: number): Promise<string> {
  const [user] = await tx
    .select({ email: users.email, enabledAt: users.totpEnabledAt })
    .from(users)
    .where(eq(users.id, userId));
  if (!user) throw new NotFound("User not found");
  if (!user.enabledAt) throw new Conflict("Two-step sign-in is off");
  return user.email;
}

async function replaceRecoveryCodes(tx: Db, userId: number): Promise<string[]> {
  const codes = newRecoveryCodes();
  await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  await tx.insert(recoveryCodes).values(codes.map((code) => ({ userId, codeHash: hashRecoveryCode(code) })));
  return codes;
}
