import type { RawQuery } from "../../db/raw";

/**
 * The catalogue's search index, held in each server process (ADR 0011). A search ranks every product that
 * matches ('usb' matches half of a 100k catalogue), which PostgreSQL did at ~40 requests a second; here a
 * broad search takes about a millisecond, and only the page's 16 products are read from the database.
 *
 * Matching and ranking (issue 14 point 4): every word of the search must match the product — its title,
 * name, description or one of its categories' names — as the word itself (or its singular/plural), as the
 * start of a longer word ('logi' → logitech), or as the catalogue words nearest to it by trigram similarity
 * ('mose' → mouse, as pg_trgm measures it). A word is worth, in each place it matched, the place's worth
 * (title and categories 1, name 0.5, description 0.2) times the best kind of match there (the word 1,
 * a prefix 0.7, a typo's correction 0.4); a product's score is the sum over the words. Ties go by id.
 */

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

/** Kinds of match, best first, with their worth. */
const KIND_WORTH = [0, 0.4, 0.7, 1] as const; // none, typo, prefix, exact
const EXACT = 3;
const PREFIX = 2;
const TYPO = 1;

/** Places a word is found in a product, as bits of a posting, with their worth. */
const TITLE = 1;
const NAME = 2;
const DESCRIPTION = 4;
const TITLE_WORTH = 1;
const NAME_WORTH = 0.5;
const DESCRIPTION_WORTH = 0.2;
const CATEGORY_WORTH = 1;

/** `places` with the kind at `place` raised to `kind` if that is better (two bits a place). */
const raise = (places: number, place: number, kind: number) => {
  const shift = place * 2;
  return ((places >> shift) & 3) < kind ? (places & ~(3 << shift)) | (kind << shift) : places;
};

/** What a byte of best kinds by place is worth. */
const WORTH_OF_PLACES = Float64Array.from({ length: 256 }, (_, places) =>
  [TITLE_WORTH, NAME_WORTH, DESCRIPTION_WORTH, CATEGORY_WORTH].reduce(
    (sum, worth, place) => sum + worth * KIND_WORTH[((places >> (place * 2)) & 3) as 0],
    0,
  ),
);

/** pg_trgm's defaults: a word is a typo's correction from this similarity on, and the 6 nearest are kept. */
const SIMILARITY_THRESHOLD = 0.3;
const NEAREST = 6;
/** Only words nearly as close as the best correction count: an exact word doesn't drag in its neighbours. */
const NEAR_BEST = 0.75;

/** The singular and plural of a word ('monitor' finds 'Monitors' as itself). */
const exactForms = (term: string) =>
  term.length > 3 && term.endsWith("s") ? [term, term.slice(0, -1)] : [term, `${term}s`];

/** pg_trgm's trigrams of one word: padded with two spaces before and one after. */
function trigrams(word: string): Set<string> {
  const padded = `  ${word} `;
  const result = new Set<string>();
  for (let i = 0; i + 3 <= padded.length; i++) result.add(padded.slice(i, i + 3));
  return result;
}

/** What a search needs to know of one product besides its words: the filters and sorts of the listing. */
export interface ProductFacts {
  id: number;
  priceCents: number;
  shippingCostCents: number;
  stock: number;
  ratingSum: number;
  ratingCount: number;
}

export interface SearchQuery {
  terms: string[];
  categoryId?: number;
  minCents?: number;
  maxCents?: number;
  freeShipping?: boolean;
  includeOutOfStock: boolean;
  order?: "ASC" | "DESC" | "RATING";
  /** 1-based page. */
  page: number;
  limit: number;
}

/** Prices, shipping, stock and ratings by position, for the filters and the sorts. */
interface Facts {
  priceCents: Int32Array;
  shippingCostCents: Int32Array;
  stock: Int32Array;
  rating: Float64Array;
  ratingCount: Int32Array;
}

const emptyFacts = (size: number): Facts => ({
  priceCents: new Int32Array(size),
  shippingCostCents: new Int32Array(size),
  stock: new Int32Array(size),
  rating: new Float64Array(size),
  ratingCount: new Int32Array(size),
});

interface TextRow {
  id: number;
  title: string;
  name: string;
  description: string;
}

/** How often the build lets requests in while it tokenises (it runs in the request thread). */
const BUILD_SLICE = 2_000;

