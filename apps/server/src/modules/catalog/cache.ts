import type { CatalogReference } from "./service";

/** What the reply cache may hold in all: junk queries can't grow the process past it. */
export const REPLY_CACHE_MAX_BYTES = 32 * 1024 * 1024;
const SMALL_CACHE_MAX_BYTES = 4 * 1024 * 1024;

/** JavaScript strings take up to two bytes a character; the bound errs on the safe side. */
const stringBytes = (text: string) => text.length * 2;

/**
 * A small in-process cache with a time to live, bounded in bytes (least recently used entries go first).
 * Writes to the catalogue call clear(); the TTL bounds staleness when another process (behind a load
 * balancer) made the change.
 */
export class TtlCache<V> {
  private readonly entries = new Map<string, { value: V; expiresAt: number; bytes: number }>();
  private totalBytes = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxBytes: number,
    private readonly sizeOf: (value: V) => number = () => 64,
  ) {}

  get enabled(): boolean {
    return this.ttlMs > 0;
  }

  /** Bytes held now, keys included. */
  get bytes(): number {
    return this.totalBytes;
  }

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.expiresAt < Date.now()) {
      this.totalBytes -= entry.bytes;
      return undefined;
    }
    // Maps iterate in insertion order: a hit moves to the end, so the front is the least recently used.
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: string, value: V): void {
    if (!this.enabled) return;
    const bytes = stringBytes(key) + this.sizeOf(value);
    if (bytes > this.maxBytes) return;
    this.delete(key);
    for (const oldest of this.entries.keys()) {
      if (this.totalBytes + bytes <= this.maxBytes) break;
      this.delete(oldest);
    }
    this.entries.set(key, { value, expiresAt: Date.now() + this.ttlMs, bytes });
    this.totalBytes += bytes;
  }

  clear(): void {
    this.entries.clear();
    this.totalBytes = 0;
  }

  private delete(key: string) {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.totalBytes -= entry.bytes;
  }
}

/**
 * What the catalogue caches: whole replies by what was asked (the parsed query, never the raw URL) and for
 * whom, the exact count of each filter (an exact count(*) costs ~20 ms at 100k products, far more than the
 * page itself) and the categories and sales snapshot. Any catalogue write clears them all.
 */
export class CatalogCache {
  readonly replies: TtlCache<string>;
  readonly counts: TtlCache<number>;
  /** Categories and sales as the product replies need them (service.ts). */
  readonly reference: TtlCache<CatalogReference>;

  constructor(options: { replyTtlSeconds: number; countTtlSeconds: number; replyMaxBytes?: number }) {
    this.replies = new TtlCache(
      options.replyTtlSeconds * 1000,
      options.replyMaxBytes ?? REPLY_CACHE_MAX_BYTES,
      stringBytes,
    );
    this.counts = new TtlCache(options.countTtlSeconds * 1000, SMALL_CACHE_MAX_BYTES, () => 8);
    this.reference = new TtlCache(options.countTtlSeconds * 1000, Number.MAX_SAFE_INTEGER);
  }

  clear(): void {
    this.replies.clear();
    this.counts.clear();
    this.reference.clear();
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
