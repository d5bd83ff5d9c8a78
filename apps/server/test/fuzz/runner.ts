import fc from "fast-check";
import { SignJWT } from "jose";
import type { TestContext } from "../app";
import {
  baseRequests,
  fuzzCases,
  sweepRequests,
  type FuzzCase,
  type FuzzRequest,
  type Identity,
} from "./generators";
import { judge, type Verdict } from "./oracle";
import { fuzzTargets, type Target } from "./routes";

/** Guest, the demo shopper (user 2) and the demo admin (user 1): every case is sent as each of them. */
export async function validIdentities(ctx: TestContext): Promise<Identity[]> {
  return [
    { name: "guest" },
    { name: "shopper", authorization: (await ctx.bearer(2)).authorization },
    { name: "admin", authorization: (await ctx.bearer(1)).authorization },
  ];
}

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

/** Authorization headers a client may forge or mangle; each case is also sent with one of them. */
export async function hostileIdentities(ctx: TestContext): Promise<Identity[]> {
  const secret = new TextEncoder().encode(ctx.config.jwtSecret);
  const now = Math.floor(Date.now() / 1000);
  const sign = (claims: Record<string, unknown>, options: { key?: Uint8Array; exp?: number } = {}) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: "HS256" })
      .setIssuer("voltio")
      .setIssuedAt(now - 60)
      .setExpirationTime(options.exp ?? now + 3600)
      .sign(options.key ?? secret);
  const valid = (await ctx.bearer(2)).authorization;
  const bearer = (token: string) => `Bearer ${token}`;
  const subjects = [
    "99999999999",
    "2147483648",
    "9223372036854775808",
    "-1",
    "0",
    "1.5",
    "1e3",
    "0x1",
    " 1",
    "abc",
    "",
    "999999",
    "1".repeat(400),
  ];
  const identities: Identity[] = [
    { name: "garbage", authorization: "garbage" },
    { name: "bearer-empty", authorization: "Bearer " },
    { name: "bearer-no-space", authorization: "Bearer" },
    { name: "bearer-null", authorization: "Bearer null" },
    { name: "bearer-three-dots", authorization: "Bearer a.b.c" },
    { name: "bearer-oversized", authorization: bearer("x".repeat(10_000)) },
    { name: "bearer-obs-text", authorization: "Bearer \u00ff\u00fe" },
    { name: "basic", authorization: "Basic dXNlcjpwYXNz" },
    { name: "lowercase-scheme", authorization: valid.replace("Bearer", "bearer") },
    { name: "token-twice", authorization: `${valid} ${valid.slice(7)}` },
    { name: "token-trailing-junk", authorization: `${valid}junk` },
    {
      name: "alg-none",
      authorization: bearer(`${base64url({ alg: "none" })}.${base64url({ sub: "1", iss: "voltio" })}.`),
    },
    {
      name: "other-secret",
      authorization: bearer(await sign({ sub: "1" }, { key: new TextEncoder().encode("x".repeat(48)) })),
    },
    { name: "expired", authorization: bearer(await sign({ sub: "2" }, { exp: now - 30 })) },
    { name: "no-sub", authorization: bearer(await sign({})) },
    { name: "sub-number", authorization: bearer(await sign({ sub: 1 })) },
    { name: "sid-not-uuid", authorization: bearer(await sign({ sub: "2", sid: "not-a-uuid" })) },
    { name: "sid-number", authorization: bearer(await sign({ sub: "2", sid: 12 })) },
    { name: "sid-huge", authorization: bearer(await sign({ sub: "2", sid: "s".repeat(5000) })) },
  ];
  for (const sub of subjects) {
    identities.push({
      name: `sub-${sub.length > 20 ? `${sub.length}-digits` : JSON.stringify(sub)}`,
      authorization: bearer(await sign({ sub })),
    });
  }
  return identities;
}

export interface Failure {
  verdict: Verdict;
  /** The mutations blamed: the request's, or the hostile Authorization header's. */
  labels: string[];
  identity: string;
  request: FuzzRequest;
  status: number;
}

export interface FailureGroup {
  kind: string;
  labels: string[];
  targets: Set<string>;
  identities: Set<string>;
  count: number;
  first: Failure;
  /** The random case it first showed in (absent when the sweep found it): where shrinking starts. */
  firstRun?: number;
  /** The smallest case fast-check shrank it to, with the path that replays it. */
  shrunk?: { failure: Failure; path: string };
}

export interface FuzzReport {
  seed: number;
  runs: number;
  /** The runs asked for: a replay path needs the same. */
  numRuns: number;
  /** Requests of the sweep, then of the random cases. */
  sweepRequests: number;
  requests: number;
  targets: Target[];
  /** Requests per target ("GET /api/products"): every route should be in here. */
  hits: Map<string, number>;
  statuses: Map<number, number>;
  groups: FailureGroup[];
}

