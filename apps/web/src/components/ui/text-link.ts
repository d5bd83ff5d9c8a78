import { focusRingClass } from "./focus-ring";

/** A link inside text (titles, footer entries): underlined on hover, with the store's focus ring. */
export const textLinkClass = `rounded hover:text-accent-strong hover:underline ${focusRingClass}`;
