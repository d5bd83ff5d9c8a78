import { z } from "zod";

/**
 * Passkeys (WebAuthn): the API's schemas for adding, listing, renaming and removing them, and for signing in
 * with one. The browser's replies are checked for shape here; what they prove is checked by the server.
 */

export const PASSKEY_NAME_MAX_LENGTH = 60;
/** More than anyone carries, few enough that the sign-in options stay small. */
export const PASSKEYS_PER_USER_MAX = 20;

const base64url = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .regex(/^[A-Za-z0-9_-]+$/, "must be base64url");

export const passkeyNameSchema = z
  .string()
  .trim()
  .min(1, "can't be empty")
  .max(PASSKEY_NAME_MAX_LENGTH, `must be at most ${PASSKEY_NAME_MAX_LENGTH} characters`)
  .regex(/^[^\p{Cc}]*$/u, "can't have control characters");

/** The transports a browser may report; unknown ones are dropped, not refused. */
const transportsSchema = z.array(z.string().max(32)).max(10);
const extensionsSchema = z.record(z.string().max(64), z.unknown());
const attachmentSchema = z.enum(["platform", "cross-platform"]);

/** What `navigator.credentials.create()` answered, as @simplewebauthn/browser encodes it. */
export const registrationResponseSchema = z.object({
  id: base64url(1400),
  rawId: base64url(1400),
  type: z.literal("public-key"),
  response: z.object({
    clientDataJSON: base64url(4096),
    attestationObject: base64url(16_384),
    authenticatorData: base64url(8192).optional(),
    transports: transportsSchema.optional(),
    publicKeyAlgorithm: z.number().int().optional(),
    publicKey: base64url(4096).optional(),
  }),
  authenticatorAttachment: attachmentSchema.optional(),
  clientExtensionResults: extensionsSchema,
});
export type RegistrationResponse = z.infer<typeof registrationResponseSchema>;

/** What `navigator.credentials.get()` answered. */
export const authenticationResponseSchema = z.object({
  id: base64url(1400),
  rawId: base64url(1400),
  type: z.literal("public-key"),
  response: z.object({
    clientDataJSON: base64url(4096),
    authenticatorData: base64url(8192),
    signature: base64url(2048),
    userHandle: base64url(256).optional(),
  }),
  authenticatorAttachment: attachmentSchema.optional(),
  clientExtensionResults: extensionsSchema,
});
export type AuthenticationResponse = z.infer<typeof authenticationResponseSchema>;

/**
 * The options for `navigator.credentials.create()`/`get()` as @simplewebauthn/server makes them: passed
 * to the browser as they are.
 */
export const webauthnOptionsSchema = z.looseObject({ challenge: z.string() });
export type WebauthnOptions = z.infer<typeof webauthnOptionsSchema>;

/** How recently a Google account (no password to type) must have signed in to add a passkey. */
export const PASSKEY_RECENT_SIGN_IN_MINUTES = 10;

/**
 * POST /user/passkeys/options: the owner's proof, since a passkey signs in alone — an access token alone
 * must not be enough to plant one. The password of an account that has one.
 */
export const passkeyOptionsSchema = z.object({
  currentPassword: z.string().max(128, "must be at most 128 characters").optional(),
});
export type PasskeyOptionsInput = z.infer<typeof passkeyOptionsSchema>;

/** POST /user/passkeys: the new passkey, and the name it is shown by (the browser and system by default). */
export const passkeyAddSchema = z.object({
  response: registrationResponseSchema,
  name: passkeyNameSchema.optional(),
});
export type PasskeyAddInput = z.infer<typeof passkeyAddSchema>;

/** PATCH /user/passkeys/:id. */
export const passkeyRenameSchema = z.object({ name: passkeyNameSchema });

export const passkeySchema = z.object({
  id: z.number(),
  name: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type Passkey = z.infer<typeof passkeySchema>;
export const passkeyListSchema = z.array(passkeySchema);

/** The options of a passkey sign-in and the step's token, sent back with the browser's answer. */
export const passkeyLoginOptionsReplySchema = z.object({ token: z.string(), options: webauthnOptionsSchema });
export type PasskeyLoginOptionsReply = z.infer<typeof passkeyLoginOptionsReplySchema>;

/** POST /user/login/second-factor/passkey/options: the pending login's token. */
export const passkeyStepTokenSchema = z.object({ token: z.string().min(1).max(200) });

/** POST /user/login/passkey and /user/login/second-factor/passkey. */
export const passkeyLoginSchema = z.object({
  token: z.string().min(1).max(200),
  response: authenticationResponseSchema,
});
export type PasskeyLoginInput = z.infer<typeof passkeyLoginSchema>;
