/**
 * The texts of the account rules (docs/product-rules.md §9), apart from the schemas so the web app can translate them
 * without loading zod on every page.
 */

/** Every rule's message. The web shows these keys translated (i18n `accountRules`); the API answers in English. */
export const ACCOUNT_MESSAGES = {
  firstNameRequired: "First name is required",
  firstNameLetters: "Only letters, no spaces or digits",
  lastNameRequired: "Last name is required",
  emailRequired: "E-mail is required",
  emailInvalid: "Enter a valid e-mail",
  passwordRequired: "Password is required",
  passwordTooShort: "At least 8 characters",
  passwordCommon: "This password is too common: it is on lists of leaked passwords",
  passwordPersonal: "The password is too close to your name or e-mail",
  passwordPattern: "The password is a keyboard pattern, a repeat, a sequence or a date",
  passwordGuessable: "The password is too easy to guess: add more words or characters",
  tooLong: "Too long",
  completeRequired: "Complete the required fields",
  streetNumberInvalid: "The street number must be a whole number",
  fillPasswords: "Fill in the corresponding fields",
  pictureInvalid: "The picture must be an uploaded image or an https address",
  oneField: "Send one field at a time",
  invalidCharacters: "Contains characters that aren't allowed",
  resetLinkInvalid: "This link is not valid: ask for a new one",
  resetLinkExpired: "This link has expired: ask for a new one",
  resetLinkUsed: "This link was already used: ask for a new one",
  passwordsDiffer: "The passwords don't match",
  currentPasswordRequired: "Type your current password to change the e-mail",
  googleSignInRequired: "Sign in with Google again to change the e-mail",
  googleSignInOther: "That Google sign-in is not this account's",
  googleSignInStale: "That Google sign-in is too old: sign in with Google again",
  emailUnchanged: "That is already your e-mail",
  emailLinkInvalid: "This link is not valid",
  emailLinkExpired: "This link has expired",
  emailLinkUsed: "This link was already used",
  emailRevertTaken: "Another account uses that e-mail now, so it can't be put back: contact the store",
} as const;
export type AccountMessageKey = keyof typeof ACCOUNT_MESSAGES;

/** The key of a rule message, so a client can show it in the shopper's language. */
export function accountMessageKey(message: string | undefined): AccountMessageKey | undefined {
  return (Object.keys(ACCOUNT_MESSAGES) as AccountMessageKey[]).find(
    (key) => ACCOUNT_MESSAGES[key] === message,
  );
}
