import type { CatalogReference } from "../modules/catalog/service";

/**
 * A small in-process cache with a time to live. Writes to the catalogue call clear(); the TTL bounds
 * staleness when another process (behind a load balancer) made the change.
 */
export class TtlCache<V> {
  private readonly entries = new Map<string, { value: V; expiresAt: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 2000,
  ) {}

  get enabled(): boolean {
    return this.ttlMs > 0;
  }

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt < Date.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  set(key: string, value: V): void {
    if (!this.enabled) return;
    if (this.entries.size >= this.maxEntries) {
      // Maps iterate in insertion order: drop the oldest entry.
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, { value, expiresAt: Date.now() + this.ttlMs });
  }

  clear(): void {
    this.entries.clear();
  }
}

/**
 * What the catalogue caches: whole anonymous replies by URL, the exact count of each filter (an exact
 * count(*) costs ~20 ms at 100k products, far more than the page itself) and the categories and sales
 * snapshot. Any catalogue write clears them all.
 */
export class CatalogCache {
  readonly replies: TtlCache<string>;
  readonly counts: TtlCache<number>;
  /** Categories and sales as the product replies need them (catalog/service.ts). */
  readonly reference: TtlCache<CatalogReference>;

  constructor(options: { replyTtlSeconds: number; countTtlSeconds: number }) {
    this.replies = new TtlCache(options.replyTtlSeconds * 1000);
    this.counts = new TtlCache(options.countTtlSeconds * 1000);
    this.reference = new TtlCache(options.countTtlSeconds * 1000, 1);
  }

  clear(): void {
    this.replies.clear();
    this.counts.clear();
    this.reference.clear();
  }
}
