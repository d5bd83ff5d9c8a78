// The server as `npm run serve` runs it: apps/server/dist/main.js and the CLIs (seed-cli.js, create-admin-cli.js,
// backup-cli.js, restore-cli.js), ESM bundles of our code and of the workspace's @voltio/* packages (TypeScript sources, which plain Node can't
// load); the packages in node_modules stay imports, resolved at run time as from the sources. A second or two.
// main.ts's dynamic imports become chunks next to the entries (splitting): a refused configuration still exits
// before the app and its packages load. Every file stays directly in dist/, one level below apps/server as
// src/ is: src/paths.ts finds apps/server from either, and config.ts's default WEB_DIST
// (import.meta.dirname/../../web/dist) is apps/web/dist from both.
import { mkdirSync, readdirSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { build } from "esbuild";

const serverDir = import.meta.dirname;
const outdir = join(serverDir, "dist");
const started = new Date();

const RESOLVING = Symbol("resolving");

/** Whether Node's ESM loader finds a bare import from dist/ (as from here: the same node_modules above). */
function nodeResolves(specifier) {
  let url;
  try {
    url = new URL(import.meta.resolve(specifier));
  } catch {
    return false;
  }
  // Node 20 names a missing file or a folder without throwing; importing it would.
  return (
    url.protocol === "node:" ||
    (url.protocol === "file:" && statSync(url, { throwIfNoEntry: false })?.isFile())
  );
}

/**
 * Bare imports (fastify, node:fs, drizzle-orm/pg-core) stay imports, resolved at run time from node_modules,
 * except the workspace's own packages. A file of a package without an "exports" map named as tsx and bundlers
 * take it (nodemailer/lib/addressparser, a folder) becomes its file's name (…/addressparser/index.js): plain
 * Node's ESM loader takes no folders and guesses no extensions.
 */
const externalPackages = {
  name: "external-packages",
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.kind === "entry-point" || args.path.startsWith("@voltio/") || args.pluginData === RESOLVING)
        return undefined;
      if (nodeResolves(args.path)) return { path: args.path, external: true };
      const { path, errors } = await build.resolve(args.path, {
        kind: args.kind,
        resolveDir: args.resolveDir,
        pluginData: RESOLVING,
      });
      const inPackage = path.split("/node_modules/").at(-1);
      if (errors.length === 0 && inPackage && nodeResolves(inPackage))
        return { path: inPackage, external: true };
      return { errors: [{ text: `Node can't import "${args.path}" from apps/server/dist` }, ...errors] };
    });
  },
};

const result = await build({
  absWorkingDir: serverDir,
  entryPoints: {
    main: "src/main.ts",
    "seed-cli": "src/db/seed-cli.ts",
    "create-admin-cli": "src/db/create-admin-cli.ts",
    "backup-cli": "src/db/backup-cli.ts",
    "restore-cli": "src/db/restore-cli.ts",
  },
  outdir,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  // Stack traces point at src/ under `node --enable-source-maps` (npm run serve); the sources are in the tree.
  sourcemap: true,
  sourcesContent: false,
  chunkNames: "[name]-[hash]",
  plugins: [externalPackages],
  write: false,
  logLevel: "warning",
});

// Each file replaced in one rename: a server the tests start while another test process rebuilds reads either
// the old file or the new one. Dated from the build's start, so a source saved meanwhile is newer than the build.
mkdirSync(outdir, { recursive: true });
const written = new Set();
for (const file of result.outputFiles) {
  const temporary = `${file.path}.${process.pid}.tmp`;
  writeFileSync(temporary, file.contents);
  utimesSync(temporary, started, started);
  renameSync(temporary, file.path);
  written.add(basename(file.path));
}
// Chunks of earlier builds (their names carry a hash of their content).
for (const name of readdirSync(outdir))
  if (!written.has(name) && !name.endsWith(".tmp")) rmSync(join(outdir, name), { force: true });
