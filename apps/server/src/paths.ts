import { existsSync } from "node:fs";
import { dirname, join } from "node:path";

/**
 * apps/server, found once from this module's place: the code runs from src/ (tsx, vitest) and from the
 * bundle in dist/ (`npm run serve`, apps/server/build.mjs), where import.meta.url names a file of dist/. The
 * files the server reads beside its code (migrations, the demo catalogue) are located from here, so both
 * find the same ones.
 */
export const serverDir = findServerDir(import.meta.dirname);

function findServerDir(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, "package.json"))) return dir;
    if (dirname(dir) === dir) throw new Error(`No package.json in ${from} or above it`);
  }
}
