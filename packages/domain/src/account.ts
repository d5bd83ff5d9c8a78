import { z } from "zod";
import { ACCOUNT_MESSAGES } from "./account-messages";
import { idSchema, PRINTABLE, pageInfoSchema, pageQuery } from "./http";
import { secondFactorRequiredReplySchema } from "./second-factor";

/**
 * Accounts (docs/product-rules.md §9, docs/product-rules.md §10): the rules of the register, address and password forms with the texts
 * the shopper sees, and the users API's schemas. The server validates with them and the web forms use them
 * through the zod resolver, so a rule can't differ between the two sides.
 */

const m = ACCOUNT_MESSAGES;

export const PASSWORD_MIN_LENGTH = 8;
/** Long enough for passphrases and password managers (ASVS 2.1.2), short enough to keep scrypt cheap to refuse. */
export const PASSWORD_MAX_LENGTH = 128;
export const NAME_MAX_LENGTH = 50;
export const EMAIL_MAX_LENGTH = 254;
export const ADDRESSES_PER_USER_MAX = 20;

/**
 * A real name (ADR 0016): words of letters of any language — each letter may carry
 * combining accents — joined by single spaces, hyphens or apostrophes ("María José", "Núñez O'Brien",
 * "Jean-Luc"). Digits, symbols and a separator at either end or twice in a row are refused with the specification's
 * rule text. docs/product-rules.md §9 allowed a–z only; a store with a Spanish interface can't refuse "Lucía".
 */
