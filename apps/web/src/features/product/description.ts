/**
 * SPEC.md §2: the description is split into sentences at '. ' and shown as bullet points, with the last
 * fragment dropped. A description with a single sentence keeps it, or the shopper would see nothing.
 */
export function descriptionBullets(description: string): string[] {
  const fragments = description.split(". ");
  const kept = fragments.length > 1 ? fragments.slice(0, -1) : fragments;
  return kept.map((fragment) => fragment.trim()).filter((fragment) => fragment !== "");
}
