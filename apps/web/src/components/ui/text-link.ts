/** A link inside text (titles, footer entries): underlined on hover, with the store's focus ring. */
export const textLinkClass =
  "rounded hover:text-accent-strong hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent";