export interface FuzzOptions {
  runs: number;
  seed: number;
  /** fast-check's counterexample path: replays one case (and shrinks from it) instead of a full run. */
  path?: string;
  /** The sweep runs first (default); a replay of one path skips it. */
  sweep?: boolean;
  /** How many failure groups to shrink to a minimal case (each costs a rerun up to its first case). */
  shrink?: number;
  onProgress?: (progress: {
    phase: "sweep" | "random";
    done: number;
    total: number;
    requests: number;
    groups: number;
  }) => void;
}

type Stats = Pick<FuzzReport, "hits" | "statuses">;

export class Fuzzer {
  private constructor(
    readonly ctx: TestContext,
    readonly targets: Target[],
    readonly valid: Identity[],
    readonly hostile: Identity[],
    readonly cases: fc.Arbitrary<FuzzCase>,
  ) {}

  /** Reads the targets from the running app: its OpenAPI document, its router and the web app's pages. */
  static async create(ctx: TestContext): Promise<Fuzzer> {
    await ctx.app.ready();
    const targets = fuzzTargets(ctx.app);
    const hostile = await hostileIdentities(ctx);
    return new Fuzzer(ctx, targets, await validIdentities(ctx), hostile, fuzzCases(targets, hostile.length));
  }

  async send(request: FuzzRequest, identity: Identity) {
    const headers = { ...request.headers };
    if (identity.authorization !== undefined) headers.authorization = identity.authorization;
    return this.ctx.app.inject({
      method: request.method as "GET",
      url: request.url,
      headers,
      ...(request.body === undefined ? {} : { payload: request.body }),
    });
  }

  /** Sends the case as guest, shopper, admin and its hostile identity; returns what the oracle refused. */
  run(fuzzCase: FuzzCase, stats?: Stats) {
    const identities = [...this.valid, this.hostile[fuzzCase.hostile] ?? { name: "guest" }];
    return this.sendAll(fuzzCase.request, identities, stats);
  }

  /** Identities past the three valid ones are hostile: failures are blamed on their header. */
  async sendAll(request: FuzzRequest, identities: Identity[], stats?: Stats) {
    const failures: Failure[] = [];
    for (const identity of identities) {
      const isHostile = !this.valid.includes(identity);
      let verdict: Verdict | null;
      let status = 0;
      try {
        const reply = await this.send(request, identity);
        status = reply.statusCode;
        verdict = judge(reply);
      } catch (error) {
        // inject() only throws when the server side blew up outside Fastify's error handling.
        verdict = { kind: "inject threw", evidence: String((error as Error).message).slice(0, 200) };
      }
      if (stats) {
        stats.hits.set(request.target, (stats.hits.get(request.target) ?? 0) + 1);
        stats.statuses.set(status, (stats.statuses.get(status) ?? 0) + 1);
      }
      if (!verdict) continue;
      // A hostile header is to blame only when the same request passed as a guest.
      if (isHostile && failures.some((f) => f.identity === "guest" && f.verdict.kind === verdict.kind))
        continue;
      failures.push({
        verdict,
        labels: isHostile ? [`auth:${identity.name}`] : [...new Set(request.labels)].sort(),
        identity: identity.name,
        request: request,
        status,
      });
    }
    return failures;
  }

  /**
   * Sends `runs` cases from `seed`, keeps going past failures and groups them by what was broken; then shrinks
   * the first few groups to a minimal case each.
   */
  async fuzz(options: FuzzOptions): Promise<FuzzReport> {
    const report: FuzzReport = {
      seed: options.seed,
      runs: 0,
      numRuns: options.runs,
      sweepRequests: 0,
      requests: 0,
      targets: this.targets,
      hits: new Map(),
      statuses: new Map(),
      groups: [],
    };
    const groups = new Map<string, FailureGroup>();
    const record = (failures: Failure[], run?: number) => {
      for (const failure of failures) {
        const key = `${failure.verdict.kind} | ${failure.labels.join(" + ")}`;
        const group = groups.get(key);
        if (group) {
          group.count += 1;
          group.targets.add(failure.request.target);
          group.identities.add(failure.identity);
        } else {
          groups.set(key, {
            kind: failure.verdict.kind,
            labels: failure.labels,
            targets: new Set([failure.request.target]),
            identities: new Set([failure.identity]),
            count: 1,
            first: failure,
            ...(run === undefined ? {} : { firstRun: run }),
          });
        }
      }
    };
    if (options.sweep ?? !options.path) {
      const sweep = sweepRequests(this.targets, options.seed);
      for (const [index, request] of sweep.entries()) {
        record(await this.sendAll(request, this.valid, report));
        report.requests += this.valid.length;
        if ((index + 1) % 500 === 0) {
          options.onProgress?.({
            phase: "sweep",
            done: index + 1,
            total: sweep.length,
            requests: report.requests,
            groups: groups.size,
          });
        }
      }
      // Every forged or mangled token, on every API route.
      for (const request of baseRequests(this.targets, options.seed)) {
        if (!request.target.includes(" /api/")) continue;
        record(await this.sendAll(request, this.hostile, report));
        report.requests += this.hostile.length;
      }
      report.sweepRequests = report.requests;
    }
    const property = fc.asyncProperty(this.cases, async (fuzzCase) => {
      const failures = await this.run(fuzzCase, report);
      record(failures, report.runs);
      report.runs += 1;
      report.requests += this.valid.length + 1;
      if (report.runs % 250 === 0) {
        options.onProgress?.({
          phase: "random",
          done: report.runs,
          total: options.runs,
          requests: report.requests,
          groups: groups.size,
        });
      }
      // Never fails here: one run lists every distinct failure, not just the first.
      return true;
    });
    await fc.check(property, {
      seed: options.seed,
      numRuns: options.runs,
      ...(options.path ? { path: options.path } : {}),
    });
    report.groups = foldGroups([...groups.values()]);
    const random = report.groups.filter((g) => g.firstRun !== undefined);
    for (const group of random.slice(0, options.shrink ?? 0)) {
      group.shrunk = await this.shrink(group, options);
    }
    return report;
  }

