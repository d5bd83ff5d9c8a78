/**
 * What a benchmark reads of a server process from outside it: CPU time and memory from /proc (Linux only),
 * the JavaScript heap from /api/metrics, and when /api/health/ready first answers 200.
 */
import { readFileSync } from "node:fs";

/** The process's user and system CPU time so far, in microseconds (/proc/<pid>/stat counts 10 ms ticks). */
export function cpuMicros(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

/** Resident memory now and at its highest so far (VmRSS, VmHWM), in MB. */
export function residentMb(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN);
  return { rss: kb("VmRSS") / 1024, peak: kb("VmHWM") / 1024 };
}

/** The server's own threads and child processes: a production server starts no helper process. */
export function childProcesses(pid: number): number[] {
  const children: number[] = [];
  for (const task of readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/))
    if (task) children.push(Number(task));
  return children;
}

/** voltio_process_memory_bytes from /api/metrics (METRICS_TOKEN must be set on the server), in MB. */
export async function heapMb(
  base: string,
  metricsToken: string,
): Promise<{ heapUsed: number; heapTotal: number; external: number }> {
  const text = await (
    await fetch(`${base}/api/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } })
  ).text();
  const bytes = (kind: string) =>
    Number(
      new RegExp(`^voltio_process_memory_bytes\\{kind="${kind}"\\} (\\S+)$`, "m").exec(text)?.[1] ?? NaN,
    );
  const mb = (kind: string) => bytes(kind) / 1024 / 1024;
  return { heapUsed: mb("heap_used"), heapTotal: mb("heap_total"), external: mb("external") };
}

/**
 * Polls /api/health/ready every `everyMs` until it answers 200: the moment the process takes traffic (the
 * database answers, the search index is built). Throws once `timeoutMs` has passed.
 */
export async function untilReady(base: string, timeoutMs: number, everyMs = 20): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const status = await fetch(`${base}/api/health/ready`).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 200) return;
    if (performance.now() > deadline)
      throw new Error(
        `${base} was not ready within ${timeoutMs / 1000} s (last answer: ${status || "none"})`,
      );
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
