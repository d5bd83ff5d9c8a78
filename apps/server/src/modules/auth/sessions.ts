import { createHash, randomBytes, randomUUID } from "node:crypto";
import type { FastifyBaseLogger } from "fastify";
import { and, eq, isNull, min, ne } from "drizzle-orm";
import type { Config } from "../../config";
import type { Db } from "../../db/client";
import { refreshTokens, users } from "../../db/schema";
import { NotSignedIn } from "../../errors";
import { signAccessToken } from "./access-token";

/**
 * Logins (DESIGN.md §4). A login is a family of refresh tokens: each token is random, stored only as its
 * SHA-256, and used once — every refresh replaces it with a new one. Presenting a token that was already
 * replaced means it was copied, so the whole family is revoked. A login ends after an idle period without a
 * refresh and after a maximum age, whichever comes first.
 */

export interface SessionTokens {
  accessToken: string;
  refreshToken: string;
}

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");
const newToken = () => randomBytes(32).toString("base64url");

const invalid = () => new NotSignedIn("Invalid refresh token");

export async function startSession(db: Db, config: Config, userId: number): Promise<SessionTokens> {
  const familyId = randomUUID();
  const refreshToken = newToken();
  const now = Date.now();
  await db.insert(refreshTokens).values({
    userId,
    tokenHash: hashToken(refreshToken),
    familyId,
    expiresAt: new Date(now + Math.min(config.sessionIdleSeconds, config.sessionMaxSeconds) * 1000),
  });
  const accessToken = await signAccessToken(userId, config.jwtSecret, config.accessTokenTtlSeconds, familyId);
  return { accessToken, refreshToken };
}

/** POST /user/token: a new access token and the refresh token that replaces the one presented. */
export async function rotateSession(
  db: Db,
  config: Config,
  presented: string,
  log?: FastifyBaseLogger,
): Promise<{ token: string; refreshToken: string }> {
  const [row] = await db
    .select({
      id: refreshTokens.id,
      userId: refreshTokens.userId,
      familyId: refreshTokens.familyId,
      expiresAt: refreshTokens.expiresAt,
      revokedAt: refreshTokens.revokedAt,
      deletedAt: users.deletedAt,
    })
    .from(refreshTokens)
    .innerJoin(users, eq(users.id, refreshTokens.userId))
    .where(eq(refreshTokens.tokenHash, hashToken(presented)));
  if (!row) throw invalid();
  if (row.revokedAt) {
    // A replaced token came back: someone holds a copy. The security log says so (ASVS 7.2.2).
    log?.warn({ event: "refresh.reuse", userId: row.userId, familyId: row.familyId }, "refresh token reused");
    await revokeFamily(db, row.familyId);
    throw invalid();
  }
  if (row.expiresAt.getTime() <= Date.now() || row.deletedAt) throw invalid();

  const [family] = await db
    .select({ startedAt: min(refreshTokens.createdAt) })
    .from(refreshTokens)
    .where(eq(refreshTokens.familyId, row.familyId));
  const endsAt = (family?.startedAt ?? new Date()).getTime() + config.sessionMaxSeconds * 1000;
  const expiresAt = Math.min(Date.now() + config.sessionIdleSeconds * 1000, endsAt);
  if (expiresAt <= Date.now()) throw invalid();

  const refreshToken = newToken();
  const rotated = await db.transaction(async (tx) => {
    // Conditional: of two requests presenting the same token, only one can replace it.
    const used = await tx
      .update(refreshTokens)
      .set({ revokedAt: new Date() })
      .where(and(eq(refreshTokens.id, row.id), isNull(refreshTokens.revokedAt)))
      .returning({ id: refreshTokens.id });
    if (used.length === 0) return false;
    await tx.insert(refreshTokens).values({
      userId: row.userId,
      tokenHash: hashToken(refreshToken),
      familyId: row.familyId,
      expiresAt: new Date(expiresAt),
    });
    return true;
  });
  if (!rotated) {
    log?.warn({ event: "refresh.reuse", userId: row.userId, familyId: row.familyId }, "refresh token reused");
    await revokeFamily(db, row.familyId);
    throw invalid();
  }
  const token = await signAccessToken(
    row.userId,
    config.jwtSecret,
    config.accessTokenTtlSeconds,
    row.familyId,
  );
  return { token, refreshToken };
}

/** DELETE /user/token: the login the token belongs to ends. Unknown tokens change nothing. */
export async function endSession(db: Db, presented: string): Promise<void> {
  const [row] = await db
    .select({ familyId: refreshTokens.familyId })
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, hashToken(presented)));
  if (row) await revokeFamily(db, row.familyId);
}

async function revokeFamily(db: Db, familyId: string) {
  await db
    .update(refreshTokens)
    .set({ revokedAt: new Date() })
    .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));
}

/** Ends every login of a user, but the one given (a password change keeps the session that made it). */
export async function revokeUserSessions(db: Db, userId: number, keepFamilyId?: string): Promise<void> {
  await db
    .update(refreshTokens)
    .set({ revokedAt: new Date() })
    .where(
      and(
        eq(refreshTokens.userId, userId),
        isNull(refreshTokens.revokedAt),
        keepFamilyId ? ne(refreshTokens.familyId, keepFamilyId) : undefined,
      ),
    );
}