export const NAME_PATTERN = /^(?:\p{L}\p{M}*)+(?:[ '\u2019-](?:\p{L}\p{M}*)+)*$/u;

const nameSchema = (required: string) =>
  z
    .string(required)
    .trim()
    .min(1, required)
    .max(NAME_MAX_LENGTH, m.tooLong)
    // One spelling per name: "Lucía" typed with a combining accent is stored as the composed "Lucía".
    .normalize("NFC")
    .regex(NAME_PATTERN, m.firstNameLetters);

export const firstNameSchema = nameSchema(m.firstNameRequired);
export const lastNameSchema = nameSchema(m.lastNameRequired);

export const emailSchema = z
  .string(m.emailRequired)
  .trim()
  .min(1, m.emailRequired)
  .max(EMAIL_MAX_LENGTH, m.tooLong)
  .pipe(z.email(m.emailInvalid));

/** A new password (register, change). Login accepts any non-empty one: the rule may have been different once. */
export const newPasswordSchema = z
  .string(m.passwordRequired)
  .min(1, m.passwordRequired)
  .min(PASSWORD_MIN_LENGTH, m.passwordTooShort)
  .max(PASSWORD_MAX_LENGTH, m.tooLong);

const loginPasswordSchema = z
  .string(m.passwordRequired)
  .min(1, m.passwordRequired)
  .max(PASSWORD_MAX_LENGTH, m.tooLong);

/** POST /user/password/forgot: "Forgot password?". */
export const passwordForgotSchema = z.object({ email: emailSchema });
export type PasswordForgotInput = z.infer<typeof passwordForgotSchema>;

/** How long a password reset link works. */
export const PASSWORD_RESET_MINUTES = 30;

/** POST /user/password/reset: the link's token (32 random bytes, base64url) and the new password. */
export const passwordResetSchema = z.object({
  token: z
    .string(m.resetLinkInvalid)
    .trim()
    .regex(/^[A-Za-z0-9_-]{43}$/, m.resetLinkInvalid),
  password: newPasswordSchema,
});
export type PasswordResetInput = z.infer<typeof passwordResetSchema>;
/** The password was changed: the account's e-mail, for the login form. */
export const passwordResetReplySchema = z.object({ msg: z.string(), email: z.string() });
export type PasswordResetReply = z.infer<typeof passwordResetReplySchema>;

/** The reset page's boxes: the new password by the registration rule, typed twice. */
export const passwordResetFormSchema = z
  .object({ password: newPasswordSchema, confirm: z.string() })
  .refine((form) => form.password === form.confirm, { path: ["confirm"], message: m.passwordsDiffer });
export type PasswordResetForm = z.infer<typeof passwordResetFormSchema>;

/** How long the link sent to a new e-mail address works, and the old address's "this wasn't me" link. */
export const EMAIL_CHANGE_MINUTES = 30;
export const EMAIL_REVERT_DAYS = 7;
/** How recent a Google sign-in must be to change a Google account's e-mail. */
export const GOOGLE_REAUTH_MINUTES = 5;

/** POST /user/email/confirm and /user/email/revert: a link's token (32 random bytes, base64url). */
export const emailLinkSchema = z.object({
  token: z
    .string(m.emailLinkInvalid)
    .trim()
    .regex(/^[A-Za-z0-9_-]{43}$/, m.emailLinkInvalid),
});
export type EmailLinkInput = z.infer<typeof emailLinkSchema>;
/** The address the account signs in with after the link: the new one, or the old one put back. */
export const emailLinkReplySchema = z.object({ msg: z.string(), email: z.string() });
export type EmailLinkReply = z.infer<typeof emailLinkReplySchema>;

/** POST /user/email: the first step of the login screen. */
export const emailCheckSchema = z.object({ email: emailSchema });
export type EmailCheckInput = z.infer<typeof emailCheckSchema>;
export const emailCheckReplySchema = z.object({
  msg: z.enum(["email exists", "email doesn't exist"]),
  googleUser: z.boolean(),
});
export type EmailCheckReply = z.infer<typeof emailCheckReplySchema>;

/** POST /user: the Register form. */
export const registerSchema = z.object({
  firstName: firstNameSchema,
  lastName: lastNameSchema,
  email: emailSchema,
  password: newPasswordSchema,
});
export type RegisterInput = z.infer<typeof registerSchema>;

/** POST /user/login: the Login form. */
export const loginSchema = z.object({ email: emailSchema, password: loginPasswordSchema });
export type LoginInput = z.infer<typeof loginSchema>;
/** A session's tokens: the original specification's login reply. */
export const sessionReplySchema = z.object({
  msg: z.string(),
  accessToken: z.string(),
  refreshToken: z.string(),
});
export type SessionReply = z.infer<typeof sessionReplySchema>;
/** The tokens, or (an account with a second factor) the step that asks for it. */
export const loginReplySchema = z.union([sessionReplySchema, secondFactorRequiredReplySchema]);
export type LoginReply = z.infer<typeof loginReplySchema>;

export const googleLoginSchema = z.object({ tokenId: z.string().min(1).max(8192) });

/** POST and DELETE /user/token. Refresh tokens are 43 base64url characters; anything else can't be one. */
export const refreshTokenBodySchema = z.object({ token: z.string().min(1).max(200) });
/** A new access token; the refresh token stays the same for the whole session (docs/product-rules.md §10.6). */
export const refreshReplySchema = z.object({ token: z.string() });
export type RefreshReply = z.infer<typeof refreshReplySchema>;

/** What the login screen needs to know: whether 'Login with Google' is offered. */
export const authOptionsSchema = z.object({ googleClientId: z.string().nullable() });
export type AuthOptions = z.infer<typeof authOptionsSchema>;

const requiredText = (max: number) =>
  z
    .string(m.completeRequired)
    .trim()
    .min(1, m.completeRequired)
    .max(max, m.tooLong)
    .regex(PRINTABLE, m.invalidCharacters);
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, m.tooLong)
    .regex(PRINTABLE, m.invalidCharacters)
    .nullish()
    .transform((value) => (value ? value : null));

/** docs/product-rules.md §9: streetNumber is converted to a number; an empty box is a missing required field. */
const streetNumberSchema = z.preprocess(
  (value) => (value === "" || value === null ? undefined : typeof value === "string" ? Number(value) : value),
  z
    .number({
      error: (issue) => (issue.input === undefined ? m.completeRequired : m.streetNumberInvalid),
    })
    .int(m.streetNumberInvalid)
    .min(0, m.streetNumberInvalid)
    .max(1_000_000, m.streetNumberInvalid),
);

const addressFields = {
  city: requiredText(100),
  street: requiredText(100),
  streetNumber: streetNumberSchema,
  floor: optionalText(20),
  unit: optionalText(20),
  postalCode: requiredText(20),
};

/** POST /user/direction: the New Adress form. */
export const addressInputSchema = z.object(addressFields);
export type AddressInput = z.input<typeof addressInputSchema>;
export type AddressValues = z.output<typeof addressInputSchema>;

/** The `direction` of PUT /user: an address of the caller's, by id, with the fields that change. */
export const addressUpdateSchema = z.object({
  id: idSchema,
  city: addressFields.city.optional(),
  street: addressFields.street.optional(),
  streetNumber: streetNumberSchema.optional(),
  floor: addressFields.floor.optional(),
  unit: addressFields.unit.optional(),
  postalCode: addressFields.postalCode.optional(),
});

/**
 * Where a profile picture may point: an image uploaded here (POST /uploads) or an https address (Google's
 * pictures). Nothing else, so a profile can't carry a javascript: or plain-http URL.
 */
export const profilePictureSchema = z
  .string()
  .trim()
  .max(2048, m.tooLong)
  .refine((value) => {
    if (value === "" || /^\/uploads\/[A-Za-z0-9_-]+\.(jpg|png|webp|gif|avif)$/.test(value)) return true;
    // eslint-disable-next-line no-control-regex -- control characters are what is refused
    return /^https:\/\/[a-z0-9.-]+(:\d+)?\/[^\s"'<>\\\u0000-\u001f\u007f]*$/i.test(value);
  }, m.pictureInvalid);

/**
 * PUT /user changes one thing at a time (docs/product-rules.md §8, profile editing): a name, the e-mail, the picture, the
 * newsletter flag, the password (old and new together) or one address. Unknown keys such as `rol` are refused.
 */
export const userUpdateSchema = z
  .strictObject({
    firstName: firstNameSchema.optional(),
    lastName: lastNameSchema.optional(),
    email: emailSchema.optional(),
    profilePicture: profilePictureSchema.optional(),
    newsletterSubscription: z.boolean().optional(),
    prevPassword: z.string().max(PASSWORD_MAX_LENGTH, m.tooLong).optional(),
    newPassword: z.string().max(PASSWORD_MAX_LENGTH, m.tooLong).optional(),
    direction: addressUpdateSchema.optional(),
    /** With `email`: proof that the account's owner is asking (the server says which one it needs). */
    currentPassword: z.string().max(PASSWORD_MAX_LENGTH, m.tooLong).optional(),
    /** With `email`, for a Google account: a Google ID token from a sign-in of the last few minutes. */
    googleToken: z.string().max(8192, m.tooLong).optional(),
  })
  .superRefine((body, context) => {
    const groups = [
      body.firstName,
      body.lastName,
      body.email,
      body.profilePicture,
      body.newsletterSubscription,
      body.prevPassword ?? body.newPassword,
      body.direction,
    ].filter((value) => value !== undefined);
    if (groups.length !== 1) {
      context.addIssue({ code: "custom", path: [], message: m.oneField });
      return;
    }
    if (body.prevPassword !== undefined || body.newPassword !== undefined) {
      if (!body.prevPassword)
        context.addIssue({ code: "custom", path: ["prevPassword"], message: m.fillPasswords });
      if (!body.newPassword)
        context.addIssue({ code: "custom", path: ["newPassword"], message: m.fillPasswords });
      else if (body.newPassword.length < PASSWORD_MIN_LENGTH)
        context.addIssue({ code: "custom", path: ["newPassword"], message: m.passwordTooShort });
    }
  });
export type UserUpdate = z.input<typeof userUpdateSchema>;

/** The password boxes of the profile: both filled, the new one long enough. */
export const passwordChangeSchema = z.object({
  prevPassword: z.string().min(1, m.fillPasswords).max(PASSWORD_MAX_LENGTH, m.tooLong),
  newPassword: z
    .string()
    .min(1, m.fillPasswords)
    .min(PASSWORD_MIN_LENGTH, m.passwordTooShort)
    .max(PASSWORD_MAX_LENGTH, m.tooLong),
});

/** The profile's e-mail row: the new address and, for an account with a password, the current one. */
export const emailChangeFormSchema = z.object({
  email: emailSchema,
  currentPassword: z.string().min(1, m.currentPasswordRequired).max(PASSWORD_MAX_LENGTH, m.tooLong),
});
export type EmailChangeForm = z.infer<typeof emailChangeFormSchema>;

export const ROLES = ["user", "admin"] as const;
export type Role = (typeof ROLES)[number];

export const addressSchema = z.object({
  id: z.number().int(),
  city: z.string(),
  street: z.string(),
  streetNumber: z.number().int(),
  floor: z.string().nullable(),
  unit: z.string().nullable(),
  postalCode: z.string(),
});
export type Address = z.infer<typeof addressSchema>;

/** An address as an order keeps it: copied when the order was paid, so later edits don't move it. */
export const shippingAddressSchema = addressSchema.omit({ id: true });

/** GET /user: the caller, with addresses. There is no password hash field to leak. */
export const userSchema = z.object({
  id: z.number().int(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  rol: z.enum(ROLES),
  profilePicture: z.string(),
  googleUser: z.boolean(),
  newsletterSubscription: z.boolean(),
  directions: z.array(addressSchema),
});
export type User = z.infer<typeof userSchema>;

/**
 * PUT /user: the caller as GET /user gives it; an e-mail change adds `msg` (the link was sent, the e-mail
 * still the old one) and `pendingEmail`, the address that must confirm.
 */
export const userUpdateReplySchema = userSchema.extend({
  msg: z.string().optional(),
  pendingEmail: z.string().optional(),
});
export type UserUpdateReply = z.infer<typeof userUpdateReplySchema>;

/** GET /user/all (admin): one row per account. */
export const userSummarySchema = userSchema.omit({ directions: true }).extend({ createdAt: z.string() });
export type UserSummary = z.infer<typeof userSummarySchema>;

/** PUT /user/admin: sets the role, or toggles it when `rol` is left out. */
export const roleChangeSchema = z.object({ id: idSchema, rol: z.enum(ROLES).optional() });
export const userDeleteSchema = z.object({ id: idSchema });

/** POST /uploads. */
export const uploadReplySchema = z.object({ secure_url: z.string() });
export type UploadReply = z.infer<typeof uploadReplySchema>;

/** GET /user/admin ?search &rol &page &limit (admin): the users screen, paged and searched on the server. */
export const ADMIN_USERS_PAGE_SIZE = 20;
export const adminUserQuerySchema = z.object({
  search: z
    .string({ error: "must be text" })
    .trim()
    .max(100, "must be at most 100 characters")
    .regex(PRINTABLE, "must not contain control characters")
    .optional(),
  rol: z.enum(ROLES, { error: `must be one of ${ROLES.join(", ")}` }).optional(),
  ...pageQuery(ADMIN_USERS_PAGE_SIZE),
});
export type AdminUserQuery = z.infer<typeof adminUserQuerySchema>;
export const adminUserPageSchema = pageInfoSchema.extend({ users: z.array(userSummarySchema) });
export type AdminUserPage = z.infer<typeof adminUserPageSchema>;
