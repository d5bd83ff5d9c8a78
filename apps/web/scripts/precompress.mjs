// Writes .br and .gz beside every compressible file of the build, so the server sends them as they are.
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

// A folder given as the argument (a second build for a parallel end-to-end run), else apps/web/dist.
const dist = process.argv[2] ?? new URL("../dist", import.meta.url).pathname;
const compressible = /\.(js|css|html|svg|json|txt|xml|webmanifest)$/;

function* files(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else if (compressible.test(name)) yield path;
  }
}

let count = 0;
for (const file of files(dist)) {
  const content = readFileSync(file);
  if (content.length < 512) continue;
  writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
  writeFileSync(
    `${file}.br`,
    brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
  );
  count++;
}
console.log(`precompressed ${count} files`);