export class SearchIndex {
  private constructor(
    /** Product ids by position: positions are in id order. */
    private readonly ids: Int32Array,
    /** The vocabulary: word → word number; words by number; numbers sorted by word (prefixes). */
    private readonly wordNumbers: Map<string, number>,
    private readonly vocabulary: string[],
    private readonly sortedWords: Int32Array,
    /** Postings of word w: postings[starts[w]..starts[w+1]), each position << 3 | places. */
    private readonly starts: Int32Array,
    private readonly postings: Int32Array,
    /** trigram → numbers of the words (of 2 characters or more) that have it; how many each word has. */
    private readonly trigramWords: Map<string, number[]>,
    private readonly trigramCounts: Uint8Array,
    /** Category id → the words of its name, and the positions of its products. */
    private readonly categoryWords: Map<number, string[]>,
    private readonly categoryProducts: Map<number, Int32Array>,
    /** The filters' and sorts' facts by position. */
    private facts: Facts,
  ) {}

  /** Reads the live catalogue and indexes it. */
  static async load(run: RawQuery): Promise<SearchIndex> {
    const [texts, categoryRows, links] = await Promise.all([
      run<TextRow>(
        "search_index_texts",
        "select id, title, name, description from products where deleted_at is null order by id",
        [],
      ),
      run<{ id: number; name: string }>("search_index_categories", "select id, name from categories", []),
      run<{ productId: number; categoryId: number }>(
        "search_index_links",
        `select product_id as "productId", category_id as "categoryId" from product_categories`,
        [],
      ),
    ]);
    const ids = Int32Array.from(texts, (row) => row.id);
    const positionOf = new Map<number, number>();
    ids.forEach((id, position) => positionOf.set(id, position));

    const wordNumbers = new Map<string, number>();
    const vocabulary: string[] = [];
    const number = (word: string) => {
      let found = wordNumbers.get(word);
      if (found === undefined) {
        found = vocabulary.length;
        wordNumbers.set(word, found);
        vocabulary.push(word);
      }
      return found;
    };
    // Pass 1: each product's words with their places, and how many products have each word.
    const productWords: Int32Array[] = [];
    const counts: number[] = [];
    for (let position = 0; position < texts.length; position++) {
      if (position % BUILD_SLICE === BUILD_SLICE - 1) await new Promise((resolve) => setImmediate(resolve));
      const row = texts[position]!;
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
      const packed = new Int32Array(places.size * 2);
      let i = 0;
      for (const [n, place] of places) {
        packed[i++] = n;
        packed[i++] = place;
        counts[n] = (counts[n] ?? 0) + 1;
      }
      productWords.push(packed);
    }
    // Pass 2: the postings, word after word, each in position (so id) order.
    const starts = new Int32Array(vocabulary.length + 1);
    for (let n = 0; n < vocabulary.length; n++) starts[n + 1] = starts[n]! + (counts[n] ?? 0);
    const postings = new Int32Array(starts[vocabulary.length]!);
    const filled = starts.slice(0, vocabulary.length);
    productWords.forEach((packed, position) => {
      for (let i = 0; i < packed.length; i += 2)
        postings[filled[packed[i]!]!++] = (position << 3) | packed[i + 1]!;
    });

    const sortedWords = Int32Array.from(vocabulary.keys()).sort((a, b) =>
      vocabulary[a]! < vocabulary[b]! ? -1 : vocabulary[a]! > vocabulary[b]! ? 1 : 0,
    );
    const trigramWords = new Map<string, number[]>();
    const trigramCounts = new Uint8Array(vocabulary.length);
    vocabulary.forEach((word, n) => {
      if (word.length < 2) return;
      const own = trigrams(word);
      trigramCounts[n] = own.size;
      for (const trigram of own) {
        const list = trigramWords.get(trigram);
        if (list) list.push(n);
        else trigramWords.set(trigram, [n]);
      }
    });

    const categoryWords = new Map(categoryRows.map((row) => [row.id, words(row.name)]));
    const byCategory = new Map<number, number[]>();
    for (const link of links) {
      const position = positionOf.get(link.productId);
      if (position === undefined) continue;
      const list = byCategory.get(link.categoryId);
      if (list) list.push(position);
      else byCategory.set(link.categoryId, [position]);
    }
    const categoryProducts = new Map(
      [...byCategory].map(([id, positions]) => [id, Int32Array.from(positions).sort()]),
    );
    const index = new SearchIndex(
      ids,
      wordNumbers,
      vocabulary,
      sortedWords,
      starts,
      postings,
      trigramWords,
      trigramCounts,
      categoryWords,
      categoryProducts,
      emptyFacts(0),
    );
    await index.loadFacts(run);
    return index;
  }

