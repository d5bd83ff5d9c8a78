import { afterEach, describe, expect, it, vi } from "vitest";
import { CatalogCache, TtlCache } from "./cache";

afterEach(() => vi.useRealTimers());

describe("TtlCache", () => {
  it("forgets entries after their time to live", () => {
    vi.useFakeTimers();
    const cache = new TtlCache<string>(1000, 1024);
    cache.set("a", "1");
    vi.advanceTimersByTime(999);
    expect(cache.get("a")).toBe("1");
    vi.advanceTimersByTime(2);
    expect(cache.get("a")).toBeUndefined();
    expect(cache.bytes).toBe(0);
  });

  it("stays within its bytes, dropping the least recently used entries", () => {
    const cache = new TtlCache<string>(60_000, 100, (value) => value.length * 2);
    cache.set("a", "x".repeat(20)); // 42 bytes
    cache.set("b", "y".repeat(20));
    expect(cache.get("a")).toBeDefined(); // a is now the most recently used
    cache.set("c", "z".repeat(20));
    expect([cache.get("a"), cache.get("b"), cache.get("c")].map(Boolean)).toEqual([true, false, true]);
    expect(cache.bytes).toBeLessThanOrEqual(100);
    // An entry larger than the whole cache is not kept, and evicts nothing.
    cache.set("huge", "h".repeat(100));
    expect(cache.get("huge")).toBeUndefined();
    expect(cache.get("a")).toBeDefined();
  });

  it("counts a replaced entry once, and stores nothing with a zero TTL", () => {
    const cache = new TtlCache<string>(60_000, 1000, (value) => value.length);
    cache.set("k", "12345");
    cache.set("k", "123");
    expect(cache.bytes).toBe(2 + 3);
    const off = new TtlCache<number>(0, 1000);
    off.set("a", 1);
    expect(off.enabled).toBe(false);
    expect(off.get("a")).toBeUndefined();
  });
});

describe("CatalogCache", () => {
  it("clears replies and counts together", () => {
    const cache = new CatalogCache({ replyTtlSeconds: 60, countTtlSeconds: 60 });
    cache.replies.set("/api/products", "{}");
    cache.counts.set("{}", 58);
    cache.clear();
    expect(cache.replies.get("/api/products")).toBeUndefined();
    expect(cache.counts.get("{}")).toBeUndefined();
    expect(cache.replies.bytes).toBe(0);
  });
});
