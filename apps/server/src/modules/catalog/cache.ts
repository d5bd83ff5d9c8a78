import type { Change } from "../../db/changes";
import { LiveSearchIndex } from "./search/live-index";
import { TtlCache } from "./ttl-cache";
import type { CatalogReference } from "./reference";
import type { FacetedCounts, FacetedCountsCache } from "./facets";

/** About what a faceted listing's entry holds: its ids, or its values' texts and numbers and the labels. */
const facetedBytes = (entry: FacetedCounts | Int32Array) => {
  if (entry instanceof Int32Array) return entry.byteLength;
  const { facets, facetAttributes } = entry;
  return (
    8 +
    Object.values(facets ?? {}).reduce(
      (sum, values) =>
        sum + values.reduce((bytes, { value, label }) => bytes + 64 + 2 * (value.length + label.length), 0),
      0,
    ) +
    64 * (facetAttributes?.length ?? 0)
  );
};

/** What the reply cache may hold in all: junk queries can't grow the process past it. */
export const REPLY_CACHE_MAX_BYTES = 32 * 1024 * 1024;
const SMALL_CACHE_MAX_BYTES = 4 * 1024 * 1024;
/** Faceted listings' matches (40 of 100k products each) and counts. */
const FACETS_CACHE_MAX_BYTES = 16 * 1024 * 1024;

/** A cached reply's JSON as bytes: a string would be encoded again on every send, bytes go out as they are. */
const toJsonBytes = (value: unknown) => Buffer.from(JSON.stringify(value));

/**
 * What the catalogue caches: whole replies by what was asked (the parsed query, never the raw URL) and for
 * whom, the exact count of each filter (an exact count(*) costs ~20 ms at 100k products, far more than the
 * page itself) and the categories and sales snapshot. Any catalogue write clears the replies.
 */
export class CatalogCache {
  /** Replies as the UTF-8 bytes sent: encoded once, not on every hit. */
  readonly replies: TtlCache<Buffer>;
  readonly counts: TtlCache<number>;
  /** A faceted listing's matches and facet counts by its filters (facets.ts). */
  readonly facets: FacetedCountsCache;
  /** Categories and sales as the product replies need them (service.ts). */
  readonly reference: TtlCache<CatalogReference>;
  /** What search reads (search/search-index.ts). */
  readonly search: LiveSearchIndex;

  constructor(options: { replyTtlSeconds: number; countTtlSeconds: number; replyMaxBytes?: number }) {
    this.replies = new TtlCache(
      options.replyTtlSeconds * 1000,
      options.replyMaxBytes ?? REPLY_CACHE_MAX_BYTES,
      (body) => body.byteLength,
    );
    this.counts = new TtlCache(options.countTtlSeconds * 1000, SMALL_CACHE_MAX_BYTES, () => 8);
    this.facets = new TtlCache(options.countTtlSeconds * 1000, FACETS_CACHE_MAX_BYTES, facetedBytes);
    this.reference = new TtlCache(options.countTtlSeconds * 1000, Number.MAX_SAFE_INTEGER);
    // Building the index takes ~5 s of CPU at 100k products: it is built once and then updated product by
    // product as the notifications of every process's writes name them (db/changes.ts, ADR 0014).
    this.search = new LiveSearchIndex();
  }

  /** Replies being computed now, by key: the first request computes, the others wait for its answer. */
  private readonly computing = new Map<string, Promise<Buffer>>();
  /** Bumped by every clear(): a reply computed from the catalogue as it was before is not kept. */
  private generation = 0;

  /**
   * The JSON reply for this key: from the cache, or joined to the same computation already under way (200
   * first requests for one key run its queries once, not 200 times), or computed now and cached.
   */
  async reply(
    key: string,
    compute: () => Promise<unknown>,
  ): Promise<{ body: string | Buffer; from: "hit" | "miss" }> {
    // Off (TTL 0) means off: every request runs its own queries, which is what the uncached benchmark measures.
    // Its JSON is sent as text: node:http encodes it as it writes, which costs less than encoding it first.
    if (!this.replies.enabled) return { body: JSON.stringify(await compute()), from: "miss" };
    const hit = this.replies.get(key);
    if (hit !== undefined) return { body: hit, from: "hit" };
    let pending = this.computing.get(key);
    if (!pending) {
      const generation = this.generation;
      pending = compute()
        .then((value) => {
          const body = toJsonBytes(value);
          if (generation === this.generation) this.replies.set(key, body);
          return body;
        })
        .finally(() => {
          if (this.computing.get(key) === pending) this.computing.delete(key);
        });
      this.computing.set(key, pending);
    }
    return { body: await pending, from: "miss" };
  }

  /**
   * A notification (db/changes.ts): every reply goes (each is cheap to compute again), the references when
   * categories or sales changed, and the search index updates what it names.
   */
  changed(change: Change): void {
    this.forgetReplies();
    if (change.kind === "catalog" || change.kind === "categories" || change.kind === "reference")
      this.reference.clear();
    this.search.changed(change);
  }

  /**
   * This process wrote to the catalogue (products, stock, ratings, sales, networks): its replies and
   * references go at once, and searches wait until the write's notification came back (`caughtUp`), so whoever
   * wrote reads what they wrote. Without one, the index is read again.
   */
  wroteHere(caughtUp: Promise<boolean>): void {
    this.forgetReplies();
    this.reference.clear();
    this.search.awaitWrite(
      caughtUp.then((heard) => {
        if (!heard) this.search.changed({ kind: "catalog" });
      }),
    );
  }

  /**
   * A checkout held or released units, or a hold ended (hold-expiry.ts): replies show stock less holds, but
   * the search index reads the shelf (which holds don't move), so it stays as it is.
   */
  holdsChanged(): void {
    this.forgetReplies();
  }

  private forgetReplies() {
    this.generation++;
    this.computing.clear();
    this.replies.clear();
    this.counts.clear();
    this.facets.clear();
  }
}

/**
 * The reply cache's key: the route, who the reply is for, and the parsed and normalised input. Unknown
 * parameters were dropped by the schema and values were converted, so `?limit=16&x=1` and `?limit=16` are one
 * entry, and no spelling of a parameter (`%74rue`) can reach another audience's entry.
 */
export function replyKey(route: string, audience: "public" | "admin", input: unknown): string {
  return `${route}|${audience}|${JSON.stringify(input)}`;
}
