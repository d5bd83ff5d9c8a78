/** JavaScript strings take up to two bytes a character; the bound errs on the safe side. */
const stringBytes = (text: string) => text.length * 2;

/**
 * A small in-process cache with a time to live, bounded in bytes (least recently used entries go first).
 * Writes to the catalogue, by any process, clear the catalogue's caches (CatalogCache.changed).
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
