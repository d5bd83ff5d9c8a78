/** The store's keyboard focus ring, spelled once so every control that shows it shows the same one. */
export const focusRingClass =
  "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent";
