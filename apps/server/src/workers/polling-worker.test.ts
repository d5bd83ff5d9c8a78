import { Registry } from "prom-client";
import { afterEach, describe, expect, it } from "vitest";
import { createWorkerMetrics } from "../modules/metrics/registry";
import {
  backoffMs,
  describeError,
  startPollingWorker,
  type PollingWorker,
  type PollingWorkerOptions,
} from "./polling-worker";

/**
 * The loop every background worker runs on, with real timers: delays are a few milliseconds, and the tests
 * wait on conditions, never for a fixed time. A round is the caller's function, so a round that throws is
 * what a round against a database that went away does (modules/payments/worker.test.ts runs one against a
 * closed database).
 */
const workers: PollingWorker<unknown>[] = [];
afterEach(async () => {
  await Promise.all(workers.splice(0).map((worker) => worker.stop()));
});

interface Line {
  level: "warn" | "info";
  object: Record<string, unknown>;
  message: string;
}

function start<T>(options: Partial<PollingWorkerOptions<T>> & Pick<PollingWorkerOptions<T>, "round">) {
  const lines: Line[] = [];
  const worker = startPollingWorker<T>({
    name: "test",
    pollMs: 3_600_000,
    background: true,
    log: {
      warn: (object, message) => lines.push({ level: "warn", object: object as Line["object"], message }),
      info: (object, message) => lines.push({ level: "info", object: object as Line["object"], message }),
    },
    ...options,
  });
  workers.push(worker);
  return { worker, lines };
}