  /** Re-reads prices, shipping, stock and ratings (cheap beside the words): after a sale or a review. */
  async loadFacts(run: RawQuery): Promise<void> {
    const rows = await run<ProductFacts>(
      "search_index_facts",
      `select id, price_cents as "priceCents", shipping_cost_cents as "shippingCostCents", stock,
         rating_sum as "ratingSum", rating_count as "ratingCount"
       from products where deleted_at is null order by id`,
      [],
    );
    const facts = emptyFacts(this.ids.length);
    // Both in id order; a product created or retired since the words were read waits for the next full load.
    let position = 0;
    for (const row of rows) {
      while (position < this.ids.length && this.ids[position]! < row.id) position++;
      if (this.ids[position] !== row.id) continue;
      facts.priceCents[position] = row.priceCents;
      facts.shippingCostCents[position] = row.shippingCostCents;
      facts.stock[position] = row.stock;
      facts.rating[position] = row.ratingSum / Math.max(row.ratingCount, 1);
      facts.ratingCount[position] = row.ratingCount;
    }
    this.facts = facts;
  }

  /** The ids of the page's products, best first (or in the order asked), and how many match in all. */
  search(query: SearchQuery): { ids: number[]; total: number } {
    const size = this.ids.length;
    const scores = new Float64Array(size);
    const matched = new Uint8Array(size);
    query.terms.forEach((term, index) => this.scoreTerm(term, index, scores, matched));

    const categoryMembers =
      query.categoryId === undefined ? undefined : this.categoryProducts.get(query.categoryId);
    const inCategory = categoryMembers ? new Uint8Array(size) : undefined;
    if (inCategory) for (const position of categoryMembers!) inCategory[position] = 1;
    const wanted = query.terms.length;
    const { priceCents, shippingCostCents, stock } = this.facts;
    const hits: number[] = [];
    for (let position = 0; position < size; position++) {
      if (matched[position] !== wanted) continue;
      if (!query.includeOutOfStock && stock[position]! <= 0) continue;
      if (inCategory && !inCategory[position]) continue;
      if (query.categoryId !== undefined && !inCategory) continue;
      if (query.minCents !== undefined && priceCents[position]! < query.minCents) continue;
      if (query.maxCents !== undefined && priceCents[position]! > query.maxCents) continue;
      if (query.freeShipping && shippingCostCents[position] !== 0) continue;
      hits.push(position);
    }
    const from = (query.page - 1) * query.limit;
    const page = this.firstInOrder(hits, scores, query.order, from + query.limit).slice(from);
    return { ids: page.map((position) => this.ids[position]!), total: hits.length };
  }

  /** The first `count` hits in the listing's order; positions are in id order, which breaks every tie. */
  private firstInOrder(hits: number[], scores: Float64Array, order: SearchQuery["order"], count: number) {
    const { priceCents, rating, ratingCount } = this.facts;
    if (order === "ASC") return hits.sort((a, b) => priceCents[a]! - priceCents[b]! || a - b).slice(0, count);
    if (order === "DESC")
      return hits.sort((a, b) => priceCents[b]! - priceCents[a]! || a - b).slice(0, count);
    if (order === "RATING")
      return hits
        .sort((a, b) => rating[b]! - rating[a]! || ratingCount[b]! - ratingCount[a]! || a - b)
        .slice(0, count);
    // By score, without sorting every hit: the best `count` so far, best first. Hits come in position order,
    // so a later hit displaces one only with a higher score.
    const best: number[] = [];
    for (const position of hits) {
      const score = scores[position]!;
      if (best.length === count && score <= scores[best[count - 1]!]!) continue;
      let at = best.length;
      while (at > 0 && scores[best[at - 1]!]! < score) at--;
      best.splice(at, 0, position);
      if (best.length > count) best.pop();
    }
    return best;
  }

  /** Adds one word's worth to the products it matches, and counts it as matched there. */
  private scoreTerm(term: string, index: number, scores: Float64Array, matched: Uint8Array) {
    const exact = new Set(exactForms(term));
    const typos = term.length < 3 ? new Set<string>() : this.corrections(term, exact);
    const kindOf = (word: string) =>
      exact.has(word) ? EXACT : word.startsWith(term) ? PREFIX : typos.has(word) ? TYPO : 0;

    // Best kind of match per product and place, two bits a place in one byte (title, name, description,
    // category from the lowest), for the products this word reaches.
    const best = new Uint8Array(this.ids.length);
    const reached: number[] = [];
    const reach = (word: number, kind: number) => {
      const end = this.starts[word + 1]!;
      for (let i = this.starts[word]!; i < end; i++) {
        const posting = this.postings[i]!;
        const position = posting >> 3;
        if (matched[position] !== index) continue; // an earlier word didn't match it: it is out
        const before = best[position]!;
        if (before === 0) reached.push(position);
        best[position] = raise(
          raise(raise(before, 0, posting & TITLE ? kind : 0), 1, posting & NAME ? kind : 0),
          2,
          posting & DESCRIPTION ? kind : 0,
        );
      }
    };
    for (const word of this.prefixed(term)) reach(word, kindOf(this.vocabulary[word]!));
    for (const word of [...exact, ...typos]) {
      const n = this.wordNumbers.get(word);
      if (n !== undefined && !word.startsWith(term)) reach(n, kindOf(word));
    }
    for (const [categoryId, categoryWords] of this.categoryWords) {
      const kind = Math.max(0, ...categoryWords.map(kindOf));
      if (kind === 0) continue;
      for (const position of this.categoryProducts.get(categoryId) ?? []) {
        if (matched[position] !== index) continue;
        if (best[position] === 0) reached.push(position);
        best[position] = raise(best[position]!, 3, kind);
      }
    }
    for (const position of reached) {
      matched[position] = index + 1;
      scores[position]! += WORTH_OF_PLACES[best[position]!]!;
    }
  }

