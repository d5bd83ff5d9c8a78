const ENTITIES: Record<string, string> = {
  "<": "&lt;",
  ">": "&gt;",
  "&": "&amp;",
  '"': "&quot;",
  "'": "&#39;",
};

/** Escapes text for HTML and XML attributes and bodies. */
export function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => ENTITIES[c]!);
}
