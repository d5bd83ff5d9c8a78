import { createHash, randomBytes, randomInt, timingSafeEqual } from "node:crypto";
import { Secret, TOTP } from "otpauth";
import { RECOVERY_CODES_PER_SET } from "@voltio/domain/second-factor";

/**
 * The codes themselves: the authenticator app's (RFC 6238: SHA-1, 6 digits, 30 seconds, the apps' common
 * setting) and the recovery codes printed for when the phone is lost.
 */

export const TOTP_PERIOD_SECONDS = 30;
const ISSUER = "Voltio";

export const newTotpSecret = () => new Secret({ size: 20 }).base32;

export function totpOf(secret: string, account: string): TOTP {
  return new TOTP({
    issuer: ISSUER,
    label: account,
    algorithm: "SHA1",
    digits: 6,
    period: TOTP_PERIOD_SECONDS,
    secret: Secret.fromBase32(secret),
  });
}

export const isTotpCode = (code: string) => /^\d{6}$/.test(code.replace(/\s/g, ""));

/**
 * The 30-second step a code belongs to, if it is right now or one step either side (phones' clocks drift
 * and people type slowly); undefined when it isn't.
 */
export function totpStep(secret: string, code: string, now = Date.now()): number | undefined {
  const token = code.replace(/\s/g, "");
  const delta = totpOf(secret, "").validate({ token, timestamp: now, window: 1 });
  if (delta === null) return undefined;
  return Math.floor(now / 1000 / TOTP_PERIOD_SECONDS) + delta;
}

// No 0/O, 1/I/L: the codes are read off paper.
const ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";

/** Ten codes of ten characters (about 49 bits each), shown as `xxxxx-xxxxx`. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODES_PER_SET }, () => {
    const chars = Array.from({ length: 10 }, () => ALPHABET[randomInt(ALPHABET.length)]).join("");
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

/** As typed: case, spaces and dashes don't matter. */
const normalize = (code: string) => code.toLowerCase().replace(/[\s-]/g, "");

/**
 * Recovery codes have less than 112 bits, so each is stored salted (a random 32-bit salt) and hashed
 * (ASVS 2.6.2): `<salt>:<sha256(salt + code)>`.
 */
export function hashRecoveryCode(code: string, salt = randomBytes(4).toString("hex")): string {
  return `${salt}:${createHash("sha256").update(salt).update(normalize(code)).digest("hex")}`;
}

export function recoveryCodeMatches(code: string, stored: string): boolean {
  const [salt] = stored.split(":");
  if (!salt) return false;
  const candidate = Buffer.from(hashRecoveryCode(code, salt));
  const expected = Buffer.from(stored);
  return candidate.length === expected.length && timingSafeEqual(candidate, expected);
}
