import { z } from "zod";

/**
 * Two-step sign-in: the authenticator app (TOTP), its recovery codes, and the login's second step that
 * passkeys share.
 */

export const SECOND_FACTOR_METHODS = ["totp", "recovery", "passkey"] as const;
export type SecondFactorMethod = (typeof SECOND_FACTOR_METHODS)[number];

/** How many single-use recovery codes a set has. */
export const RECOVERY_CODES_PER_SET = 10;

/**
 * A code from the authenticator app (6 digits) or a recovery code (10 letters and digits, dashes and
 * spaces ignored). Either is accepted wherever a code is asked.
 */
export const secondFactorCodeSchema = z
  .string()
  .trim()
  .min(1, "can't be empty")
  .max(40, "must be a 6-digit code or a recovery code");

/** The login's second-step token, as the login reply gave it (43 base64url characters). */
export const pendingLoginTokenSchema = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[A-Za-z0-9_-]+$/, "must be the token the login gave");

/** POST /user/login/second-factor. */
export const secondFactorLoginSchema = z.object({
  token: pendingLoginTokenSchema,
  code: secondFactorCodeSchema,
});
export type SecondFactorLoginInput = z.infer<typeof secondFactorLoginSchema>;

/** The login's reply when the password was right and a second factor is needed: no tokens yet. */
export const secondFactorRequiredReplySchema = z.object({
  msg: z.literal("Second factor required"),
  secondFactor: z.object({
    token: z.string(),
    methods: z.array(z.enum(SECOND_FACTOR_METHODS)),
  }),
});
export type SecondFactorRequiredReply = z.infer<typeof secondFactorRequiredReplySchema>;

/** A code proving the caller holds the factor (turning it off, a new set of recovery codes, confirming). */
export const secondFactorCodeBodySchema = z.object({ code: secondFactorCodeSchema });

/** POST /user/second-factor/totp: the secret to put in the app, as a link, a QR code and a key to type. */
export const totpEnrolmentReplySchema = z.object({
  otpauthUrl: z.string(),
  /** An SVG data URL of the QR code of `otpauthUrl`. */
  qrCode: z.string(),
  /** The secret in base32, for typing into the app by hand. */
  secret: z.string(),
});
export type TotpEnrolmentReply = z.infer<typeof totpEnrolmentReplySchema>;

/** A new set of recovery codes, shown this once. */
export const recoveryCodesReplySchema = z.object({ recoveryCodes: z.array(z.string()) });
export type RecoveryCodesReply = z.infer<typeof recoveryCodesReplySchema>;

/** GET /user/second-factor. */
export const secondFactorStatusSchema = z.object({
  totpEnabled: z.boolean(),
  recoveryCodesLeft: z.number().int(),
  passkeys: z.number().int(),
  /** This account must sign in with a second factor (an admin while the store requires it). */
  required: z.boolean(),
  /** This session was signed in with a second factor. */
  sessionVerified: z.boolean(),
});
export type SecondFactorStatus = z.infer<typeof secondFactorStatusSchema>;

/** The marker on an admin route's 403 when the admin's session has no second factor. */
export const SECOND_FACTOR_REQUIRED = "second-factor-required";
