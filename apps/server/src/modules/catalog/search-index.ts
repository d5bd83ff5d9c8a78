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

/** What each kind of match is worth: none, a typo's correction, a prefix, the word itself. */
const KIND_WORTH = [0, 0.4, 0.7, 1] as const;
const EXACT = 3;
const PREFIX = 2;
const TYPO = 1;

/** Places a word is found in a product, as bits of a posting, with their worth. */
const TITLE = 1;
const NAME = 2;
const DESCRIPTION = 4;
const CATEGORY = 8;
const TITLE_WORTH = 1;
const NAME_WORTH = 0.5;
const DESCRIPTION_WORTH = 0.2;
const CATEGORY_WORTH = 1;

/**
 * The best kind of match by place, two bits a place in one byte (title, name, description, category from the
 * lowest bits): RAISE[byte << 6 | places << 2 | kind] is the byte once `kind` was found in those places.
 */
const RAISE = Uint8Array.from({ length: 256 * 16 * 4 }, (_, key) => {
  let byte = key >> 6;
  const places = (key >> 2) & 15;
  const kind = key & 3;
  for (let place = 0; place < 4; place++) {
    const shift = place * 2;
    if (places & (1 << place) && ((byte >> shift) & 3) < kind)
      byte = (byte & ~(3 << shift)) | (kind << shift);
  }
  return byte;
});

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
interface FactsRow {
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
    /** The vocabulary: words by number, and the numbers sorted by word (for exact and prefix lookups). */
    private readonly vocabulary: string[],
    private readonly sortedWords: Int32Array,
    /** Postings of word w: postings[starts[w]..starts[w+1]), each position << 3 | places. */
    private readonly starts: Int32Array,
    private readonly postings: Int32Array,
    /** trigram → numbers of the words (of 2 characters or more) that have it; how many each word has. */
    private readonly trigramWords: Map<string, Int32Array>,
    private readonly trigramCounts: Uint8Array,
    /** Category id → the words of its name, and the positions of its products. */
    private readonly categoryWords: Map<number, string[]>,
    private readonly categoryProducts: Map<number, Int32Array>,
    /** The filters' and sorts' facts by position. */
    private facts: Facts,
  ) {}

  /** Reads the live catalogue and indexes it. */
  /** How many products it holds. */
  get size(): number {
    return this.ids.length;
  }

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
    const trigramLists = new Map<string, number[]>();
    const trigramCounts = new Uint8Array(vocabulary.length);
    vocabulary.forEach((word, n) => {
      if (word.length < 2) return;
      const own = trigrams(word);
      trigramCounts[n] = own.size;
      for (const trigram of own) {
        const list = trigramLists.get(trigram);
        if (list) list.push(n);
        else trigramLists.set(trigram, [n]);
      }
    });
    // Typed arrays: the collector doesn't walk them, which keeps its pauses short beside a large index.
    const trigramWords = new Map(
      [...trigramLists].map(([trigram, list]) => [trigram, Int32Array.from(list)]),
    );

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
    const rows = await run<FactsRow>(
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

  /**
   * Per-search working memory, one entry per product, kept between searches: a search runs from start to end
   * without awaiting, so two never share it, and 100k-entry arrays aren't allocated (and collected) per request.
   */
  private scratch?: {
    scores: Float64Array;
    /** How many words of the search matched the product so far. */
    matched: Uint8Array;
    /** The best kind of match of the current word by place (see RAISE). */
    best: Uint8Array;
    /** Positions the current word reached, then positions the whole search matched. */
    reached: Int32Array;
    hits: Int32Array;
  };

  /** The ids of the page's products, best first (or in the order asked), and how many match in all. */
  search(query: SearchQuery): { ids: number[]; total: number } {
    const size = this.ids.length;
    this.scratch ??= {
      scores: new Float64Array(size),
      matched: new Uint8Array(size),
      best: new Uint8Array(size),
      reached: new Int32Array(size),
      hits: new Int32Array(size),
    };
    const { scores, matched, best, reached } = this.scratch;
    const last = query.terms.length - 1;
    // Products the first word reached: every later match is among them (and their entries are reset).
    let candidates = new Int32Array(0);
    let matches = 0;
    try {
      for (let index = 0; index < last; index++) {
        const count = this.reach(query.terms[index]!, index);
        for (let i = 0; i < count; i++) {
          const position = reached[i]!;
          matched[position] = index + 1;
          scores[position]! += WORTH_OF_PLACES[best[position]!]!;
          best[position] = 0;
        }
        if (index === 0) candidates = reached.slice(0, count);
      }
      // What the last word reaches matched every word: it is scored, filtered and paged in one pass.
      matches = this.reach(query.terms[last]!, last);
      return this.page(query, matches);
    } finally {
      for (let i = 0; i < matches; i++) {
        best[reached[i]!] = 0;
        scores[reached[i]!] = 0;
      }
      for (const position of candidates) {
        scores[position] = 0;
        matched[position] = 0;
      }
    }
  }

  /** The page of the `count` matches in `reached` (their last word's kinds in `best`), and their total. */
  private page(query: SearchQuery, count: number): { ids: number[]; total: number } {
    const { scores, best, reached, hits } = this.scratch!;
    const { priceCents, shippingCostCents, stock } = this.facts;
    const members = query.categoryId === undefined ? undefined : this.categoryMembers(query.categoryId);
    const from = (query.page - 1) * query.limit;
    const wanted = from + query.limit;
    // A first page by score keeps its best `wanted` as it goes (best first; ties to the smaller position, so
    // id); other orders and deep pages sort the hits.
    const keepBest = query.order === undefined && wanted <= 64;
    const top: number[] = [];
    let total = 0;
    for (let i = 0; i < count; i++) {
      const position = reached[i]!;
      const score = scores[position]! + WORTH_OF_PLACES[best[position]!]!;
      scores[position] = score;
      if (
        (!query.includeOutOfStock && stock[position]! <= 0) ||
        (members !== undefined && !members.has(position)) ||
        (query.minCents !== undefined && priceCents[position]! < query.minCents) ||
        (query.maxCents !== undefined && priceCents[position]! > query.maxCents) ||
        (query.freeShipping && shippingCostCents[position] !== 0)
      )
        continue;
      total++;
      if (!keepBest) {
        hits[total - 1] = position;
        continue;
      }
      if (top.length === wanted) {
        const worst = top[wanted - 1]!;
        if (score < scores[worst]! || (score === scores[worst] && position > worst)) continue;
      }
      let at = top.length;
      while (
        at > 0 &&
        (scores[top[at - 1]!]! < score || (scores[top[at - 1]!] === score && top[at - 1]! > position))
      )
        at--;
      top.splice(at, 0, position);
      if (top.length > wanted) top.pop();
    }
    const ordered = keepBest ? top : this.sorted(hits.subarray(0, total), query.order, wanted);
    return { ids: ordered.slice(from).map((position) => this.ids[position]!), total };
  }

  private categoryMembers(categoryId: number): Set<number> {
    return new Set(this.categoryProducts.get(categoryId) ?? []);
  }

  /** The first `count` hits in the listing's order; ties go to the smaller position (so id). */
  private sorted(hits: Int32Array, order: SearchQuery["order"], count: number): number[] {
    const { priceCents, rating, ratingCount } = this.facts;
    const scores = this.scratch!.scores;
    const compare =
      order === "ASC"
        ? (a: number, b: number) => priceCents[a]! - priceCents[b]! || a - b
        : order === "DESC"
          ? (a: number, b: number) => priceCents[b]! - priceCents[a]! || a - b
          : order === "RATING"
            ? (a: number, b: number) => rating[b]! - rating[a]! || ratingCount[b]! - ratingCount[a]! || a - b
            : (a: number, b: number) => scores[b]! - scores[a]! || a - b;
    return Array.from(hits.slice().sort(compare).subarray(0, count));
  }

  /**
   * Finds the products one word of the search reaches among those every earlier word matched: their
   * positions go to `reached` (how many is returned), the best kind of match by place to `best`.
   */
  private reach(term: string, index: number): number {
    const { matched, best, reached } = this.scratch!;
    const exact = new Set(exactForms(term));
    const typos = term.length < 3 ? new Set<string>() : this.corrections(term, exact);
    const kindOf = (word: string) =>
      exact.has(word) ? EXACT : word.startsWith(term) ? PREFIX : typos.has(word) ? TYPO : 0;

    let count = 0;
    const { starts, postings } = this;
    const words = [
      ...this.prefixed(term),
      ...[...exact, ...typos].flatMap((word) => {
        const n = this.numberOf(word);
        return n === undefined || word.startsWith(term) ? [] : [n];
      }),
    ];
    for (const word of words) {
      const kind = kindOf(this.vocabulary[word]!);
      for (let i = starts[word]!, end = starts[word + 1]!; i < end; i++) {
        const posting = postings[i]!;
        const position = posting >> 3;
        if (matched[position] !== index) continue; // an earlier word didn't match it: it is out
        const before = best[position]!;
        if (before === 0) reached[count++] = position;
        best[position] = RAISE[(before << 6) | ((posting & 7) << 2) | kind]!;
      }
    }
    for (const [categoryId, categoryWords] of this.categoryWords) {
      const kind = Math.max(0, ...categoryWords.map(kindOf));
      if (kind === 0) continue;
      for (const position of this.categoryProducts.get(categoryId) ?? []) {
        if (matched[position] !== index) continue;
        const before = best[position]!;
        if (before === 0) reached[count++] = position;
        best[position] = RAISE[(before << 6) | (CATEGORY << 2) | kind]!;
      }
    }
    return count;
  }

  /** The number of a catalogue word, if it is one. */
  private numberOf(word: string): number | undefined {
    const at = this.firstAtOrAfter(word);
    const n = this.sortedWords[at];
    return n !== undefined && this.vocabulary[n] === word ? n : undefined;
  }

  /** Where `word` is, or would be, in the sorted vocabulary. */
  private firstAtOrAfter(word: string): number {
    let low = 0;
    let high = this.sortedWords.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (this.vocabulary[this.sortedWords[middle]!]! < word) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /** The numbers of the catalogue words that start with `term`, itself included. */
  private prefixed(term: string): number[] {
    const sorted = this.sortedWords;
    const result: number[] = [];
    for (
      let i = this.firstAtOrAfter(term);
      i < sorted.length && this.vocabulary[sorted[i]!]!.startsWith(term);
      i++
    )
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

  /** Searches are answered without waiting for a first build. */
  get built(): boolean {
    return this.index !== undefined;
  }

  /** Products in the index now, and how long its last full build took (for /api/metrics). */
  get stats(): { products: number; lastBuildSeconds: number } {
    return { products: this.index?.size ?? 0, lastBuildSeconds: this.lastBuildMs / 1000 };
  }

  private lastBuildMs = 0;

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
    const started = performance.now();
    const promise = SearchIndex.load(run)
      .then((index) => {
        this.lastBuildMs = performance.now() - started;
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