/** A promise the test settles: a round that waits on it is "in hand" until then. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/** Lets every callback already due run (promise jobs, I/O, immediates); no time passes on purpose. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

const eventually = { timeout: 10_000 };

describe("a polling worker", () => {
  it("never runs two rounds at once, however they are asked for", async () => {
    let inHand = 0;
    let most = 0;
    let rounds = 0;
    const { worker } = start({
      pollMs: 1,
      round: async () => {
        most = Math.max(most, ++inHand);
        await settle();
        inHand--;
        return ++rounds;
      },
    });
    const called = [worker.runOnce(), worker.runOnce(), worker.runOnce()];
    worker.notify();
    worker.notify();
    // Called rounds resolve in the order they were asked for, each with its own result.
    const results = await Promise.all(called);
    expect(results).toEqual([...results].sort((a, b) => a - b));
    await expect.poll(() => rounds, eventually).toBeGreaterThanOrEqual(10);
    expect(most).toBe(1);
  });

  it("turns notifications during a round into one more round, then waits for the poll", async () => {
    const gates = [gate(), gate(), gate()];
    let started = 0;
    const { worker } = start({
      round: async () => {
        await gates[started++]!.opened;
      },
    });
    worker.notify();
    await expect.poll(() => started, eventually).toBe(1);
    for (let i = 0; i < 5; i++) worker.notify();
    gates[0]!.open();
    await expect.poll(() => started, eventually).toBe(2);
    gates[1]!.open();
    gates[2]!.open();
    // A round asked for now comes after anything already queued: had the five notifications queued a round
    // each, it would be the seventh.
    await worker.runOnce();
    expect(started).toBe(3);
  });

  it("logs a failed round once, with its name and error, and never lets it reject into the timer", async () => {
    let calls = 0;
    const { worker, lines } = start({
      name: "refunds",
      pollMs: 2,
      round: async () => {
        calls++;
        throw Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
      },
    });
    // Several rounds failed on the timer: each went on to the next (an unhandled rejection fails the run).
    await expect.poll(() => calls, eventually).toBeGreaterThanOrEqual(3);
    const failures = lines.filter((line) => line.level === "warn");
    expect(failures.length).toBeGreaterThanOrEqual(3);
    expect(failures[0]).toEqual({
      level: "warn",
      object: { worker: "refunds", error: "connect ECONNREFUSED 127.0.0.1:5432", failures: 1, retryInMs: 4 },
      message: "refunds worker round failed",
    });
    // One line per failed round, not one per layer that saw it.
    expect(failures.length).toBeLessThanOrEqual(calls);
    // A round somebody called rejects for them, with the round's own error; it is logged the same way.
    const logged = failures.length;
    await expect(worker.runOnce()).rejects.toThrow("ECONNREFUSED");
    expect(lines.filter((line) => line.level === "warn").length).toBeGreaterThan(logged);
  });

  it("waits longer after each failed round, up to the cap, and polls normally again after a good one", async () => {
    const outcomes = ["fail", "fail", "fail", "fail", "fail", "ok", "fail", "ok"];
    const startedAt: number[] = [];
    const { worker, lines } = start({
      pollMs: 5,
      maxBackoffMs: 40,
      round: async () => {
        startedAt.push(performance.now());
        if (outcomes[startedAt.length - 1] === "fail") throw new Error("the database is away");
      },
    });
    await expect.poll(() => startedAt.length, eventually).toBeGreaterThanOrEqual(outcomes.length);
    await worker.stop();

    const failed = lines.filter((line) => line.level === "warn").map((line) => line.object);
    expect(failed.slice(0, 6).map(({ failures, retryInMs }) => [failures, retryInMs])).toEqual([
      [1, 10],
      [2, 20],
      [3, 40],
      [4, 40],
      [5, 40],
      // After the good round the count starts again: the first failure waits twice the poll, not the cap.
      [1, 10],
    ]);
    expect(lines.find((line) => line.level === "info")).toEqual({
      level: "info",
      object: { worker: "test", failures: 5 },
      message: "test worker recovered",
    });
    // Each wait really was that long (start to start; a timer may fire up to a millisecond early).
    const waits = [10, 20, 40, 40, 40, 5, 10];
    waits.forEach((wait, i) => expect(startedAt[i + 1]! - startedAt[i]!).toBeGreaterThanOrEqual(wait - 1));
  });

  it("runs a notified round at once while it backs off: a commit means the database is back", async () => {
    let calls = 0;
    const { worker } = start({
      pollMs: 60_000,
      roundAtStart: true,
      round: async () => {
        if (++calls === 1) throw new Error("the database is away");
      },
    });
    await expect.poll(() => calls, eventually).toBe(1);
    // The next round on the timer is two minutes away; the notification doesn't wait for it.
    worker.notify();
    await expect.poll(() => calls, eventually).toBe(2);
  });

  it("stops after the round in hand, which sees the stop, and runs no more rounds", async () => {
    const held = gate();
    let rounds = 0;
    let sawStop = false;
    const { worker } = start({
      pollMs: 1,
      round: async (signal) => {
        if (++rounds === 1) {
          await held.opened;
          sawStop = signal.aborted;
        }
      },
    });
    await expect.poll(() => rounds, eventually).toBe(1);
    let stopped = false;
    const stopping = worker.stop().then(() => (stopped = true));
    await settle();
    expect(stopped).toBe(false);
    held.open();
    await stopping;
    expect(sawStop).toBe(true);

    // A worker on the same 1 ms poll runs several rounds meanwhile; the stopped one, woken or not, none.
    worker.notify();
    let others = 0;
    start({ pollMs: 1, round: async () => void others++ });
    await expect.poll(() => others, eventually).toBeGreaterThanOrEqual(5);
    expect(rounds).toBe(1);
  });

  it("runs rounds only when called while the background is off", async () => {
    let rounds = 0;
    const { worker } = start({
      pollMs: 1,
      background: false,
      roundAtStart: true,
      round: async () => ++rounds,
    });
    worker.notify();
    expect(await worker.runOnce()).toBe(1);
    let others = 0;
    start({ pollMs: 1, round: async () => void others++ });
    await expect.poll(() => others, eventually).toBeGreaterThanOrEqual(5);
    expect(rounds).toBe(1);
  });

  it("counts rounds by outcome, failures in a row and the last good round in the app's registry", async () => {
    const registry = new Registry();
    let fail = true;
    const { worker } = start({
      name: "mail",
      background: false,
      metrics: createWorkerMetrics(registry),
      round: async () => {
        if (fail) throw new Error("the database is away");
      },
    });
    const scrape = () => registry.metrics();
    // Every series is there from the start, so a rate or an alert has something to read.
    expect(await scrape()).toContain('voltio_worker_rounds_total{worker="mail",outcome="failed"} 0');
    expect(await scrape()).not.toContain("voltio_worker_last_success_timestamp_seconds{");

    await expect(worker.runOnce()).rejects.toThrow();
    await expect(worker.runOnce()).rejects.toThrow();
    let text = await scrape();
    expect(text).toContain('voltio_worker_rounds_total{worker="mail",outcome="failed"} 2');
    expect(text).toContain('voltio_worker_rounds_total{worker="mail",outcome="ok"} 0');
    expect(text).toContain('voltio_worker_consecutive_failures{worker="mail"} 2');

    fail = false;
    const before = Date.now() / 1000;
    await worker.runOnce();
    text = await scrape();
    expect(text).toContain('voltio_worker_rounds_total{worker="mail",outcome="ok"} 1');
    expect(text).toContain('voltio_worker_consecutive_failures{worker="mail"} 0');
    const lastSuccess = Number(
      /voltio_worker_last_success_timestamp_seconds\{worker="mail"\} (\S+)/.exec(text)![1],
    );
    expect(lastSuccess).toBeGreaterThanOrEqual(before);
    expect(lastSuccess).toBeLessThanOrEqual(Date.now() / 1000);
  });
});

describe("backoffMs", () => {
  it("is the poll while all is well, then doubles from it up to the cap (never below the poll)", () => {
    expect([0, 1, 2, 3, 4, 5].map((failures) => backoffMs(1000, failures, 10_000))).toEqual([
      1000, 2000, 4000, 8000, 10_000, 10_000,
    ]);
    expect(backoffMs(30_000, 3, 10_000)).toBe(30_000);
    expect(backoffMs(5000, 1000)).toBe(60_000);
  });
});

describe("describeError", () => {
  it("says the code when the message doesn't, and what an AggregateError gathered", () => {
    expect(describeError(Object.assign(new Error("terminating connection"), { code: "57P01" }))).toBe(
      "57P01: terminating connection",
    );
    const refused = Object.assign(
      new AggregateError([
        Object.assign(new Error("connect ECONNREFUSED ::1:5432"), { code: "ECONNREFUSED" }),
        Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" }),
      ]),
      { code: "ECONNREFUSED" },
    );
    expect(describeError(refused)).toBe("connect ECONNREFUSED ::1:5432; connect ECONNREFUSED 127.0.0.1:5432");
    expect(describeError("plain")).toBe("plain");
  });
});
