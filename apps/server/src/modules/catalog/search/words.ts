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
