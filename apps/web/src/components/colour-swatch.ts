/**
 * The colour a Colour option's value is drawn with (issue 41): a swatch beside its name on the product page
 * and on listing cards, never the only sign (the name is always there for screen readers and in text).
 * Values the store uses that CSS doesn't know by name get one here; any other is tried as a CSS colour name.
 */
const NAMED: Record<string, string> = {
  black: "#111111",
  white: "#f8f8f8",
  silver: "#c0c0c0",
  grey: "#808080",
  gray: "#808080",
  "space grey": "#4a4a4f",
  "space gray": "#4a4a4f",
  graphite: "#3b3b3f",
  blue: "#1d4ed8",
  navy: "#1e2a5a",
  red: "#dc2626",
  pink: "#f9a8d4",
  rose: "#f43f5e",
  green: "#16a34a",
  yellow: "#facc15",
  gold: "#d4af37",
  purple: "#7c3aed",
  orange: "#f97316",
  negro: "#111111",
  blanco: "#f8f8f8",
  azul: "#1d4ed8",
  rojo: "#dc2626",
  rosa: "#f9a8d4",
  verde: "#16a34a",
};

export function swatchColour(value: string): string {
  const name = value.trim().toLowerCase();
  return NAMED[name] ?? name.replace(/[^a-z]/g, "");
}
