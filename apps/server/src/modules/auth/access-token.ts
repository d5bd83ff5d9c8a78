import { SignJWT, jwtVerify, errors } from "jose";
import type { FastifyRequest } from "fastify";
import { eq, and, isNull } from "drizzle-orm";
import { idSchema } from "@voltio/domain/http";
import type { Db } from "../../db/client";
import { users } from "../../db/schema";
import { AccessTokenExpired, NotSignedIn } from "../../errors";

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
const ISSUER = "voltio";

export interface Caller {
  id: number;
  rol: "user" | "admin";
  /** The login (refresh-token family) the access token was issued for, when it came from one. */
  sessionId?: string;
}

const key = (secret: string) => new TextEncoder().encode(secret);

export function signAccessToken(
  userId: number,
  secret: string,
  ttlSeconds = ACCESS_TOKEN_TTL_SECONDS,
  sessionId?: string,
): Promise<string> {
  return new SignJWT(sessionId ? { sid: sessionId } : {})
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(String(userId))
    .setIssuer(ISSUER)
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
    .sign(key(secret));
}

/**
 * The caller behind the bearer token, or null for a guest. The role is read from the database, not the
 * token, so a demotion or deletion takes effect at once. An expired token answers the SPEC's 403.
 */
export async function readCaller(request: FastifyRequest, db: Db, secret: string): Promise<Caller | null> {
  const header = request.headers.authorization;
  if (!header?.startsWith("Bearer ")) return null;
  const token = header.slice("Bearer ".length).trim();
  if (!token || token === "null" || token === "undefined") return null;
  let subject: string | undefined;
  let sessionId: string | undefined;
  try {
    const { payload } = await jwtVerify(token, key(secret), { issuer: ISSUER, algorithms: ["HS256"] });
    subject = payload.sub;
    if (typeof payload.sid === "string") sessionId = payload.sid;
  } catch (error) {
    if (error instanceof errors.JWTExpired) throw new AccessTokenExpired();
    throw new NotSignedIn("Invalid token");
  }
  // A signed token can still carry a subject no account can have (our secret signed it, but it is old or
  // hand-made): it is an invalid token, not a database error.
  const parsed = idSchema.safeParse(subject);
  if (!parsed.success) throw new NotSignedIn("Invalid token");
  const id = parsed.data;
  const [user] = await db
    .select({ id: users.id, rol: users.rol })
    .from(users)
    .where(and(eq(users.id, id), isNull(users.deletedAt)));
  if (!user) throw new NotSignedIn("Invalid token");
  return sessionId ? { ...user, sessionId } : user;
}
