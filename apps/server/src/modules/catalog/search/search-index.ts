import type { RawQuery } from "../../../db/raw";
import {
  type CategoryRow,
  type ChangedProductRow,
  type ChangedRows,
  type FactsRow,
  type IndexChanges,
  type LinkRow,
} from "./catalogue-rows";
import { exactForms, placesOf, words } from "./words";
import { EXACT, PREFIX, TYPO, CATEGORY, RAISE, WORTH_OF_PLACES } from "./scoring";
import { indexCatalogue, type BuiltIndex } from "./build";
import { Vocabulary } from "./vocabulary";
import { grown, lowerBound } from "./typed-arrays";

/**
 * The catalogue's search index, held in each server process (ADR 0011). A search ranks every product that
 * matches ('usb' matches half of a 100k catalogue), which PostgreSQL did at ~40 requests a second; here a
 * broad search takes about a millisecond, and only the page's 16 products are read from the database.
 *
 * Matching and ranking: every word of the search must match the product — its title,
 * name, description or one of its categories' names — as the word itself (or its singular/plural), as the
 * start of a longer word ('logi' → logitech), or as the catalogue words nearest to it by trigram similarity
 * ('mose' → mouse, as pg_trgm measures it). A word is worth, in each place it matched, the place's worth
 * (title and categories 1, name 0.5, description 0.2) times the best kind of match there (the word 1,
 * a prefix 0.7, a typo's correction 0.4); a product's score is the sum over the words. Ties go by id.
 */

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

/** Once the postings of changed products reach this share of the built ones, they are merged in. */
const MERGE_SHARE = 1 / 16;

/**
 * The index is built once from the whole catalogue, then kept up to date product by product:
 * a product that changes has its built postings ignored (`rewritten`) and its current words posted in
 * `added`, which searches read beside the built postings; a new product takes the next position. Once the
 * added postings are a sixteenth of the built ones, the two are merged, in memory, in one pass.
 */
export class SearchIndex {
  /** Product ids by position, in id order: `count` of them, in arrays with room for more. */
  private ids: Int32Array;
  private count: number;
  /** 1 where the product is in the catalogue: a retired one keeps its position, empty, until the next build. */
  private live: Uint8Array;
  private liveCount: number;
  /** The catalogue's words by number, with their lookups (vocabulary.ts). */
  private readonly words: Vocabulary;
  /** Built postings of word w: postings[starts[w]..starts[w+1]), each position << 3 | places. */
  private starts: Int32Array;
  private postings: Int32Array;
  /** 1 where the product changed since the build: its built postings no longer count. */
  private rewritten: Uint8Array;
  /** The postings of products changed since the build, by word; each such product's word numbers. */
  private readonly added = new Map<number, number[]>();
  private readonly addedWords = new Map<number, Int32Array>();
  private addedPostings = 0;
  /** Category id → the words of its name, and the positions of its products (sorted). */
  private categoryWords = new Map<number, string[]>();
  private categoryProducts = new Map<number, Int32Array>();
  /** The filters' and sorts' facts by position. */
  private facts: Facts;

  private constructor(built: BuiltIndex) {
    this.ids = built.ids;
    this.count = this.liveCount = built.ids.length;
    this.live = new Uint8Array(this.count).fill(1);
    this.rewritten = new Uint8Array(this.count);
    this.words = new Vocabulary(built);
    this.starts = built.starts;
    this.postings = built.postings;
    this.facts = emptyFacts(this.count);
  }

  /** How many products it holds. */
  get size(): number {
    return this.liveCount;
  }

  /** Reads the live catalogue and indexes it. */
  static async load(run: RawQuery): Promise<SearchIndex> {
    const { built, products, categories, links } = await indexCatalogue(run);
    const index = new SearchIndex(built);
    index.setCategories(categories);
    index.setLinks(links);
    index.updateFacts(products);
    return index;
  }

