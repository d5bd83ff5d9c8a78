/**
 * The fuzz suite from the command line, for longer runs than CI's:
 *
 *   npm run fuzz -- --runs 20000 --seed 42          (runs = cases; each is sent as 4 identities)
 *   npm run fuzz -- --seed 42 --path 1234:5:0       (replays one case a report printed)
 *
 * Options: --shrink N (failure groups to shrink, default 25), --random-only (skip the sweep), --web-dist DIR
 * (a built web app, so pages are rendered on the server too). TEST_DB=postgres with TEST_DATABASE_URL runs it on PostgreSQL.
 */
import { parseArgs } from "node:util";
import { createTestApp } from "../app";
import { testDatabaseKind } from "../database";
import { preparePgliteSnapshots, preparePostgresTemplates } from "../global-setup";
import { Fuzzer, formatReport } from "./runner";

const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "2500" },
    seed: { type: "string" },
    path: { type: "string" },
    shrink: { type: "string", default: "25" },
    "random-only": { type: "boolean", default: false },
    "web-dist": { type: "string" },
  },
});
const runs = Number(values.runs);
const seed = values.seed === undefined ? Date.now() % 2 ** 31 : Number(values.seed);
if (!Number.isInteger(runs) || runs < 1 || !Number.isInteger(seed)) {
  console.error(
    "usage: npm run fuzz -- [--runs N] [--seed S] [--path P] [--shrink N] [--random-only] [--web-dist DIR]",
  );
  process.exit(2);
}

if (testDatabaseKind() === "pglite") await preparePgliteSnapshots();
else await preparePostgresTemplates();
const ctx = await createTestApp(values["web-dist"] ? { env: { WEB_DIST: values["web-dist"] } } : {});
const started = Date.now();
try {
  const fuzzer = await Fuzzer.create(ctx);
  console.log(
    `fuzzing ${fuzzer.targets.length} routes on ${testDatabaseKind()}: ${runs} cases × 4 identities, seed ${seed}` +
      (values.path ? `, path ${values.path}` : ""),
  );
  const report = await fuzzer.fuzz({
    runs,
    seed,
    shrink: Number(values.shrink),
    sweep: !values["random-only"] && !values.path,
    ...(values.path ? { path: values.path } : {}),
    onProgress: ({ phase, done, total, requests, groups }) =>
      console.log(
        `  ${phase}: ${done}/${total}, ${requests} requests, ${groups} failure group(s), ${Math.round((Date.now() - started) / 1000)} s`,
      ),
  });
  const seconds = Math.round((Date.now() - started) / 1000);
  if (report.groups.length === 0) {
    console.log(`no failures: ${report.requests} requests in ${seconds} s (seed ${seed})`);
  } else {
    console.log(formatReport(report));
    process.exitCode = 1;
  }
} finally {
  await ctx.close();
}
