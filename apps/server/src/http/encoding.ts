import { brotliCompressSync, constants, gzipSync } from "node:zlib";

export type Encoding = "br" | "gzip";

/** The best encoding the client accepts: brotli, then gzip; a `q=0` is a refusal. */
export function negotiateEncoding(accept: string | undefined): Encoding | null {
  const offered = new Set(
    (accept ?? "")
      .toLowerCase()
      .split(",")
      .map((part) => part.split(";").map((piece) => piece.trim()))
      .filter(([, quality]) => !/^q=0(\.0*)?$/.test(quality ?? ""))
      .map(([name]) => name),
  );
  return offered.has("br") ? "br" : offered.has("gzip") ? "gzip" : null;
}

/** A dynamic body compressed for the client; levels chosen for speed, as it happens on every request. */
export function compressFor(
  accept: string | undefined,
  text: string,
): { encoding: Encoding | null; body: string | Buffer } {
  const encoding = negotiateEncoding(accept);
  if (encoding === "br")
    return { encoding, body: brotliCompressSync(text, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }) };
  if (encoding === "gzip") return { encoding, body: gzipSync(text, { level: 6 }) };
  return { encoding, body: text };
}