  /**
   * Applies what changed, as read by readChanges: in place, between two searches. False, with nothing
   * changed, when a new product's id is below the last one's (two creations committed out of order):
   * positions keep id order, so only a new build can place it.
   */
  apply(changes: IndexChanges, rows: ChangedRows): boolean {
    const current = new Map(rows.products.map((row) => [row.id, row]));
    const asked = [...changes.products].sort((a, b) => a - b);
    const last = this.count > 0 ? this.ids[this.count - 1]! : 0;
    if (asked.some((id) => current.has(id) && id <= last && this.positionOf(id) === undefined)) return false;

    if (rows.categories) this.setCategories(rows.categories);
    if (rows.links) this.setLinks(rows.links);
    const number = this.words.numbering();
    for (const id of asked) {
      const row = current.get(id);
      let position = this.positionOf(id);
      if (position === undefined) {
        if (!row) continue;
        position = this.append(id);
      }
      this.forget(position);
      if (row) this.place(position, row, number);
    }
    this.words.sortNewWords();
    this.updateFacts(rows.stock);
    if (rows.allStock) this.updateFacts(rows.allStock);
    if (this.addedPostings > Math.max(4_096, this.postings.length * MERGE_SHARE)) this.merge();
    return true;
  }

  private setCategories(rows: readonly CategoryRow[]) {
    this.categoryWords = new Map(rows.map((row) => [row.id, words(row.name)]));
  }

  private setLinks(links: readonly LinkRow[]) {
    const byCategory = new Map<number, number[]>();
    for (const link of links) {
      const position = this.positionOf(link.productId);
      if (position === undefined || !this.live[position]) continue;
      const list = byCategory.get(link.categoryId);
      if (list) list.push(position);
      else byCategory.set(link.categoryId, [position]);
    }
    this.categoryProducts = new Map(
      [...byCategory].map(([id, positions]) => [id, Int32Array.from(positions).sort()]),
    );
  }

  /** Prices, shipping, stock and ratings of products in the index (others are skipped). */
  private updateFacts(rows: readonly FactsRow[]) {
    const facts = this.facts;
    for (const row of rows) {
      const position = this.positionOf(row.id);
      if (position === undefined || !this.live[position]) continue;
      facts.priceCents[position] = row.priceCents;
      facts.shippingCostCents[position] = row.shippingCostCents;
      facts.stock[position] = row.stock;
      facts.rating[position] = row.ratingSum / Math.max(row.ratingCount, 1);
      facts.ratingCount[position] = row.ratingCount;
    }
  }

  private positionOf(id: number): number | undefined {
    const at = lowerBound(this.ids, id, this.count);
    return at < this.count && this.ids[at] === id ? at : undefined;
  }

  /** A new product's position, after the last. */
  private append(id: number): number {
    if (this.count === this.ids.length) {
      const capacity = Math.max(64, this.count * 2);
      this.ids = grown(this.ids, capacity);
      this.live = grown(this.live, capacity);
      this.rewritten = grown(this.rewritten, capacity);
      const facts = this.facts;
      this.facts = {
        priceCents: grown(facts.priceCents, capacity),
        shippingCostCents: grown(facts.shippingCostCents, capacity),
        stock: grown(facts.stock, capacity),
        rating: grown(facts.rating, capacity),
        ratingCount: grown(facts.ratingCount, capacity),
      };
    }
    const position = this.count++;
    this.ids[position] = id;
    return position;
  }

  /** Takes a product out: its postings, its categories, its place among the products found. */
  private forget(position: number) {
    this.rewritten[position] = 1;
    const before = this.addedWords.get(position);
    if (before) {
      for (const n of before) {
        const list = this.added.get(n)!;
        list.splice(
          list.findIndex((posting) => posting >> 3 === position),
          1,
        );
        if (list.length === 0) this.added.delete(n);
      }
      this.addedPostings -= before.length;
      this.addedWords.delete(position);
    }
    for (const [categoryId, members] of this.categoryProducts) {
      const at = lowerBound(members, position);
      if (members[at] !== position) continue;
      const without = new Int32Array(members.length - 1);
      without.set(members.subarray(0, at));
      without.set(members.subarray(at + 1), at);
      this.categoryProducts.set(categoryId, without);
    }
    if (this.live[position]) {
      this.live[position] = 0;
      this.liveCount--;
    }
  }

