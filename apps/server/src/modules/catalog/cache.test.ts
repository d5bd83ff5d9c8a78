import { afterEach, describe, expect, it, vi } from "vitest";
import { CatalogCache } from "./cache";
import { TtlCache } from "./ttl-cache";

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

  it("keeps the order of use through repeated hits of the newest entry and entries set again", () => {
    // Two 42-byte entries fit in 100 bytes; a third drops the least recently used.
    const cache = new TtlCache<string>(60_000, 100, (value) => value.length * 2);
    const value = "x".repeat(20);
    const kept = () => ["a", "b", "c"].filter((key) => cache.get(key) !== undefined);
    cache.set("a", value);
    expect(cache.get("a")).toBe(value);
    expect(cache.get("a")).toBe(value);
    cache.set("b", value);
    expect(cache.get("a")).toBe(value); // a is the most recently used again, although it was hit last
    cache.set("c", value);
    expect(kept()).toEqual(["a", "c"]);
    cache.set("a", value); // set again: now the most recently used
    cache.set("b", value);
    expect(kept()).toEqual(["a", "b"]);
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

describe("TtlCache.getOrLoad (an expired count or reference under load is loaded once)", () => {
  /** A load that counts its runs and answers (or fails) when the test lets it. */
  function gatedLoad<V>(value: V) {
    let runs = 0;
    let settle: (fail: boolean) => void = () => {};
    const gate = new Promise<boolean>((resolve) => (settle = resolve));
    return {
      load: async () => {
        runs++;
        if (await gate) throw new Error("database away");
        return value;
      },
      answer: () => settle(false),
      fail: () => settle(true),
      runs: () => runs,
    };
  }

  it("gives 50 callers arriving while the entry loads that one load, and keeps it", async () => {
    const cache = new TtlCache<number>(60_000, 1024);
    const count = gatedLoad(100_000);
    const callers = Array.from({ length: 50 }, () => cache.getOrLoad("shape", count.load));
    count.answer();
    expect(new Set(await Promise.all(callers))).toEqual(new Set([100_000]));
    expect(count.runs()).toBe(1);
    expect(cache.get("shape")).toBe(100_000);
  });

  it("loads again once the entry expired", async () => {
    vi.useFakeTimers();
    const cache = new TtlCache<number>(1000, 1024);
    let runs = 0;
    const load = async () => ++runs;
    expect(await cache.getOrLoad("k", load)).toBe(1);
    expect(await cache.getOrLoad("k", load)).toBe(1);
    vi.advanceTimersByTime(1001);
    expect(await cache.getOrLoad("k", load)).toBe(2);
  });

  it("lets those who joined a failed load run their own (it may have failed in another's transaction)", async () => {
    const cache = new TtlCache<number>(60_000, 1024);
    const first = gatedLoad(1);
    const own = gatedLoad(2);
    const failed = cache.getOrLoad("k", first.load);
    const joined = cache.getOrLoad("k", own.load);
    first.fail();
    own.answer();
    await expect(failed).rejects.toThrow("database away");
    expect(await joined).toBe(2);
    expect([first.runs(), own.runs()]).toEqual([1, 1]);
  });

  it("neither keeps nor shares a value loaded before clear()", async () => {
    const cache = new TtlCache<number>(60_000, 1024);
    const before = gatedLoad(1);
    const early = cache.getOrLoad("k", before.load);
    cache.clear();
    const after = gatedLoad(2);
    const late = cache.getOrLoad("k", after.load);
    before.answer();
    after.answer();
    expect([await early, await late]).toEqual([1, 2]);
    expect(cache.get("k")).toBe(2);
  });

  it("with a zero TTL, every caller loads", async () => {
    const cache = new TtlCache<number>(0, 1024);
    let runs = 0;
    const load = async () => ++runs;
    expect(await Promise.all([cache.getOrLoad("k", load), cache.getOrLoad("k", load)])).toEqual([1, 2]);
  });
});

describe("CatalogCache", () => {
  it("clears replies and counts together when a product changes", () => {
    const cache = new CatalogCache({ replyTtlSeconds: 60, countTtlSeconds: 60 });
    cache.replies.set("/api/products", Buffer.from("{}"));
    cache.counts.set("{}", 58);
    cache.changed({ kind: "products", ids: [1] });
    expect(cache.replies.get("/api/products")).toBeUndefined();
    expect(cache.counts.get("{}")).toBeUndefined();
    expect(cache.replies.bytes).toBe(0);
  });
});

describe("CatalogCache.reply (a cache stampede runs the query once)", () => {
  const catalogCache = () => new CatalogCache({ replyTtlSeconds: 30, countTtlSeconds: 60 });
  /** A computation that counts its runs and answers when the test lets it. */
  function slowQuery() {
    let runs = 0;
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    return {
      compute: async () => {
        runs++;
        await gate;
        return { products: [runs] };
      },
      release: () => release(),
      runs: () => runs,
    };
  }

  it("answers 200 concurrent first requests for one key with one computation", async () => {
    const cache = catalogCache();
    const query = slowQuery();
    const replies = Array.from({ length: 200 }, () => cache.reply("products|public|{}", query.compute));
    query.release();
    const bodies = await Promise.all(replies);
    expect(query.runs()).toBe(1);
    expect(new Set(bodies.map((reply) => reply.body.toString()))).toEqual(new Set(['{"products":[1]}']));
    const again = await cache.reply("products|public|{}", query.compute);
    expect([again.body.toString(), again.from]).toEqual(['{"products":[1]}', "hit"]);
  });

  it("with the cache off, runs every request's own computation", async () => {
    const cache = new CatalogCache({ replyTtlSeconds: 0, countTtlSeconds: 60 });
    const query = slowQuery();
    const replies = Array.from({ length: 3 }, () => cache.reply("k", query.compute));
    query.release();
    expect((await Promise.all(replies)).map((reply) => reply.from)).toEqual(["miss", "miss", "miss"]);
    expect(query.runs()).toBe(3);
  });

  it("doesn't keep, nor hand to later requests, a reply computed before the catalogue changed", async () => {
    const cache = catalogCache();
    const before = slowQuery();
    const early = cache.reply("k", before.compute);
    cache.changed({ kind: "products", ids: [1] });
    const after = slowQuery();
    const late = cache.reply("k", after.compute);
    before.release();
    after.release();
    expect((await early).body.toString()).toBe('{"products":[1]}');
    expect((await late).body.toString()).toBe('{"products":[1]}');
    expect([before.runs(), after.runs()]).toEqual([1, 1]);
    // What is cached is the later computation's reply.
    const third = slowQuery();
    expect((await cache.reply("k", third.compute)).from).toBe("hit");
    expect(third.runs()).toBe(0);
  });

  it("lets every waiting request see a failure, and the next request tries again", async () => {
    const cache = catalogCache();
    let runs = 0;
    const failing = async () => {
      runs++;
      throw new Error("database away");
    };
    const replies = await Promise.allSettled([cache.reply("k", failing), cache.reply("k", failing)]);
    expect(replies.map((reply) => reply.status)).toEqual(["rejected", "rejected"]);
    expect(runs).toBe(1);
    const retried = await cache.reply("k", async () => ({ ok: true }));
    expect([retried.body.toString(), retried.from]).toEqual(['{"ok":true}', "miss"]);
  });
});
