import { createRemoteJWKSet, jwtVerify } from "jose";
import type { Config } from "../../config";
import { NotSignedIn } from "../../errors";

export interface GoogleIdentity {
  /** Google's id of the account (`sub`): what finds the store's account; an e-mail can change hands. */
  subject: string;
  email: string;
  /** Google vouches that the account owns the e-mail: needed to create or link an account by it. */
  emailVerified: boolean;
  givenName: string;
  familyName: string;
  picture: string;
}

export type GoogleVerifier = (idToken: string) => Promise<GoogleIdentity>;

/**
 * Checks a Google ID token the way Google documents it: an RS256 signature by one of the keys Google publishes
 * (GOOGLE_JWKS_URL, fetched and cached), an issuer of GOOGLE_ISSUERS, our client id as audience, not expired,
 * with a subject and an e-mail. Null when GOOGLE_CLIENT_ID isn't set: Google sign-in is then off.
 */
export function googleVerifier(config: Config): GoogleVerifier | null {
  const { clientId, jwksUrl, issuers } = config.google;
  if (!clientId) return null;
  const keys = createRemoteJWKSet(new URL(jwksUrl), {
    timeoutDuration: 5000,
    cooldownDuration: 30_000,
    cacheMaxAge: 10 * 60_000,
  });
  return async (idToken) => {
    let payload;
    try {
      ({ payload } = await jwtVerify(idToken, keys, {
        issuer: issuers,
        audience: clientId,
        algorithms: ["RS256"],
        requiredClaims: ["exp", "iat", "sub"],
      }));
    } catch {
      throw new NotSignedIn("Invalid Google token");
    }
    const email = typeof payload.email === "string" ? payload.email.trim() : "";
    const subject = payload.sub ?? "";
    if (!email || !subject || subject.length > 255) throw new NotSignedIn("Invalid Google token");
    const text = (value: unknown) => (typeof value === "string" ? value.trim().slice(0, 50) : "");
    const picture =
      typeof payload.picture === "string" && payload.picture.startsWith("https://") ? payload.picture : "";
    return {
      subject,
      email,
      emailVerified: payload.email_verified === true,
      givenName: text(payload.given_name) || email.split("@")[0]!.slice(0, 50),
      familyName: text(payload.family_name),
      picture: picture.length <= 2048 ? picture : "",
    };
  };
}
