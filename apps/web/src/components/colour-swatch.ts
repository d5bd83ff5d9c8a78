/**
 * The class a Colour option's value is drawn with (issue 41): a swatch beside its name on the product page
 * and on listing cards, never the only sign (the name is always there, in text or for screen readers).
 * Classes, not style attributes: the Content-Security-Policy refuses inline styles. A colour not listed
 * gets a neutral striped swatch.
 */
const SWATCHES: Record<string, string> = {
  black: "bg-[#111111]",
  negro: "bg-[#111111]",
  white: "bg-[#f8f8f8]",
  blanco: "bg-[#f8f8f8]",
  silver: "bg-[#c0c0c0]",
  plata: "bg-[#c0c0c0]",
  grey: "bg-[#808080]",
  gray: "bg-[#808080]",
  gris: "bg-[#808080]",
  "space grey": "bg-[#4a4a4f]",
  "space gray": "bg-[#4a4a4f]",
  graphite: "bg-[#3b3b3f]",
  blue: "bg-[#1d4ed8]",
  azul: "bg-[#1d4ed8]",
  navy: "bg-[#1e2a5a]",
  red: "bg-[#dc2626]",
  rojo: "bg-[#dc2626]",
  pink: "bg-[#f9a8d4]",
  rosa: "bg-[#f9a8d4]",
  green: "bg-[#16a34a]",
  verde: "bg-[#16a34a]",
  yellow: "bg-[#facc15]",
  amarillo: "bg-[#facc15]",
  gold: "bg-[#d4af37]",
  purple: "bg-[#7c3aed]",
  orange: "bg-[#f97316]",
};

const UNKNOWN = "bg-[repeating-linear-gradient(45deg,var(--color-line)_0_3px,transparent_3px_6px)]";

export const swatchClass = (value: string): string => SWATCHES[value.trim().toLowerCase()] ?? UNKNOWN;
