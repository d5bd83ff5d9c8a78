import type { TextRow } from "./catalogue-rows";
import { DESCRIPTION, NAME, TITLE } from "./scoring";

/** How the catalogue search splits text into words and compares them (search-index.ts). */

/** The words of a text or a search: lower-case runs of letters and digits. */
export function words(text: string): string[] {
  const lower = text.toLowerCase();
  const result: string[] = [];
  let start = -1;
  // By character code (ASCII letters and digits without a regular expression): indexing 100k descriptions
  // spends most of its time here.
  for (let i = 0; i <= lower.length; i++) {
    const code = i < lower.length ? lower.charCodeAt(i) : 32;
    const inWord =
      (code >= 97 && code <= 122) ||
      (code >= 48 && code <= 57) ||
      (code > 127 && WORD_CHARACTER.test(lower[i]!));
    if (inWord) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      result.push(lower.slice(start, i));
      start = -1;
    }
  }
  return result;
}

const WORD_CHARACTER = /[\p{L}\p{N}]/u;

/** The words of a search, at most 8 of at most 40 characters. */
export function searchTerms(search: string | undefined): string[] {
  return search
    ? words(search)
        .slice(0, 8)
        .map((term) => term.slice(0, 40))
    : [];
}

/** The singular and plural of a word ('monitor' finds 'Monitors' as itself). */
export const exactForms = (term: string) =>
  term.length > 3 && term.endsWith("s") ? [term, term.slice(0, -1)] : [term, `${term}s`];

/** pg_trgm's trigrams of one word: padded with two spaces before and one after. */
export function trigrams(word: string): Set<string> {
  const padded = `  ${word} `;
  const result = new Set<string>();
  for (let i = 0; i + 3 <= padded.length; i++) result.add(padded.slice(i, i + 3));
  return result;
}

/** A product's words with the places each is found in, by word number (`number` numbers a word). */
export function placesOf(row: TextRow, number: (word: string) => number): Map<number, number> {
  const places = new Map<number, number>();
  for (const [text, place] of [
    [row.title, TITLE],
    [row.name, NAME],
    [row.description, DESCRIPTION],
  ] as const) {
    for (const word of words(text)) {
      const n = number(word.slice(0, 40));
      places.set(n, (places.get(n) ?? 0) | place);
    }
  }
  return places;
}
