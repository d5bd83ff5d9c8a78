import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { compressFor, negotiateEncoding } from "./encoding";

describe("negotiateEncoding", () => {
  it("prefers brotli, then gzip, and respects a refusal (q=0)", () => {
    expect(negotiateEncoding("gzip, deflate, br, zstd")).toBe("br");
    expect(negotiateEncoding("gzip;q=1.0, br;q=0")).toBe("gzip");
    expect(negotiateEncoding("br;q=0, gzip;q=0.0")).toBeNull();
    expect(negotiateEncoding("identity")).toBeNull();
    expect(negotiateEncoding(undefined)).toBeNull();
  });
});

describe("compressFor", () => {
  const page = "<!doctype html><title>Voltio</title>".repeat(50);

  it("returns a body that decompresses to the page", () => {
    const br = compressFor("br", page);
    expect(br.encoding).toBe("br");
    expect(brotliDecompressSync(br.body as Buffer).toString()).toBe(page);
    const gzip = compressFor("gzip", page);
    expect(gunzipSync(gzip.body as Buffer).toString()).toBe(page);
    expect((gzip.body as Buffer).length).toBeLessThan(page.length);
  });

  it("sends the page as it is to a client that accepts neither", () => {
    expect(compressFor("identity", page)).toEqual({ encoding: null, body: page });
  });
});
