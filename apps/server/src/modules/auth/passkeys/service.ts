import { randomBytes } from "node:crypto";
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from "@simplewebauthn/server";
import { and, asc, count, eq, gt, isNull, lt } from "drizzle-orm";
import {
  PASSKEY_RECENT_SIGN_IN_MINUTES,
  PASSKEYS_PER_USER_MAX,
  type AuthenticationResponse,
  type Passkey,
  type PasskeyAddInput,
  type PasskeyLoginOptionsReply,
  type WebauthnOptions,
} from "@voltio/domain/passkeys";
import type { Config } from "../../../config";
import type { Db } from "../../../db/client";
import { passkeys, refreshTokens, users } from "../../../db/schema";
import { Conflict, InvalidInput, NotFound, NotSignedIn } from "../../../errors";
import type { Caller } from "../../identity/caller";
import { queueSecurityNotice } from "../notices";
import { verifyPassword } from "../password";
import { startSession, type SessionTokens } from "../sessions";
import { PURPOSE, issueChallenge, takeChallenge } from "./challenges";
import { deviceName } from "./device-name";

/**
 * Passkeys (WebAuthn, through @simplewebauthn/server). A signed-in user adds one; it then signs in alone —
 * the browser offers the site's discoverable credentials, so no e-mail is typed — and, being a key the user
 * holds unlocked by the device's own check, it counts as an admin's second factor. Only the public key is
 * kept. The relying party is PUBLIC_URL: its origin must be the one the browser signed, its host the rpID.
 */

export interface RelyingParty {
  id: string;
  origin: string;
  name: string;
}

export function relyingParty(config: Pick<Config, "publicUrl">): RelyingParty {
  const url = new URL(config.publicUrl);
  return { id: url.hostname, origin: url.origin, name: "Voltio" };
}

/** The WebAuthn user handle: the account's id, which says nothing of the person. */
const userHandle = (userId: number) => Buffer.from(String(userId), "utf8");

/** The one answer for every passkey that doesn't sign in, whatever the reason (the log has it). */
export const PASSKEY_REFUSED = "The passkey was not accepted";
/** The ceremony's token is unknown, used or expired: the client starts again. */
export const PASSKEY_STEP_GONE = "The passkey request expired: try again";

const TRANSPORTS = new Set<string>(["ble", "cable", "hybrid", "internal", "nfc", "smart-card", "usb"]);
const knownTransports = (transports: readonly string[] | undefined) =>
  (transports ?? []).filter((transport) => TRANSPORTS.has(transport));

const toPasskey = (row: typeof passkeys.$inferSelect): Passkey => ({
  id: row.id,
  name: row.name,
  createdAt: row.createdAt.toISOString(),
  lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
});

async function liveUser(db: Db, userId: number) {
  const [user] = await db
    .select({ email: users.email, firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(and(eq(users.id, userId), isNull(users.deletedAt)));
  if (!user) throw new NotFound("No such user");
  return user;
}

async function passkeyCount(db: Db, userId: number): Promise<number> {
  const [row] = await db.select({ n: count() }).from(passkeys).where(eq(passkeys.userId, userId));
  return Number(row?.n ?? 0);
}

/**
 * The owner's proof before a passkey is made: the current password, or for an account without one (Google),
 * a session that signed in in the last PASSKEY_RECENT_SIGN_IN_MINUTES. A passkey signs in alone, so a
 * stolen access token must not be enough to plant one.
 */
async function proveOwner(db: Db, caller: Pick<Caller, "id" | "sessionId">, currentPassword?: string) {
  const [account] = await db
    .select({ passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.id, caller.id));
  if (account?.passwordHash) {
    if (!currentPassword)
      throw new InvalidInput("currentPassword", "type your current password to add a passkey");
    if (!(await verifyPassword(currentPassword, account.passwordHash)))
      throw new InvalidInput("currentPassword", "The password is incorrect");
    return;
  }
  const since = new Date(Date.now() - PASSKEY_RECENT_SIGN_IN_MINUTES * 60_000);
  const [recent] = await db
    .select({ id: refreshTokens.id })
    .from(refreshTokens)
    .where(and(eq(refreshTokens.familyId, caller.sessionId), gt(refreshTokens.createdAt, since)))
    .limit(1);
  if (!recent) throw new InvalidInput("currentPassword", "sign in again to add a passkey");
}

/** POST /user/passkeys/options: what the browser needs to make a passkey for this account. */
export async function registrationOptions(
  db: Db,
  rp: RelyingParty,
  caller: Pick<Caller, "id" | "sessionId">,
  currentPassword?: string,
): Promise<WebauthnOptions> {
  const userId = caller.id;
  const user = await liveUser(db, userId);
  await proveOwner(db, caller, currentPassword);
  const existing = await db
    .select({ id: passkeys.credentialId, transports: passkeys.transports })
    .from(passkeys)
    .where(eq(passkeys.userId, userId));
  if (existing.length >= PASSKEYS_PER_USER_MAX)
    throw new Conflict(`An account can have at most ${PASSKEYS_PER_USER_MAX} passkeys`);
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: user.email,
    userID: userHandle(userId),
    userDisplayName: `${user.firstName} ${user.lastName}`,
    attestationType: "none",
    // The same authenticator twice would only be a second name for one key.
    excludeCredentials: existing.map(({ id, transports }) => ({
      id,
      transports: knownTransports(transports),
    })),
    // A passkey signs in alone, so it must be discoverable and unlocked by the device (PIN, biometrics).
    authenticatorSelection: { residentKey: "required", userVerification: "required" },
  });
  // The challenge is random and single use, so it is the ceremony's token too: the reply names it.
  await issueChallenge(db, {
    purpose: PURPOSE.register,
    token: options.challenge,
    userId,
    challenge: options.challenge,
  });
  return { ...options };
}

