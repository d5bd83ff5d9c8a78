import { ACCOUNT_MESSAGES } from "@voltio/domain/account-messages";
import type { Widen } from "./en";

/**
 * Accounts' texts: signing in, password reset, the profile, its addresses and the newsletter opt-in. A chunk
 * of their own, loaded with the screens that show them (i18n/index.ts loadTexts, app/router.tsx), so the
 * catalogue's pages don't carry them. Spanish mirrors every key (account-es.ts).
 */
export const accountEn = {
  // Accounts: login, profile, addresses, newsletter opt-in.
  auth: {
    pageTitle: "Log in / Sign up",
    emailPrompt: "Put you mail to register or login",
    email: "E-mail",
    emailPlaceholder: "you@example.com",
    continue: "Continue",
    or: "or",
    google: "Login with Google",
    loginTitle: "Log in",
    registerTitle: "Create your account",
    firstName: "First name",
    lastName: "Last name",
    password: "Password",
    loginButton: "Log in",
    registerButton: "Sign up",
    otherEmail: "Use another e-mail",
    passwordIncorrect: "The password is incorrect",
    registered: "Your account is ready. Log in to continue.",
    welcome: "Welcome, {{name}}!",
    emailExists: "That e-mail already has an account",
    tooMany: "Too many attempts. Wait a few minutes and try again.",
    failed: "Something went wrong. Try again.",
    showPassword: "Show password",
    hidePassword: "Hide password",
  },
  accountRules: ACCOUNT_MESSAGES,
  // "Forgot password?".
  passwordReset: {
    forgotLink: "Forgot password?",
    forgotTitle: "Forgot your password?",
    forgotPrompt: "Type your account's e-mail and we'll send you a link to choose a new password.",
    send: "Send me the link",
    sent: "If an account exists for that e-mail, we sent a link. It works once, for 30 minutes.",
    sentHint: "Look in your inbox, and in the spam folder too.",
    backToLogin: "Back to log in",
    resetTitle: "Choose a new password",
    newPassword: "New password",
    confirmPassword: "Repeat the new password",
    save: "Save the new password",
    askAgain: "Ask for a new link",
    changed:
      "Your password was changed, and every other login of the account ended. Log in with the new one.",
  },
  profile: {
    title: "Profile",
    userData: "User Data",
    password: "Password",
    oldPassword: "Old password",
    newPassword: "New password",
    edit: "Edit {{field}}",
    confirm: "Confirm {{field}}",
    updated: "Updated data",
    addresses: "Addresses",
    addressSummary_one: "{{first}}",
    addressSummary_other: "{{first}} · {{count}} addresses",
    changePicture: "Change picture",
    confirmImage: "Confirm image",
    uploading: "Uploading the picture…",
    pictureTooBig: "That picture is too big. Choose a smaller one.",
    pictureRefused: "Choose a JPEG, PNG, WebP, GIF or AVIF picture.",
    googleAccount: "Google account",
    googleEmail: "Managed by Google",
    subscribeNewsletter: "Subscribe NewsLetter",
    deleteAccount: "Delete Account",
  },
  addresses: {
    title: "Adresses",
    empty: "No addresses registered",
    newAddress: "New Adress",
    return: "Return",
    delete: "DeleteAdress",
    city: "City",
    street: "Street",
    streetNumber: "Number",
    floor: "Floor",
    unit: "Unit",
    postalCode: "Postal code",
    optional: "(optional)",
    save: "Save address",
    saveChanges: "Save changes",
    required: "Required",
    wholeNumber: "Whole number",
  },
  // The login page's passkey buttons: the rest of the passkeys' texts come with the profile.
  passkeyLogin: {
    signIn: "Sign in with a passkey",
    secondStep: "Use a passkey",
    cancelled: "No passkey was used.",
    notAccepted: "That passkey wasn't accepted. Try again, or sign in another way.",
  },
  newsletter: {
    title: "Newsletter",
    text: "Sales, new arrivals and tech tips in your inbox. You can leave at any time.",
    toggle: "Receive the newsletter",
    confirm: "Are you sure ?",
    willSubscribe: "You will receive the Voltio newsletter.",
    willUnsubscribe: "You will stop receiving the Voltio newsletter.",
    subscribed: "You are subscribed to the newsletter",
    unsubscribed: "You won't receive the newsletter any more",
  },
} as const;

export type AccountMessages = Widen<typeof accountEn>;
