/**
 * bench:catalog's edits phase: two server processes on the benchmark's PostgreSQL
 * catalogue, an admin editing a product's title through process A. Measures what one edit costs each process
 * (CPU over idle, from /proc, and the search index's own update as /api/metrics reports it) and the broad
 * search's throughput on each process with and without an edit every second.
 */
import { readFileSync } from "node:fs";
import autocannon from "autocannon";
import { productRenamer } from "./admin-edits";
import { startBenchServer, type BenchServer } from "./server";

const TICKS_PER_SECOND = 100; // Linux's USER_HZ, the unit of /proc/<pid>/stat's CPU times
const CPU_EDITS = 30;
const CPU_EDIT_MS = 300;

/** CPU seconds the process has used, user and system. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;

export interface EditsResult {
  /** ms of CPU per edit over idle, in A (which takes the request) and in B. */
  cpuPerEdit: { a: number; b: number };
  /** The search index's update of one edit (ms), median and max over the edits, in B. */
  indexUpdate: { median: number; max: number };
  /** Broad search req/s, quiet and with an edit every second (medians of the rounds), in A and in B. */
  throughput: Record<
    "a" | "b",
    { quiet: number; editing: number; quietRounds: number[]; editingRounds: number[]; errors: number }
  >;
  rounds: number;
}

export async function benchmarkEdits(
  env: Record<string, string>,
  options: {
    productId: number;
    searchPath: string;
    seconds: number;
    warmup: number;
    connections: number;
    rounds: number;
  },
): Promise<EditsResult> {
  const token = "bench-metrics-token";
  const servers: BenchServer[] = [];
  try {
    for (let i = 0; i < 2; i++) servers.push(await startBenchServer({ ...env, METRICS_TOKEN: token }));
    const [a, b] = servers as [BenchServer, BenchServer];
    // Both build their index before anything is measured.
    await Promise.all(servers.map((server) => fetch(`${server.base}${options.searchPath}`)));
    const renamer = await productRenamer(a.base, options.productId);
    let edits = 0;
    /** One admin edit through A: a new word in the title each time. */
    const edit = async () => {
      const word = `edited${++edits}`;
      await renamer.rename(`${renamer.title.slice(0, 200)} ${word}`);
      return word;
    };
    const updateSeconds = async (server: BenchServer) => {
      const text = await (
        await fetch(`${server.base}/api/metrics`, { headers: { authorization: `Bearer ${token}` } })
      ).text();
      return Number(/^voltio_search_index_update_seconds (\S+)$/m.exec(text)?.[1]);
    };

    // CPU: the same stretch of time idle, then with an edit every CPU_EDIT_MS.
    const cpuOver = async (work: () => Promise<void>) => {
      const before = servers.map((server) => cpuSeconds(server.pid));
      await work();
      return servers.map((server, i) => cpuSeconds(server.pid) - before[i]!);
    };
    const idle = await cpuOver(async () => void (await pause(CPU_EDITS * CPU_EDIT_MS)));
    const editing = await cpuOver(async () => {
      for (let i = 0; i < CPU_EDITS; i++) {
        const started = performance.now();
        await edit();
        await pause(Math.max(0, CPU_EDIT_MS - (performance.now() - started)));
      }
    });
    // The index's own share, edit by edit, apart: asking B costs B some CPU too.
    const updates: number[] = [];
    for (let i = 0; i < CPU_EDITS; i++) {
      const word = await edit();
      for (;;) {
        const found = (await (await fetch(`${b.base}/api/products?search=${word}`)).json()) as {
          total: number;
        };
        if (found.total === 1) break;
        await pause(5);
      }
      updates.push((await updateSeconds(b)) * 1000);
    }
    const perEdit = (i: number) => ((editing[i]! - idle[i]!) * 1000) / CPU_EDITS;

    // Throughput on each process, quiet and under edits, in rounds of alternating order.
    const throughput = {} as EditsResult["throughput"];
    for (const [name, server] of [
      ["a", a],
      ["b", b],
    ] as const) {
      const quiet: number[] = [];
      const underEdits: number[] = [];
      let errors = 0;
      const measure = async (withEdits: boolean) => {
        const url = `${server.base}${options.searchPath}`;
        await autocannon({ url, connections: options.connections, duration: options.warmup });
        let editing = withEdits;
        const editor = (async () => {
          while (editing) {
            await edit();
            await pause(1000);
          }
        })();
        const result = await autocannon({ url, connections: options.connections, duration: options.seconds });
        editing = false;
        await editor;
        server.assertRunning();
        errors += result.errors + result.timeouts + result.non2xx;
        (withEdits ? underEdits : quiet).push(Math.round(result.requests.average));
      };
      for (let round = 0; round < options.rounds; round++) {
        for (const withEdits of round % 2 === 0 ? [false, true] : [true, false]) await measure(withEdits);
      }
      throughput[name] = {
        quiet: median(quiet),
        editing: median(underEdits),
        quietRounds: quiet,
        editingRounds: underEdits,
        errors,
      };
      console.log("edits phase", name, { quiet, underEdits, errors });
    }
    return {
      cpuPerEdit: { a: perEdit(0), b: perEdit(1) },
      indexUpdate: { median: median(updates), max: Math.max(...updates) },
      throughput,
      rounds: options.rounds,
    };
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
  }
}