/** Why a browser's answer was refused, for the 400 and the log; the library's words name the check. */
const reasonOf = (error: unknown) =>
  /challenge/i.test(error instanceof Error ? error.message : "")
    ? "the passkey request expired or was already used: try again"
    : `could not be verified (${error instanceof Error ? error.message : "invalid"})`;

/**
 * POST /user/passkeys: checks what the browser made against the challenge this account was given (taken,
 * so it works once) and keeps the credential, telling the account's e-mail in the same transaction.
 */
export async function addPasskey(
  db: Db,
  rp: RelyingParty,
  userId: number,
  input: PasskeyAddInput,
  userAgent: string | undefined,
): Promise<Passkey> {
  let verification;
  try {
    verification = await verifyRegistrationResponse({
      response: input.response as RegistrationResponseJSON,
      expectedChallenge: async (challenge) =>
        (await takeChallenge(db, PURPOSE.register, challenge, userId))?.challenge === challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: true,
    });
  } catch (error) {
    throw new InvalidInput("response", reasonOf(error));
  }
  if (!verification.verified) throw new InvalidInput("response", "could not be verified");
  const { credential } = verification.registrationInfo;
  return db.transaction(async (tx) => {
    // Locked, so two additions at once can't pass the limit together.
    const [user] = await tx
      .select({ email: users.email })
      .from(users)
      .where(and(eq(users.id, userId), isNull(users.deletedAt)))
      .for("update");
    if (!user) throw new NotFound("No such user");
    if ((await passkeyCount(tx, userId)) >= PASSKEYS_PER_USER_MAX)
      throw new Conflict(`An account can have at most ${PASSKEYS_PER_USER_MAX} passkeys`);
    const [row] = await tx
      .insert(passkeys)
      .values({
        userId,
        credentialId: credential.id,
        publicKey: Buffer.from(credential.publicKey).toString("base64url"),
        signCount: credential.counter,
        transports: knownTransports(credential.transports ?? input.response.response.transports),
        name: input.name ?? deviceName(userAgent),
      })
      .onConflictDoNothing()
      .returning();
    if (!row) throw new Conflict("This passkey is already registered");
    await queueSecurityNotice(tx, user.email, { kind: "second-factor-added", method: "passkey" });
    return toPasskey(row);
  });
}

/** GET /user/passkeys: the caller's passkeys, oldest first. */
export async function listPasskeys(db: Db, userId: number): Promise<Passkey[]> {
  const rows = await db
    .select()
    .from(passkeys)
    .where(eq(passkeys.userId, userId))
    .orderBy(asc(passkeys.createdAt), asc(passkeys.id));
  return rows.map(toPasskey);
}

const NO_SUCH_PASSKEY = "No such passkey";

/** PATCH /user/passkeys/:id: another user's passkey is answered as a missing one. */
export async function renamePasskey(db: Db, userId: number, id: number, name: string): Promise<Passkey> {
  const [row] = await db
    .update(passkeys)
    .set({ name })
    .where(and(eq(passkeys.id, id), eq(passkeys.userId, userId)))
    .returning();
  if (!row) throw new NotFound(NO_SUCH_PASSKEY);
  return toPasskey(row);
}