  /** The numbers of the catalogue words that start with `term`, itself included. */
  private prefixed(term: string): number[] {
    const sorted = this.sortedWords;
    let low = 0;
    let high = sorted.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (this.vocabulary[sorted[middle]!]! < term) low = middle + 1;
      else high = middle;
    }
    const result: number[] = [];
    for (let i = low; i < sorted.length && this.vocabulary[sorted[i]!]!.startsWith(term); i++)
      result.push(sorted[i]!);
    return result;
  }

  /** The catalogue words a typo of `term` most likely meant (none that start with it or are its forms). */
  private corrections(term: string, exact: Set<string>): Set<string> {
    const own = trigrams(term);
    const shared = new Map<number, number>();
    for (const trigram of own) {
      for (const word of this.trigramWords.get(trigram) ?? []) shared.set(word, (shared.get(word) ?? 0) + 1);
    }
    const similar: { word: string; similarity: number }[] = [];
    for (const [n, common] of shared) {
      const word = this.vocabulary[n]!;
      const similarity = common / (own.size + this.trigramCounts[n]! - common);
      if (similarity >= SIMILARITY_THRESHOLD) similar.push({ word, similarity });
    }
    similar.sort((a, b) => b.similarity - a.similarity || (a.word < b.word ? -1 : 1));
    const nearest = similar.slice(0, NEAREST);
    const bestSimilarity = nearest[0]?.similarity ?? 0;
    return new Set(
      nearest
        .filter(({ similarity }) => similarity >= bestSimilarity * NEAR_BEST)
        .map(({ word }) => word)
        .filter((word) => !word.startsWith(term) && !exact.has(word)),
    );
  }
}

/**
 * The index as this process keeps it: loaded on the first search, loaded again after a catalogue write in this
 * process (the next search waits for it), its stock and ratings read again after a sale or a review, and
 * refreshed in the background every `refreshMs` for writes made by other processes.
 */
export class LiveSearchIndex {
  private index?: SearchIndex;
  private loadedAt = 0;
  private wordsStale = false;
  private factsStale = false;
  /** Bumped by every change: a load that began before it is not kept. */
  private generation = 0;
  private loading?: { generation: number; promise: Promise<SearchIndex> };
  private factsLoading?: { generation: number; promise: Promise<void> };

  constructor(private readonly refreshMs: number) {}

  async get(run: RawQuery): Promise<SearchIndex> {
    const index = this.index;
    if (!index || this.wordsStale) return this.load(run);
    if (this.factsStale) await this.loadFacts(run, index);
    else if (Date.now() - this.loadedAt > this.refreshMs) void this.load(run).catch(() => {}); // retried next time
    return index;
  }

  /** A catalogue write: products, categories or their links changed. */
  catalogChanged(): void {
    this.generation++;
    this.wordsStale = true;
  }

  /** Stock or ratings changed: the words stand. */
  factsChanged(): void {
    this.generation++;
    this.factsStale = true;
  }

  private load(run: RawQuery): Promise<SearchIndex> {
    if (this.loading?.generation === this.generation) return this.loading.promise;
    const generation = this.generation;
    const promise = SearchIndex.load(run)
      .then((index) => {
        if (generation === this.generation) {
          this.index = index;
          this.loadedAt = Date.now();
          this.wordsStale = this.factsStale = false;
        }
        return index;
      })
      .finally(() => {
        if (this.loading?.promise === promise) this.loading = undefined;
      });
    this.loading = { generation, promise };
    return promise;
  }

  private loadFacts(run: RawQuery, index: SearchIndex): Promise<void> {
    if (this.factsLoading?.generation === this.generation) return this.factsLoading.promise;
    const generation = this.generation;
    const promise = index
      .loadFacts(run)
      .then(() => {
        if (generation === this.generation) this.factsStale = false;
      })
      .finally(() => {
        if (this.factsLoading?.promise === promise) this.factsLoading = undefined;
      });
    this.factsLoading = { generation, promise };
    return promise;
  }
}
