/** JavaScript strings take up to two bytes a character; the bound errs on the safe side. */
const stringBytes = (text: string) => text.length * 2;

/**
 * A small in-process cache with a time to live, bounded in bytes (least recently used entries go first).
 * Writes to the catalogue, by any process, clear the catalogue's caches (CatalogCache.changed).
 */
export class TtlCache<V> {
  private readonly entries = new Map<string, { value: V; expiresAt: number; bytes: number }>();
  /** The key last set or hit: the Map's last entry. */
  private newest: string | undefined;
  private totalBytes = 0;
  /** Loads under way, by key: callers arriving meanwhile wait for the same one. */
  private readonly loading = new Map<string, Promise<V>>();
  /** Bumped by clear(): a value loaded from the data as it was before is not kept. */
  private generation = 0;

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
    if (entry.expiresAt < Date.now()) {
      this.delete(key);
      return undefined;
    }
    // Maps iterate in insertion order: a hit moves to the end, so the front is the least recently used. The
    // newest entry is there already, and moving it anyway made the Map rebuild its table every few hits, in
    // the old generation where V8 keeps a long-lived Map's tables: a full collection every ~2 s under load.
    if (key !== this.newest) {
      this.entries.delete(key);
      this.entries.set(key, entry);
      this.newest = key;
    }
    return entry.value;
  }

  /**
   * The entry, or the value `load` gives, kept for next time. When the entry expires under load, the requests
   * arriving meanwhile wait for one load instead of each running it (under the catalogue benchmark's 50
   * connections, each expiry of a count sent 50 counts of 100k products at once). A load that fails is the
   * caller's own: those who joined it load for themselves (it may have run in the first caller's transaction).
   */
  async getOrLoad(key: string, load: () => Promise<V>): Promise<V> {
    const hit = this.get(key);
    if (hit !== undefined) return hit;
    if (!this.enabled) return load();
    const pending = this.loading.get(key);
    if (pending) return pending.catch(load);
    const generation = this.generation;
    const loaded = load();
    this.loading.set(key, loaded);
    try {
      const value = await loaded;
      if (generation === this.generation) this.set(key, value);
      return value;
    } finally {
      if (this.loading.get(key) === loaded) this.loading.delete(key);
    }
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
    this.newest = key;
    this.totalBytes += bytes;
  }

  clear(): void {
    this.generation++;
    this.loading.clear();
    this.entries.clear();
    this.newest = undefined;
    this.totalBytes = 0;
  }

  private delete(key: string) {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    if (key === this.newest) this.newest = undefined;
    this.totalBytes -= entry.bytes;
  }
}
