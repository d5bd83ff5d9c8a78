import { afterEach, describe, expect, it, vi } from "vitest";
import { CatalogCache, TtlCache } from "./catalog-cache";

afterEach(() => vi.useRealTimers());

describe("TtlCache", () => {
  it("forgets entries after their time to live", () => {
    vi.useFakeTimers();
    const cache = new TtlCache<string>(1000);
    cache.set("a", "1");
    vi.advanceTimersByTime(999);
    expect(cache.get("a")).toBe("1");
    vi.advanceTimersByTime(2);
    expect(cache.get("a")).toBeUndefined();
  });

  it("drops the oldest entry when full, and stores nothing with a zero TTL", () => {
    const cache = new TtlCache<number>(60_000, 2);
    cache.set("a", 1);
    cache.set("b", 2);
    cache.set("c", 3);
    expect([cache.get("a"), cache.get("b"), cache.get("c")]).toEqual([undefined, 2, 3]);
    const off = new TtlCache<number>(0);
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
  });
});
