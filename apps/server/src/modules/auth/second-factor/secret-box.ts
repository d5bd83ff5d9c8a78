import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

/**
 * Authenticator secrets sealed at rest (ASVS 2.8.x, 6.2.x): AES-256-GCM with a key derived from JWT_SECRET by
 * HKDF, so a copy of the database alone can't generate anyone's codes. The sealed form is
 * `v1.<iv>.<ciphertext>.<tag>` in base64url; the user's id is bound in as associated data, so a sealed
 * secret copied to another account doesn't open.
 */

const VERSION = "v1";

function keyOf(jwtSecret: string): Buffer {
  return Buffer.from(hkdfSync("sha256", jwtSecret, "voltio", "voltio totp secret v1", 32));
}

export function sealSecret(jwtSecret: string, userId: number, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", keyOf(jwtSecret), iv);
  cipher.setAAD(Buffer.from(`user:${userId}`));
  const sealed = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()]);
  return [VERSION, iv, sealed, cipher.getAuthTag()]
    .map((part) => (typeof part === "string" ? part : part.toString("base64url")))
    .join(".");
}

/** The secret, or undefined when it was sealed with another key or for another user, or altered. */
export function openSecret(jwtSecret: string, userId: number, sealed: string): string | undefined {
  const [version, iv, data, tag] = sealed.split(".");
  if (version !== VERSION || !iv || !data || !tag) return undefined;
  try {
    const decipher = createDecipheriv("aes-256-gcm", keyOf(jwtSecret), Buffer.from(iv, "base64url"));
    decipher.setAAD(Buffer.from(`user:${userId}`));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(data, "base64url")), decipher.final()]).toString(
      "utf8",
    );
  } catch {
    return undefined;
  }
}