  /** Reruns the same seed until the group's first case, and lets fast-check shrink it. */
  private async shrink(group: FailureGroup, options: FuzzOptions): Promise<FailureGroup["shrunk"]> {
    let last: Failure | undefined;
    const matches = (f: Failure) =>
      f.verdict.kind === group.kind && group.labels.every((l) => f.labels.includes(l));
    const details = await fc.check(
      fc.asyncProperty(this.cases, async (fuzzCase) => {
        const found = (await this.run(fuzzCase)).find(matches);
        if (found) last = found;
        return !found;
      }),
      // Straight to the case it first failed in: the runs before it are generated, not sent.
      { seed: options.seed, numRuns: options.runs, path: options.path ?? String(group.firstRun) },
    );
    if (!details.failed || !details.counterexamplePath || !details.counterexample) return undefined;
    // The last failing run fast-check saw is the shrunk counterexample.
    const failure = (await this.run(details.counterexample[0])).find(matches) ?? last;
    return failure ? { failure, path: details.counterexamplePath } : undefined;
  }
}

/** A failure with more labels than another of the same kind is the same failure plus noise. */
function foldGroups(groups: FailureGroup[]): FailureGroup[] {
  const sorted = [...groups].sort((a, b) => a.labels.length - b.labels.length || b.count - a.count);
  const kept: FailureGroup[] = [];
  for (const group of sorted) {
    const home = kept.find((k) => k.kind === group.kind && k.labels.every((l) => group.labels.includes(l)));
    if (!home) {
      kept.push(group);
      continue;
    }
    home.count += group.count;
    if (home.firstRun === undefined && group.firstRun !== undefined) home.firstRun = group.firstRun;
    for (const t of group.targets) home.targets.add(t);
    for (const i of group.identities) home.identities.add(i);
  }
  return kept.sort((a, b) => a.kind.localeCompare(b.kind) || a.labels.join().localeCompare(b.labels.join()));
}

const clip = (text: string, max: number) =>
  text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text;

/** A request as the reader replays it by hand. */
export function formatRequest(request: FuzzRequest, identity: string): string {
  const lines = [`${request.method} ${clip(request.url, 300)}`, `  as: ${identity}`];
  const headers = Object.entries(request.headers);
  if (headers.length > 0) {
    lines.push(`  headers: ${clip(JSON.stringify(Object.fromEntries(headers)), 300)}`);
  }
  if (request.body !== undefined) {
    const text = Buffer.isBuffer(request.body) ? request.body.toString("latin1") : request.body;
    lines.push(`  body (${Buffer.byteLength(request.body)} bytes): ${clip(JSON.stringify(text), 300)}`);
  }
  return lines.join("\n");
}

export function formatReport(report: FuzzReport, replay = "npm run fuzz --"): string {
  const lines = [
    `${report.groups.length} distinct failure(s) in ${report.requests} requests (a sweep of ${report.sweepRequests}, ` +
      `then ${report.runs} random cases), seed ${report.seed}:`,
  ];
  for (const [index, group] of report.groups.entries()) {
    const shown = group.shrunk?.failure ?? group.first;
    const origin = group.shrunk ? "shrunk" : group.firstRun === undefined ? "found by the sweep" : "as found";
    lines.push(
      "",
      `#${index + 1} ${group.kind} | ${group.labels.join(" + ")} (${group.count}×)`,
      `  routes: ${[...group.targets].sort().join(", ")}`,
      `  identities: ${[...group.identities].sort().join(", ")}`,
      `  status ${shown.status}; evidence: ${clip(shown.verdict.evidence, 300)}; example (${origin}):`,
      formatRequest(shown.request, shown.identity)
        .split("\n")
        .map((line) => `  ${line}`)
        .join("\n"),
    );
    if (group.shrunk) {
      lines.push(
        `  replay: ${replay} --seed ${report.seed} --runs ${report.numRuns} --path ${group.shrunk.path}`,
      );
    }
  }
  return lines.join("\n");
}
