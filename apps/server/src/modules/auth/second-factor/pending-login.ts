import { createHash, randomBytes } from "node:crypto";
import { and, count, eq, gt, isNull, lt, sql } from "drizzle-orm";
import type { Config } from "../../../config";
import type { Db } from "../../../db/client";
import { authChallenges, passkeys, users } from "../../../db/schema";
import { NotSignedIn } from "../../../errors";
import { startSession, type SessionTokens } from "../sessions";

/**
 * The login's second step. A password (or Google) that was right for an account with a second factor
 * doesn't start a session: it opens a pending login, an `auth_challenges` row of purpose "second-factor"
 * whose random token (stored only as its SHA-256) the client sends back with the second factor. The step
 * lasts five minutes, is used once, and closes after five wrong codes, so the password must be entered
 * again: a stolen password gets five guesses per step, and wrong codes also count per account across
 * steps (routes.ts), as wrong passwords do.
 *
 * Each factor plugs its own check into finishPendingLogin: the authenticator app and recovery codes
 * (service.ts), passkeys (the passkeys module).
 */

export type SecondFactorMethod = "totp" | "recovery" | "passkey";

export const PENDING_LOGIN_PURPOSE = "second-factor";
export const PENDING_LOGIN_SECONDS = 5 * 60;
export const PENDING_LOGIN_MAX_ATTEMPTS = 5;

/** The reply's error when the step is unknown, used, expired or closed: the client goes back to the password. */
export const PENDING_LOGIN_GONE = "The sign-in step expired: enter your password again";
/** The reply's error for a wrong code. */
export const WRONG_SECOND_FACTOR = "The code is incorrect";

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

/** The second factors the user can prove now; empty when the login needs none. */
export async function secondFactorMethods(db: Db, userId: number): Promise<SecondFactorMethod[]> {
  const [user] = await db
    .select({ totpEnabledAt: users.totpEnabledAt })
    .from(users)
    .where(eq(users.id, userId));
  const [keys] = await db.select({ n: count() }).from(passkeys).where(eq(passkeys.userId, userId));
  const methods: SecondFactorMethod[] = [];
  if (user?.totpEnabledAt) methods.push("totp", "recovery");
  if (Number(keys?.n ?? 0) > 0) methods.push("passkey");
  return methods;
}

export interface PendingLogin {
  /** Sent back with the second factor; only its hash is stored. */
  token: string;
  methods: SecondFactorMethod[];
}

/** Opens the second step of a login whose password (or Google token) was right. */
export async function startPendingLogin(
  db: Db,
  userId: number,
  { userAgent }: { userAgent?: string } = {},
): Promise<PendingLogin> {
  const token = randomBytes(32).toString("base64url");
  await db.insert(authChallenges).values({
    tokenHash: hashToken(token),
    purpose: PENDING_LOGIN_PURPOSE,
    userId,
    // The browser that entered the password is the one the session will record.
    challenge: JSON.stringify({ userAgent: (userAgent ?? "").slice(0, 512) }),
    expiresAt: new Date(Date.now() + PENDING_LOGIN_SECONDS * 1000),
  });
  // Old steps nobody finished go as new ones open, so the table stays small without a job.
  await db.delete(authChallenges).where(lt(authChallenges.expiresAt, new Date(Date.now() - 86_400_000)));
  return { token, methods: await secondFactorMethods(db, userId) };
}

/** What a factor's check is given: the open step's user, inside the transaction that holds the step. */
export interface PendingLoginCheck {
  tx: Db;
  userId: number;
  /** The step's own data (the passkeys module may keep its WebAuthn challenge here via setPendingLoginData). */
  data: Record<string, unknown>;
}

/**
 * Finishes the second step. Inside one transaction the step is locked (unused, unexpired, fewer than five
 * wrong attempts) and `check` runs: true means the factor is proved (the check records its own use in
 * `tx`, e.g. a code's step, a recovery code, a passkey's counter), false that it is wrong. Proved, the
 * step is used up and a session with a second factor starts. Wrong, one attempt is counted — the fifth
 * closes the step — and NotSignedIn(WRONG_SECOND_FACTOR) is thrown. A missing, used, expired or closed
 * step throws NotSignedIn(PENDING_LOGIN_GONE) with `secondFactorGone: true` for the client.
 * Errors thrown by `check` roll everything back and don't count.
 */
export async function finishPendingLogin(
  db: Db,
  config: Config,
  token: string,
  check: (step: PendingLoginCheck) => Promise<boolean>,
): Promise<SessionTokens> {
  const outcome = await db.transaction(async (tx) => {
    const [step] = await tx
      .select({ id: authChallenges.id, userId: authChallenges.userId, challenge: authChallenges.challenge })
      .from(authChallenges)
      .where(openStep(token))
      .for("update");
    if (!step || step.userId === null) return { kind: "gone" as const };
    const data = parseData(step.challenge);
    const proved = await check({ tx, userId: step.userId, data });
    if (proved) {
      await tx.update(authChallenges).set({ usedAt: new Date() }).where(eq(authChallenges.id, step.id));
      return { kind: "proved" as const, userId: step.userId, userAgent: String(data.userAgent ?? "") };
    }
    const attempts = sql`${authChallenges.attempts} + 1`;
    await tx
      .update(authChallenges)
      .set({
        attempts,
        usedAt: sql`case when ${attempts} >= ${PENDING_LOGIN_MAX_ATTEMPTS} then now() else null end`,
      })
      .where(eq(authChallenges.id, step.id));
    return { kind: "wrong" as const };
  });
  if (outcome.kind === "gone") throw new NotSignedIn(PENDING_LOGIN_GONE, { secondFactorGone: true });
  if (outcome.kind === "wrong") throw new NotSignedIn(WRONG_SECOND_FACTOR);
  return startSession(db, config, outcome.userId, { userAgent: outcome.userAgent, secondFactor: true });
}

/** The open step's user, without using it (e.g. to build a passkey challenge for its credentials). */
export async function pendingLoginUser(db: Db, token: string): Promise<number | undefined> {
  const [step] = await db
    .select({ userId: authChallenges.userId })
    .from(authChallenges)
    .where(openStep(token));
  return step?.userId ?? undefined;
}

/** Merges data into the open step (e.g. the WebAuthn challenge issued for it); false when the step is gone. */
export async function setPendingLoginData(
  db: Db,
  token: string,
  data: Record<string, unknown>,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [step] = await tx
      .select({ id: authChallenges.id, challenge: authChallenges.challenge })
      .from(authChallenges)
      .where(openStep(token))
      .for("update");
    if (!step) return false;
    const merged = { ...parseData(step.challenge), ...data };
    await tx
      .update(authChallenges)
      .set({ challenge: JSON.stringify(merged) })
      .where(eq(authChallenges.id, step.id));
    return true;
  });
}

function openStep(token: string) {
  return and(
    eq(authChallenges.tokenHash, hashToken(token)),
    eq(authChallenges.purpose, PENDING_LOGIN_PURPOSE),
    isNull(authChallenges.usedAt),
    gt(authChallenges.expiresAt, new Date()),
    lt(authChallenges.attempts, PENDING_LOGIN_MAX_ATTEMPTS),
  );
}

function parseData(challenge: string | null): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(challenge ?? "{}");
    return parsed && typeof parsed === "object" ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
