/**
 * A product's description (docs/product-rules.md §1 Product detail): sentences separated by '. ', shown as bullet points,
 * the last fragment dropped — the empty one after a final '. '. The store keeps every description ending
 * in '. ', so a client that drops the last fragment, as the original specification's client does, loses no sentence.
 */

/** The description as stored: trimmed, each line's end kept, ending in '. ' when it has any text. */
export function storedDescription(text: string): string {
  const trimmed = text.trim();
  if (trimmed === "") return "";
  return trimmed.endsWith(".") ? `${trimmed} ` : `${trimmed}. `;
}

/** The bullet points: every sentence, the empty fragment after a final '. ' left out. */
export function descriptionBullets(description: string): string[] {
  const fragments = description.split(". ").map((fragment) => fragment.trim());
  if (fragments.length > 1 && fragments.at(-1) === "") fragments.pop();
  return fragments
    .map((fragment, index) => (index === fragments.length - 1 ? fragment.replace(/\.$/, "") : fragment))
    .filter((fragment) => fragment !== "");
}
