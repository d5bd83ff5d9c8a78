import { SignJWT, jwtVerify, errors } from "jose";
import type { FastifyRequest } from "fastify";
import { eq, and, gt, isNull } from "drizzle-orm";
import { idSchema } from "@voltio/domain/http";
import type { Db } from "../../db/client";
import { refreshTokens, users } from "../../db/schema";
import { AccessTokenExpired, NotSignedIn } from "../../errors";
import type { Caller } from "../identity/caller";

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
const ISSUER = "voltio";

/**
 * Set on the replies to a caller whose role changed since their access token was issued,
 * with the new role: the client refreshes its token and its user, and tells the user, instead of the login
 * ending without a word. Gone once the client holds a token of the new role.
 */
export const ROLE_CHANGED_HEADER = "voltio-role-changed";

const key = (secret: string) => new TextEncoder().encode(secret);

/** `rol` is the role when the token is issued: a later change is noticed by comparing, never trusted. */
export function signAccessToken(
  userId: number,
  secret: string,
  ttlSeconds = ACCESS_TOKEN_TTL_SECONDS,
  sessionId?: string,
  rol?: Caller["rol"],
): Promise<string> {
  return new SignJWT({ ...(sessionId ? { sid: sessionId } : {}), ...(rol ? { rol } : {}) })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(String(userId))
    .setIssuer(ISSUER)
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
    .sign(key(secret));
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The caller behind the bearer token, or null for a guest. The role and the session are read from the
 * database in one query, not trusted from the token, so a demotion takes the admin's powers at once and a
 * deletion or ended session (logout, password change or reset, idle or maximum age) stops the token at once,
 * on every process. A role change keeps the session: the token's own `rol` only tells that it happened. An
 * expired token answers the SPEC's 403.
 */
export async function readCaller(request: FastifyRequest, db: Db, secret: string): Promise<Caller | null> {
  const header = request.headers.authorization;
  if (!header?.startsWith("Bearer ")) return null;
  const token = header.slice("Bearer ".length).trim();
  if (!token || token === "null" || token === "undefined") return null;
  let subject: string | undefined;
  let sessionId: string | undefined;
  let issuedAs: unknown;
  try {
    const { payload } = await jwtVerify(token, key(secret), { issuer: ISSUER, algorithms: ["HS256"] });
    subject = payload.sub;
    if (typeof payload.sid === "string") sessionId = payload.sid;
    issuedAs = payload.rol;
  } catch (error) {
    if (error instanceof errors.JWTExpired) throw new AccessTokenExpired();
    throw new NotSignedIn("Invalid token");
  }
  // Checked before the query: a subject no account can have (past the integer column) or a malformed
  // session id would otherwise fail in the database as a server error.
  const parsed = idSchema.safeParse(subject);
  if (!parsed.success || !sessionId || !UUID.test(sessionId)) throw new NotSignedIn("Invalid token");
  const id = parsed.data;
  const [row] = await db
    .select({ id: users.id, rol: users.rol, secondFactorAt: refreshTokens.secondFactorAt })
    .from(users)
    .innerJoin(
      refreshTokens,
      and(
        eq(refreshTokens.userId, users.id),
        eq(refreshTokens.familyId, sessionId),
        isNull(refreshTokens.revokedAt),
        gt(refreshTokens.expiresAt, new Date()),
      ),
    )
    .where(and(eq(users.id, id), isNull(users.deletedAt)))
    .limit(1);
  if (!row) throw new NotSignedIn("Invalid token");
  const user = { id: row.id, rol: row.rol, secondFactor: row.secondFactorAt !== null };
  // Tokens issued before roles were in them carry none: nothing to compare, nothing to tell.
  const roleChanged = (issuedAs === "user" || issuedAs === "admin") && issuedAs !== user.rol;
  return roleChanged ? { ...user, sessionId, roleChanged } : { ...user, sessionId };
}