  /** Puts a product in at its position: its words, categories and facts. */
  private place(position: number, row: ChangedProductRow, number: (word: string) => number) {
    const places = placesOf(row, number);
    const numbers = new Int32Array(places.size);
    let i = 0;
    for (const [n, place] of places) {
      numbers[i++] = n;
      const posting = (position << 3) | place;
      const list = this.added.get(n);
      if (list) list.push(posting);
      else this.added.set(n, [posting]);
    }
    this.addedWords.set(position, numbers);
    this.addedPostings += numbers.length;
    for (const categoryId of row.categoryIds) {
      const members = this.categoryProducts.get(categoryId) ?? new Int32Array(0);
      const at = lowerBound(members, position);
      const withIt = new Int32Array(members.length + 1);
      withIt.set(members.subarray(0, at));
      withIt[at] = position;
      withIt.set(members.subarray(at), at + 1);
      this.categoryProducts.set(categoryId, withIt);
    }
    this.live[position] = 1;
    this.liveCount++;
    this.updateFacts([row]);
  }

  /** The added postings join the built ones, without the postings of products changed since. */
  private merge() {
    const words = this.words.size;
    const built = this.starts.length - 1;
    const { starts: oldStarts, postings: oldPostings, rewritten } = this;
    const starts = new Int32Array(words + 1);
    for (let n = 0; n < words; n++) {
      let kept = this.added.get(n)?.length ?? 0;
      if (n < built)
        for (let i = oldStarts[n]!, end = oldStarts[n + 1]!; i < end; i++)
          if (!rewritten[oldPostings[i]! >> 3]) kept++;
      starts[n + 1] = starts[n]! + kept;
    }
    const postings = new Int32Array(starts[words]!);
    for (let n = 0; n < words; n++) {
      let at = starts[n]!;
      if (n < built)
        for (let i = oldStarts[n]!, end = oldStarts[n + 1]!; i < end; i++)
          if (!rewritten[oldPostings[i]! >> 3]) postings[at++] = oldPostings[i]!;
      for (const posting of this.added.get(n) ?? []) postings[at++] = posting;
    }
    this.starts = starts;
    this.postings = postings;
    this.rewritten.fill(0);
    this.added.clear();
    this.addedWords.clear();
    this.addedPostings = 0;
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
    // As many entries as positions can be: new products may have been added since the last search.
    const size = this.ids.length;
    if (this.scratch?.scores.length !== size)
      this.scratch = {
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
    const typos =
      term.length < 3 ? new Set<string>() : this.words.corrections(term, exact, (n) => this.isUsed(n));
    const kindOf = (word: string) =>
      exact.has(word) ? EXACT : word.startsWith(term) ? PREFIX : typos.has(word) ? TYPO : 0;

    let count = 0;
    const { starts, postings, rewritten } = this;
    const built = starts.length - 1;
    const words = [
      ...this.words.prefixed(term),
      ...[...exact, ...typos].flatMap((word) => {
        const n = this.words.numberOf(word);
        return n === undefined || word.startsWith(term) ? [] : [n];
      }),
    ];
    for (const word of words) {
      const kind = kindOf(this.words.word(word));
      if (word < built)
        for (let i = starts[word]!, end = starts[word + 1]!; i < end; i++) {
          const posting = postings[i]!;
          const position = posting >> 3;
          // An earlier word didn't match it, or it changed since the build (its words are in `added`).
          if (matched[position] !== index || rewritten[position]) continue;
          const before = best[position]!;
          if (before === 0) reached[count++] = position;
          best[position] = RAISE[(before << 6) | ((posting & 7) << 2) | kind]!;
        }
      for (const posting of this.added.get(word) ?? []) {
        const position = posting >> 3;
        if (matched[position] !== index) continue;
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

  /** Some product has the word now: words of products changed or retired since stay in the vocabulary. */
  private isUsed(n: number): boolean {
    if (this.added.has(n)) return true;
    if (n >= this.starts.length - 1) return false;
    for (let i = this.starts[n]!, end = this.starts[n + 1]!; i < end; i++)
      if (!this.rewritten[this.postings[i]! >> 3]) return true;
    return false;
  }
}
