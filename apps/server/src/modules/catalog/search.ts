import { sql, type SQL } from "drizzle-orm";
import type { Db } from "../../db/client";
import { categories, productCategories, products, searchWords } from "../../db/schema";

/**
 * Catalogue search (DESIGN.md §5, issue 14 point 4): every word of the search must match the product —
 * its title, name, description or one of its categories' names, as the word itself, as the start of a word
 * ('logi' → logitech) or through the catalogue words nearest to it by trigram similarity ('mose' → mouse).
 * Results are ranked by where and how each word matched: title and category names first, then the name,
 * then the description; the word itself before a longer word it starts, before a typo's correction.
 */

/** The words of a search: letters and digits only (so they are safe inside a tsquery), at most 8. */
export function searchTerms(search: string | undefined): string[] {
  if (!search) return [];
  return search
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .slice(0, 8)
    .map((term) => term.slice(0, 40));
}

/** How a word matched, and what that is worth. */
const KINDS = [
  { kind: "exact", worth: 1 },
  { kind: "prefix", worth: 0.7 },
  { kind: "typo", worth: 0.4 },
] as const;
type Kind = (typeof KINDS)[number]["kind"];

/** Where a word matched (the search vector's weights), and what that is worth. */
const FIELDS = [
  { weight: "A", worth: 1 }, // title
  { weight: "B", worth: 0.5 }, // name
  { weight: "C", worth: 0.2 }, // description
] as const;
const CATEGORY_WORTH = 1;

/** One word of the search as tsquery texts by kind ('' where there is nothing of that kind). */
type Alternatives = Record<Kind, string[]>;

/** A word, and its singular or plural ('monitor' finds 'Monitors' as itself). */
const exactForms = (term: string) =>
  term.length > 3 && term.endsWith("s") ? [term, term.slice(0, -1)] : [term, `${term}s`];

async function alternativesOf(db: Db, term: string): Promise<Alternatives> {
  const exact = exactForms(term);
  if (term.length < 3) return { exact, prefix: [`${term}:*`], typo: [] };
  const similar = await db
    .select({ word: searchWords.word, similarity: sql<number>`similarity(${searchWords.word}, ${term})` })
    .from(searchWords)
    .where(sql`${searchWords.word} % ${term}`)
    .orderBy(sql`${searchWords.word} <-> ${term}`)
    .limit(6);
  // Keep only the words nearly as close as the best one: an exact word doesn't drag in its neighbours.
  const best = similar[0]?.similarity ?? 0;
  const typo = similar
    .filter((row) => row.similarity >= best * 0.75)
    .map((row) => row.word)
    .filter((word) => !word.startsWith(term) && !exact.includes(word));
  return { exact, prefix: [`${term}:*`], typo };
}

/** `(a:A | b:A)`: any of the words, restricted to a weight when given. */
const anyOf = (words: string[], weight = "") =>
  words.map((word) => (word.endsWith(":*") ? `${word}${weight}` : `${word}${weight ? `:${weight}` : ""}`));
const tsQuery = (words: string[], weight?: string) =>
  sql`to_tsquery('simple', ${anyOf(words, weight).join(" | ")})`;

/** The categories whose name matches each kind of a word (a store has a few dozen: asked once per search). */
async function categoriesOf(db: Db, words: Alternatives[]): Promise<Record<Kind, number[]>[]> {
  const checks = words.flatMap((alternatives) =>
    KINDS.map(({ kind }) =>
      alternatives[kind].length
        ? sql`to_tsvector('simple', ${categories.name}) @@ ${tsQuery(alternatives[kind])}`
        : sql`false`,
    ),
  );
  const matched = await db
    .select({ id: categories.id, matches: sql<boolean[]>`array[${sql.join(checks, sql`, `)}]` })
    .from(categories);
  return words.map((_alternatives, index) => {
    const byKind = { exact: [], prefix: [], typo: [] } as Record<Kind, number[]>;
    KINDS.forEach(({ kind }, k) => {
      byKind[kind] = matched.filter((row) => row.matches[index * KINDS.length + k]).map((row) => row.id);
    });
    return byKind;
  });
}

const inCategories = (ids: number[]) =>
  sql`exists (select 1 from ${productCategories} where ${productCategories.productId} = ${products.id} and ${productCategories.categoryId} in (${sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  )}))`;

/** A CASE that is worth the best kind a test passes, else 0. */
function bestKind(test: (kind: Kind) => SQL | undefined, worth: number): SQL | undefined {
  const branches = KINDS.flatMap(({ kind, worth: kindWorth }) => {
    const condition = test(kind);
    return condition ? [sql`when ${condition} then ${sql.raw(String(worth * kindWorth))}`] : [];
  });
  return branches.length ? sql`(case ${sql.join(branches, sql` `)} else 0 end)` : undefined;
}

export interface Search {
  /** Every word matches somewhere. */
  where: SQL;
  /** Higher is a better match. */
  score: SQL;
}

/** The filter and the rank of a search; undefined when it has no words (nothing to rank). */
export async function buildSearch(db: Db, terms: string[]): Promise<Search | undefined> {
  if (terms.length === 0) return undefined;
  const words = await Promise.all(terms.map((term) => alternativesOf(db, term)));
  const categoryMatches = await categoriesOf(db, words);
  const matches: SQL[] = [];
  const scores: SQL[] = [];
  words.forEach((alternatives, index) => {
    const all = [...alternatives.exact, ...alternatives.prefix, ...alternatives.typo];
    const anyCategory = KINDS.flatMap(({ kind }) => categoryMatches[index]![kind]);
    matches.push(
      anyCategory.length
        ? sql`(${products.searchVector} @@ ${tsQuery(all)} or ${inCategories(anyCategory)})`
        : sql`${products.searchVector} @@ ${tsQuery(all)}`,
    );
    const parts = [
      ...FIELDS.map(({ weight, worth }) =>
        bestKind(
          (kind) =>
            alternatives[kind].length
              ? sql`${products.searchVector} @@ ${tsQuery(alternatives[kind], weight)}`
              : undefined,
          worth,
        ),
      ),
      bestKind((kind) => {
        const ids = categoryMatches[index]![kind];
        return ids.length ? inCategories(ids) : undefined;
      }, CATEGORY_WORTH),
    ].filter((part): part is SQL => part !== undefined);
    scores.push(sql.join(parts, sql` + `));
  });
  return {
    where: sql.join(matches, sql` and `),
    score: sql`(${sql.join(scores, sql` + `)})`,
  };
}
