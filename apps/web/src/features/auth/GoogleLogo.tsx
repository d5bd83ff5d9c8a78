/** Google's "G" lives in components/ now: the profile shows it too. */
export { GoogleLogo } from "@/components/GoogleLogo";