/** DELETE /user/passkeys/:id: it signs in no more, and the account's e-mail is told. */
export async function removePasskey(db: Db, userId: number, id: number): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .delete(passkeys)
      .where(and(eq(passkeys.id, id), eq(passkeys.userId, userId)))
      .returning({ id: passkeys.id });
    if (!row) throw new NotFound(NO_SUCH_PASSKEY);
    const [user] = await tx.select({ email: users.email }).from(users).where(eq(users.id, userId));
    if (user) await queueSecurityNotice(tx, user.email, { kind: "second-factor-removed", method: "passkey" });
  });
}

/** POST /user/login/passkey/options: a challenge for any of the site's passkeys the browser holds. */
export async function loginOptions(db: Db, rp: RelyingParty): Promise<PasskeyLoginOptionsReply> {
  const options = await generateAuthenticationOptions({ rpID: rp.id, userVerification: "required" });
  const token = randomBytes(32).toString("base64url");
  await issueChallenge(db, { purpose: PURPOSE.login, token, userId: null, challenge: options.challenge });
  return { token, options: { ...options } };
}

export interface AssertionCheck {
  /** Only this user's passkeys count (the second step of a password login). */
  userId?: number;
  /** A passkey alone must have been unlocked by the device; after a password, being held is enough. */
  requireUserVerification: boolean;
}

/**
 * Checks the browser's signature with the stored public key and moves the passkey's sign counter on (a
 * counter that goes back means a cloned key: refused). The user whose passkey it is, or null when refused;
 * `db` may be a transaction.
 */
export async function verifyAssertion(
  db: Db,
  rp: RelyingParty,
  response: AuthenticationResponse,
  expectedChallenge: string,
  check: AssertionCheck,
): Promise<{ userId: number } | { refused: string }> {
  const [key] = await db
    .select({
      id: passkeys.id,
      userId: passkeys.userId,
      credentialId: passkeys.credentialId,
      publicKey: passkeys.publicKey,
      signCount: passkeys.signCount,
      transports: passkeys.transports,
    })
    .from(passkeys)
    .innerJoin(users, eq(users.id, passkeys.userId))
    .where(
      and(
        eq(passkeys.credentialId, response.id),
        isNull(users.deletedAt),
        check.userId === undefined ? undefined : eq(passkeys.userId, check.userId),
      ),
    );
  if (!key) return { refused: "unknown credential" };
  const handle = response.response.userHandle;
  if (handle !== undefined && handle !== userHandle(key.userId).toString("base64url"))
    return { refused: "user handle of another account" };
  let result;
  try {
    result = await verifyAuthenticationResponse({
      response: response as AuthenticationResponseJSON,
      expectedChallenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      credential: {
        id: key.credentialId,
        publicKey: Buffer.from(key.publicKey, "base64url"),
        counter: key.signCount,
        transports: knownTransports(key.transports),
      },
      requireUserVerification: check.requireUserVerification,
    });
  } catch (error) {
    return { refused: error instanceof Error ? error.message : "invalid" };
  }
  if (!result.verified) return { refused: "signature" };
  const { newCounter } = result.authenticationInfo;
  // Conditional, so two uses of one signature at once (or a clone racing the original) can't both pass.
  const [moved] = await db
    .update(passkeys)
    .set({ signCount: newCounter, lastUsedAt: new Date() })
    .where(and(eq(passkeys.id, key.id), newCounter === 0 ? undefined : lt(passkeys.signCount, newCounter)))
    .returning({ id: passkeys.id });
  if (!moved) return { refused: "sign counter did not move on" };
  return { userId: key.userId };
}

/**
 * POST /user/login/passkey: the challenge is taken first (one use, whatever follows), then the passkey is
 * checked. A session of its own starts, with the second factor proved.
 */
export async function passkeyLogin(
  db: Db,
  config: Config,
  rp: RelyingParty,
  input: { token: string; response: AuthenticationResponse },
  userAgent: string | undefined,
): Promise<SessionTokens> {
  const step = await takeChallenge(db, PURPOSE.login, input.token);
  if (!step) throw new NotSignedIn(PASSKEY_STEP_GONE);
  const outcome = await verifyAssertion(db, rp, input.response, step.challenge, {
    requireUserVerification: true,
  });
  if ("refused" in outcome) throw new PasskeyRefused(outcome.refused);
  return startSession(db, config, outcome.userId, { userAgent, secondFactor: true });
}

/** A refused passkey: the client hears PASSKEY_REFUSED, the log hears why. */
export class PasskeyRefused extends NotSignedIn {
  constructor(readonly why: string) {
    super(PASSKEY_REFUSED);
  }
}
