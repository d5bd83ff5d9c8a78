import { createHash, randomBytes, randomUUID } from "node:crypto";
import { and, eq, gt, inArray, isNull, ne, sql } from "drizzle-orm";
import type { Config } from "../../config";
import type { Db } from "../../db/client";
import { refreshTokens, users } from "../../db/schema";
import { NotSignedIn } from "../../errors";
import { signAccessToken } from "./access-token";
import { queueSecurityNotice } from "./notices";
import { userAgentLabel } from "./user-agent";

/**
 * Logins (docs/product-rules.md §11, ADR 0007). A login is one session: one random refresh token, stored only as its
 * SHA-256, that works for the whole session because the original specification's client keeps the token it got at login. The
 * session id (`familyId`, `sid` in access tokens) ties its access tokens to it, so ending the session stops
 * them too. It ends on logout, password change or reset, deletion, after an idle period without a refresh
 * and after a maximum age, whichever comes first. A role change keeps it: the role is
 * read from the database on every request, and the next reply tells the user (access-token.ts).
 */

export interface SessionTokens {
  accessToken: string;
  refreshToken: string;
}

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");
const newToken = () => randomBytes(32).toString("base64url");

const invalid = () => new NotSignedIn("Invalid refresh token");

/** What the sign-in knows of itself: the browser, and whether a second factor was proved. */
export interface SessionContext {
  userAgent?: string;
  secondFactor?: boolean;
}

export async function startSession(
  db: Db,
  config: Config,
  userId: number,
  context: SessionContext = {},
): Promise<SessionTokens> {
  const sessionId = randomUUID();
  const refreshToken = newToken();
  const userAgent = (context.userAgent ?? "").slice(0, 512);
  const user = await db.transaction(async (tx) => {
    const [account] = await tx
      .select({ rol: users.rol, email: users.email })
      .from(users)
      .where(eq(users.id, userId));
    // A browser the account never signed in from is told to its owner; an account's first sign-in isn't,
    // nor its first since browsers were recorded (sessions from before have none): everyone would be told.
    if (account && userAgent.trim()) {
      const label = userAgentLabel(userAgent);
      const earlier = await tx
        .selectDistinct({ userAgent: refreshTokens.userAgent })
        .from(refreshTokens)
        .where(and(eq(refreshTokens.userId, userId), ne(refreshTokens.userAgent, "")));
      if (earlier.length > 0 && !earlier.some((row) => userAgentLabel(row.userAgent) === label))
        await queueSecurityNotice(tx, account.email, { kind: "new-browser", browser: label });
    }
    await tx.insert(refreshTokens).values({
      userId,
      tokenHash: hashToken(refreshToken),
      familyId: sessionId,
      userAgent,
      lastUsedAt: new Date(),
      secondFactorAt: context.secondFactor ? new Date() : null,
      expiresAt: new Date(Date.now() + Math.min(config.sessionIdleSeconds, config.sessionMaxSeconds) * 1000),
    });
    return account;
  });
  const accessToken = await signAccessToken(
    userId,
    config.jwtSecret,
    config.accessTokenTtlSeconds,
    sessionId,
    user?.rol,
  );
  return { accessToken, refreshToken };
}

/**
 * POST /user/token: a new access token for the session, whose idle deadline slides (never past its maximum
 * age). One conditional statement, so any number of refreshes with the same token at once all succeed.
 */
export async function refreshSession(db: Db, config: Config, presented: string): Promise<{ token: string }> {
  const now = new Date();
  const idleUntil = new Date(now.getTime() + config.sessionIdleSeconds * 1000);
  const maxAge = sql`${refreshTokens.createdAt} + make_interval(secs => ${config.sessionMaxSeconds})`;
  const [session] = await db
    .update(refreshTokens)
    .set({ expiresAt: sql`least(${idleUntil.toISOString()}::timestamptz, ${maxAge})`, lastUsedAt: now })
    .from(users)
    .where(
      and(
        eq(refreshTokens.tokenHash, hashToken(presented)),
        isNull(refreshTokens.revokedAt),
        gt(refreshTokens.expiresAt, now),
        gt(refreshTokens.createdAt, new Date(now.getTime() - config.sessionMaxSeconds * 1000)),
        eq(users.id, refreshTokens.userId),
        isNull(users.deletedAt),
      ),
    )
    .returning({ userId: refreshTokens.userId, sessionId: refreshTokens.familyId, rol: users.rol });
  if (!session) throw invalid();
  const token = await signAccessToken(
    session.userId,
    config.jwtSecret,
    config.accessTokenTtlSeconds,
    session.sessionId,
    // A token of the role now: the client asks for one when told the role changed.
    session.rol,
  );
  return { token };
}

/** DELETE /user/token: the session the token belongs to ends. Unknown tokens change nothing. */
export async function endSession(db: Db, presented: string): Promise<void> {
  const ofToken = db
    .select({ familyId: refreshTokens.familyId })
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, hashToken(presented)));
  await db
    .update(refreshTokens)
    .set({ revokedAt: new Date() })
    .where(and(inArray(refreshTokens.familyId, ofToken), isNull(refreshTokens.revokedAt)));
}

/**
 * Ends every session of a user, but the one given (a password change keeps the session that made it).
 * Takes a transaction too, so a password reset or a deletion and the revocation commit together.
 */
export async function revokeUserSessions(
  db: Pick<Db, "update">,
  userId: number,
  keepSessionId?: string,
): Promise<void> {
  await db
    .update(refreshTokens)
    .set({ revokedAt: new Date() })
    .where(
      and(
        eq(refreshTokens.userId, userId),
        isNull(refreshTokens.revokedAt),
        keepSessionId ? ne(refreshTokens.familyId, keepSessionId) : undefined,
      ),
    );
}
