/** Google's sign-in prompt lives in components/ now: the profile asks for it too (a Google account's e-mail change). */
export { requestGoogleCredential } from "@/components/google-sign-in";
