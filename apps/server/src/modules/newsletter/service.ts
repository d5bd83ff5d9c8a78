import { createHash } from "node:crypto";
import { SignJWT, jwtVerify } from "jose";
import { and, isNull, sql } from "drizzle-orm";
import type { Config } from "../../config";
import type { Db } from "../../db/client";
import { newsletterUnsubscribes, users } from "../../db/schema";

const AUDIENCE = "newsletter-unsubscribe";
const ISSUER = "voltio";
/** Links in old newsletters keep working for a year. */
const LINK_LIFETIME = "365d";

/** A key of its own, derived from the store's secret: an unsubscribe token can never pass as an access token. */
const key = (secret: string) => createHash("sha256").update(`${AUDIENCE}:${secret}`).digest();

/** The signed token of an unsubscribe link for this address. */
export function signUnsubscribeToken(secret: string, email: string): Promise<string> {
  return new SignJWT({})
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(email.trim().toLowerCase())
    .setAudience(AUDIENCE)
    .setIssuer(ISSUER)
    .setIssuedAt()
    .setExpirationTime(LINK_LIFETIME)
    .sign(key(secret));
}

/** The link each newsletter e-mail carries (docs/product-rules.md §10, POST /emails). */
export async function unsubscribeUrl(
  config: Pick<Config, "jwtSecret" | "publicUrl">,
  email: string,
): Promise<string> {
  const token = await signUnsubscribeToken(config.jwtSecret, email);
  return `${config.publicUrl}/api/newsletter/unsubscribe?token=${encodeURIComponent(token)}`;
}

/** The address a token was signed for, or null when it is forged, altered, expired or of another kind. */
export async function readUnsubscribeToken(secret: string, token: string): Promise<string | null> {
  try {
    const { payload } = await jwtVerify(token, key(secret), {
      audience: AUDIENCE,
      issuer: ISSUER,
      algorithms: ["HS256"],
      requiredClaims: ["sub", "exp"],
    });
    return payload.sub ?? null;
  } catch {
    return null;
  }
}

/**
 * Turns the newsletter off for the account with this address; an address without an account (a receiver
 * the admin typed) is remembered instead, so no later newsletter reaches it.
 */
export async function unsubscribe(db: Db, email: string): Promise<void> {
  const address = email.trim().toLowerCase();
  const accounts = await db
    .update(users)
    .set({ newsletterSubscription: false })
    .where(and(sql`lower(${users.email}) = ${address}`, isNull(users.deletedAt)))
    .returning({ id: users.id });
  if (accounts.length === 0) {
    await db.insert(newsletterUnsubscribes).values({ email: address }).onConflictDoNothing();
  }
}
