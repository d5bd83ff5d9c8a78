/**
 * `npm run bench:checkout`: the money path under contention. On a fresh
 * demo database in PostgreSQL, against the real server over HTTP as the web app and a browser do:
 * 1. The last units: BENCH_LAST_BUYERS shoppers (200) each 'buy now' one unit of a product with
 *    BENCH_LAST_UNITS (10) left, then all press Pay at once: exactly that many checkouts hold a unit, every
 *    other buyer is told 409 "Only N left"/"Out of stock" before paying, the holders pay, and no payment
 *    needs a refund.
 * 2. The steady run: BENCH_SHOPPERS shoppers run checkouts concurrently: 'buy now' (POST /api/order pending)
 *    → POST /api/sandbox/pay → the sandbox card page approves 4242 4242 4242 4242 → GET /api/sandbox/feedback.
 *    80% go to 3 "hot" products whose stock is low, so they sell out during the run: a 409 on the add or on
 *    Pay is an expected answer (the shopper then removes the line); a paid checkout that ends
 *    `refund_needed` would be money taken for goods that are gone, and is counted.
 * Afterwards the database must account for every unit: per product, stock + units sold + units held =
 * initial, and nothing is oversold; every approved payment paid its checkout. Writes docs/benchmarks.md.
 *
 * PostgreSQL as for bench:catalog: BENCH_DATABASE_URL, else TEST_DATABASE_URL, else the .ci/run role. Knobs
 * for a smoke run (which leaves docs/benchmarks.md alone): BENCH_SHOPPERS (50), BENCH_SECONDS (20),
 * BENCH_CHECKOUTS (no limit: stop after this many approved checkouts), BENCH_HOT_STOCK (units of each hot
 * product); BENCH_REPORT=true/false overrides whether it writes. A run with errors (a 5xx, any unexpected
 * answer) or with units unaccounted for writes nothing and exits 1.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { replaceSection } from "./report";
import { startBenchServer } from "./server";
import { freshDemoDatabase, knob, reportWanted, serverEnv } from "./setup";

const SHOPPERS = knob("BENCH_SHOPPERS", 50, 1);
const DURATION = knob("BENCH_SECONDS", 20, 1);
const CHECKOUTS = knob("BENCH_CHECKOUTS", Infinity, 1);
const HOT_STOCK = knob("BENCH_HOT_STOCK", 100, 1);
const REPORT = reportWanted([
  "BENCH_SHOPPERS",
  "BENCH_SECONDS",
  "BENCH_CHECKOUTS",
  "BENCH_HOT_STOCK",
  "BENCH_LAST_BUYERS",
  "BENCH_LAST_UNITS",
]);
const HOT_PRODUCTS = 3;
const HOT_SHARE = 0.8;
/** The other products never run out: their checkouts measure the path without the race. */
const COLD_STOCK = 1_000_000;
const CARD = { number: "4242 4242 4242 4242", expiry: "12/40", cvc: "123" };
const STEPS = ["add", "pay", "card", "feedback"] as const;
const LAST_BUYERS = knob("BENCH_LAST_BUYERS", 200, 1);
const LAST_UNITS = knob("BENCH_LAST_UNITS", 10, 1);
type Step = (typeof STEPS)[number];

interface Stats {
  latencies: Record<Step, number[]>;
  approved: number;
  refundNeeded: number;
  addSoldOut: number;
  payRefused: number;
  errors: string[];
}
const newStats = (): Stats => ({
  latencies: { add: [], pay: [], card: [], feedback: [] },
  approved: 0,
  refundNeeded: 0,
  addSoldOut: 0,
  payRefused: 0,
  errors: [],
});

interface Reply {
  status: number;
  body: string;
  location: string | null;
}
class Unexpected extends Error {}

// --- the store: a fresh demo database, 3 hot products with little stock, plenty of everything else

const databaseUrl = await freshDemoDatabase("voltio_bench_checkout");
const db = new pg.Client({ connectionString: databaseUrl });
await db.connect();
const { rows: productRows } = await db.query<{ id: number }>(
  "select id from products where deleted_at is null order by id",
);
const hot = productRows.slice(0, HOT_PRODUCTS).map((row) => row.id);
const lastUnits = productRows[HOT_PRODUCTS]!.id;
const cold = productRows.slice(HOT_PRODUCTS + 1).map((row) => row.id);
await db.query(
  "update products set stock = case when id = any($1) then $2::int when id = $3 then $4::int else $5::int end",
  [hot, HOT_STOCK, lastUnits, LAST_UNITS, COLD_STOCK],
);
const initialStock = new Map(
  (await db.query<{ id: number; stock: number }>("select id, stock from products")).rows.map((row) => [
    row.id,
    row.stock,
  ]),
);

const dataDir = mkdtempSync(join(tmpdir(), "voltio-bench-checkout-"));
const server = await startBenchServer(
  {
    ...serverEnv(databaseUrl),
    DATA_DIR: dataDir, // the mail outbox's .eml files
    RATE_LIMIT_AUTH_PER_IP: "1000000",
    RATE_LIMIT_AUTH_PER_EMAIL: "1000000",
    ACCESS_TOKEN_TTL_SECONDS: "86400",
  },
  { publicUrl: "http://127.0.0.1:{port}" },
).catch((error: unknown) => {
  rmSync(dataDir, { recursive: true, force: true });
  throw error;
});

async function request(
  method: string,
  path: string,
  { token, json, form }: { token?: string; json?: unknown; form?: Record<string, string> } = {},
): Promise<Reply> {
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  let body: string | undefined;
  if (json !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(json);
  } else if (form) {
    headers["content-type"] = "application/x-www-form-urlencoded";
    body = new URLSearchParams(form).toString();
  }
  const response = await fetch(`${server.base}${path}`, { method, headers, body, redirect: "manual" });
  return { status: response.status, body: await response.text(), location: response.headers.get("location") };
}

function expectStatus(reply: Reply, status: number, what: string): void {
  if (reply.status !== status)
    throw new Unexpected(`${what}: ${reply.status} instead of ${status}: ${reply.body.slice(0, 300)}`);
}

// --- the shoppers: registered, logged in and given an address through the API, a few at a time

interface Shopper {
  id: number;
  token: string;
}

async function newShopper(index: number): Promise<Shopper> {
  const email = `bench-${index}@voltio.test`;
  const password = "bench-password-1";
  const user = { firstName: "Bench", lastName: "Shopper", email, password };
  const registered = await request("POST", "/api/user", { json: user });
  expectStatus(registered, 201, "register");
  const login = await request("POST", "/api/user/login", { json: { email, password } });
  expectStatus(login, 200, "login");
  const { accessToken: token } = JSON.parse(login.body) as { accessToken: string };
  const address = { city: "Rosario", street: "Córdoba", streetNumber: 1234, postalCode: "2000" };
  expectStatus(await request("POST", "/api/user/direction", { token, json: address }), 201, "address");
  return { id: (JSON.parse(registered.body) as { id: number }).id, token };
}

// --- one checkout, timed step by step

const soldOutAt = new Map<number, number>();
let runStarted = 0;

async function step(stats: Stats, name: Step, ...args: Parameters<typeof request>): Promise<Reply> {
  const started = performance.now();
  const reply = await request(...args);
  stats.latencies[name].push(performance.now() - started);
  return reply;
}

/** A 409 is an expected answer for a product that is (nearly) gone; the shopper moves on. */
function soldOut(reply: Reply, productId: number): boolean {
  if (reply.status !== 409) return false;
  if (!/Only \d+ left|Out of stock/.test(reply.body)) return false;
  if (runStarted && !soldOutAt.has(productId) && reply.body.includes("Out of stock"))
    soldOutAt.set(productId, (performance.now() - runStarted) / 1000);
  return true;
}

/** 'Buy now' of one unit: the line's id, or null when the product is sold out. */
async function buyNow(token: string, productId: number, stats: Stats): Promise<number | null> {
  const added = await step(stats, "add", "POST", "/api/order", {
    token,
    json: { status: "pending", productId, amount: 1 },
  });
  if (soldOut(added, productId)) return (void stats.addSoldOut++, null);
  expectStatus(added, 201, "buy now");
  return (JSON.parse(added.body) as { id: number }).id;
}

/** The card page approves, the return page asks the store: the outcome. */
async function payWithCard(token: string, initPoint: string, stats: Stats): Promise<string> {
  const card = await step(stats, "card", "POST", new URL(initPoint).pathname, { form: CARD });
  expectStatus(card, 303, "card page");
  const returned = new URL(card.location ?? "");
  const feedback = await step(stats, "feedback", "GET", `/api/sandbox/feedback${returned.search}`, { token });
  expectStatus(feedback, 200, "feedback");
  const { Status } = JSON.parse(feedback.body) as { Status: string };
  if (Status === "approved") stats.approved++;
  else if (Status === "refund_needed") stats.refundNeeded++;
  else throw new Unexpected(`feedback: Status ${Status}`);
  return Status;
}

async function checkout({ token }: Shopper, productId: number, stats: Stats): Promise<void> {
  const lineId = await buyNow(token, productId, stats);
  if (lineId === null) return;
  const pay = await step(stats, "pay", "POST", "/api/sandbox/pay", { token, json: { baseURL: server.base } });
  if (soldOut(pay, productId)) {
    // Told before paying: the shopper takes the line back and shops on.
    stats.payRefused++;
    return expectStatus(await request("DELETE", `/api/order/${lineId}`, { token }), 200, "drop the line");
  }
  expectStatus(pay, 200, "pay");
  await payWithCard(token, (JSON.parse(pay.body) as { init_point: string }).init_point, stats);
}

async function attempt(shopper: Shopper, productId: number, stats: Stats): Promise<void> {
  try {
    await checkout(shopper, productId, stats);
  } catch (error) {
    const message = error instanceof Unexpected ? error.message : `request failed: ${String(error)}`;
    if (stats.errors.push(message) <= 10) console.error(`error: ${message}`);
  }
}

const pick = (ids: number[]) => ids[Math.floor(Math.random() * ids.length)]!;

// --- the measurement: shoppers, a warm-up (one checkout each on a plentiful product, not counted), the run

async function newShoppers(count: number, first: number) {
  const shoppers: Shopper[] = [];
  for (let index = 0; index < count; index += 4) {
    const batch = Array.from({ length: Math.min(4, count - index) }, (_, i) => newShopper(first + index + i));
    shoppers.push(...(await Promise.all(batch)));
  }
  return shoppers;
}

/** Phase 1: every buyer presses Pay for one of the last units at once. */
async function lastUnitsRace() {
  const buyers = await newShoppers(LAST_BUYERS, 100_000);
  const stats = newStats();
  for (const buyer of buyers) await buyNow(buyer.token, lastUnits, stats);
  const started = await Promise.all(
    buyers.map((buyer) =>
      request("POST", "/api/sandbox/pay", { token: buyer.token, json: { baseURL: server.base } }),
    ),
  );
  const held = started.flatMap((reply, index) => (reply.status === 200 ? [index] : []));
  const told = started.filter(
    (reply) => reply.status === 409 && /Only \d+ left|Out of stock/.test(reply.body),
  );
  const outcomes = await Promise.all(
    held.map((index) =>
      payWithCard(
        buyers[index]!.token,
        (JSON.parse(started[index]!.body) as { init_point: string }).init_point,
        stats,
      ),
    ),
  );
  return {
    buyers,
    held: held.length,
    told: told.length,
    other: started.length - held.length - told.length,
    paid: outcomes.filter((status) => status === "approved").length,
    refunds: outcomes.filter((status) => status === "refund_needed").length,
  };
}

async function measure() {
  const last = await lastUnitsRace();
  console.log({ lastUnits: { ...last, buyers: last.buyers.length } });
  const shoppers = await newShoppers(SHOPPERS, 0);
  console.log(`${SHOPPERS} shoppers ready; hot products ${hot.join(", ")} with ${HOT_STOCK} units each`);

  const warmup = newStats();
  await Promise.all(shoppers.map((shopper) => attempt(shopper, pick(cold), warmup)));
  server.assertRunning();

  const run = newStats();
  const cpuBefore = cpuTimes();
  runStarted = performance.now();
  const deadline = runStarted + DURATION * 1000;
  await Promise.all(
    shoppers.map(async (shopper) => {
      while (performance.now() < deadline && run.approved < CHECKOUTS)
        await attempt(shopper, Math.random() < HOT_SHARE ? pick(hot) : pick(cold), run);
    }),
  );
  const elapsed = (performance.now() - runStarted) / 1000;
  const cpu = cpuShares(cpuBefore, cpuTimes(), elapsed);
  server.assertRunning();
  return { shoppers: [...last.buyers, ...shoppers], last, warmup, run, elapsed, cpu };
}

const { shoppers, last, warmup, run, elapsed, cpu } = await measure().finally(async () => {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

// --- the books: stock + sold + held = initial on every product, none below zero, every payment accounted for

const benchUsers = shoppers.map((shopper) => shopper.id);
const { rows: books } = await db.query<{ id: number; stock: number; sold: number; held: number }>(
  `select p.id, p.stock,
     coalesce((select sum(o.amount) from orders o where o.product_id = p.id and o.user_id = any($1)
       and o.status = 'finished'), 0)::int as sold,
     coalesce((select sum(h.units) from stock_holds h where h.product_id = p.id and h.expires_at > now()), 0)::int as held
   from products p order by p.id`,
  [benchUsers],
);
const { rows: checkoutRows } = await db.query<{ status: string; n: number }>(
  "select status, count(*)::int as n from checkouts where user_id = any($1) group by status",
  [benchUsers],
);
const {
  rows: [money],
} = await db.query<{ unaccounted: number; refunds: number }>(
  `select
     (select count(*) from payments p join checkouts c on c.id = p.checkout_id
       where p.status = 'approved' and not (c.status = 'paid' and c.payment_id = p.provider_payment_id)
         and p.refunded_cents + coalesce((select sum(r.amount_cents) from refunds r
           where r.payment_id = p.id and r.status = 'pending'), 0) < p.amount_cents)::int as unaccounted,
     (select count(*) from refunds)::int as refunds`,
);
await db.end();

const problems: string[] = [];
let oversold = 0;
for (const { id, stock, sold, held } of books) {
  const initial = initialStock.get(id)!;
  oversold += Math.max(0, sold - initial);
  // The shelf (`stock`) still holds the held units: what others can take is the shelf less them.
  const available = stock - held;
  if (available < 0) problems.push(`product ${id}: ${held} units held of ${stock} on the shelf`);
  if (available + sold + held !== initial)
    problems.push(`product ${id}: available ${available} + sold ${sold} + held ${held} ≠ ${initial}`);
}
const checkoutsIn = (status: string) => checkoutRows.find((row) => row.status === status)?.n ?? 0;
const approvedReplies = last.paid + warmup.approved + run.approved;
if (checkoutsIn("paid") !== approvedReplies)
  problems.push(`${checkoutsIn("paid")} paid checkouts, ${approvedReplies} approved replies`);
if (money!.unaccounted > 0)
  problems.push(`${money!.unaccounted} approved payments neither paid nor refunded`);
if (
  last.held !== LAST_UNITS ||
  last.paid !== LAST_UNITS ||
  last.told !== LAST_BUYERS - LAST_UNITS ||
  last.other
)
  problems.push(`the last ${LAST_UNITS} units: ${JSON.stringify({ ...last, buyers: undefined })}`);

// --- the results

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! : NaN;
const totalTime = STEPS.reduce((sum, name) => sum + run.latencies[name].reduce((a, b) => a + b, 0), 0);
const rows = STEPS.map((name) => {
  const sorted = [...run.latencies[name]].sort((a, b) => a - b);
  const time = sorted.reduce((a, b) => a + b, 0);
  return {
    step: name,
    requests: sorted.length,
    p50: Math.round(percentile(sorted, 50)),
    p99: Math.round(percentile(sorted, 99)),
    share: Math.round((100 * time) / totalTime),
  };
});
const perSecond = run.approved / elapsed;
const soldOutTimes = hot.map((id) => (soldOutAt.has(id) ? `${soldOutAt.get(id)!.toFixed(1)} s` : "never"));
console.table(rows);
console.log({
  elapsed: `${elapsed.toFixed(1)} s`,
  approved: run.approved,
  checkoutsPerSecond: perSecond.toFixed(1),
  refundNeeded: run.refundNeeded,
  addSoldOut: run.addSoldOut,
  payRefused: run.payRefused,
  refunds: money!.refunds,
  hotSoldOutAt: soldOutTimes.join(", "),
  errors: warmup.errors.length + run.errors.length,
  oversold,
  cpu,
});

const errors = warmup.errors.length + run.errors.length;
if (errors > 0 || problems.length > 0) {
  for (const problem of problems) console.error(`books: ${problem}`);
  console.error(
    `${errors} errors, ${problems.length} problems in the books: not a measurement of checkout; docs/benchmarks.md left as is.`,
  );
  process.exit(1);
}
if (!REPORT) {
  console.log("smoke run: docs/benchmarks.md left as is (BENCH_REPORT=true writes it)");
  process.exit(0);
}

replaceSection(
  "Checkout",
  [
    `Measured ${new Date().toISOString().slice(0, 10)} by \`npm run bench:checkout\`: ${SHOPPERS} shoppers at once for ${elapsed.toFixed(1)} s,`,
    "each running checkouts over HTTP ('buy now' → pay → sandbox card page → feedback) against",
    `the real server (one process, 10 database connections) on a fresh demo database in PostgreSQL, all on this`,
    `machine (${cpus().length} cores, ${cpus()[0]?.model.trim()}; Node ${process.version}). ${Math.round(HOT_SHARE * 100)}% of the adds go to ${HOT_PRODUCTS} hot products with`,
    `${HOT_STOCK} units each (sold out after ${soldOutTimes.join(", ")}), the rest to the other ${cold.length}, which never run out.`,
    "",
    "| step | requests | p50 ms | p99 ms | share of shopper time |",
    "|---|---|---|---|---|",
    ...rows.map((row) => `| ${row.step} | ${row.requests} | ${row.p50} | ${row.p99} | ${row.share}% |`),
    "",
    `- **The last ${LAST_UNITS} units, ${LAST_BUYERS} buyers pressing Pay at once: ${last.held} held and ${last.paid} paid, ${last.told} told`,
    `  "Only N left"/"Out of stock" before paying, ${last.refunds} refunds.**`,
    `- **${perSecond.toFixed(1)} checkouts/s** completed (${run.approved} approved).`,
    `- ${run.refundNeeded} paid checkouts ended \`refund_needed\`; ${run.addSoldOut} 'buy now' and ${run.payRefused} Pays were refused`,
    `  with 409 before any payment (sold out, or held by other buyers); ${money!.refunds} refunds in all.`,
    "- Errors: 0. **Oversold: 0** — on every product stock + sold + held = initial, none below zero; every",
    "  approved payment paid its checkout, and the paid checkouts match the replies.",
    `- CPU over the run (/proc): ${cpu} (anything else the machine ran).`,
  ].join("\n"),
);
console.log("docs/benchmarks.md updated");

// --- where the CPU went (Linux /proc, in clock ticks of 10 ms): the server, the shoppers, PostgreSQL, the rest

interface CpuTimes {
  machine: number;
  server: number;
  shoppers: number;
  postgres: number;
}

function ticksOf(line: string): number[] {
  return line.trim().split(/\s+/).map(Number);
}

/** utime + stime of a process (fields 14 and 15 of /proc/<pid>/stat; 0 once it is gone). */
function processTicks(pid: number | string): number {
  try {
    const fields = ticksOf(readFileSync(`/proc/${pid}/stat`, "utf8").replace(/^.*\) /, ""));
    return fields[11]! + fields[12]!;
  } catch {
    return 0;
  }
}

function cpuTimes(): CpuTimes | null {
  if (!existsSync("/proc/stat")) return null;
  const [, user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0] = ticksOf(
    readFileSync("/proc/stat", "utf8").split("\n")[0]!,
  );
  let postgres = 0;
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      if (readFileSync(`/proc/${pid}/comm`, "utf8").startsWith("postgres")) postgres += processTicks(pid);
    } catch {
      // gone meanwhile
    }
  }
  return {
    machine: user + nice + system + irq + softirq,
    server: processTicks(server.pid),
    shoppers: processTicks(process.pid),
    postgres,
  };
}

function cpuShares(before: CpuTimes | null, after: CpuTimes | null, elapsed: number): string {
  if (!before || !after) return "not measured (no /proc)";
  const [busy, serverTicks, shoppers, postgres] = (
    ["machine", "server", "shoppers", "postgres"] as const
  ).map((key) => after[key] - before[key]) as [number, number, number, number];
  const share = (ticks: number) => `${Math.round((100 * ticks) / busy)}%`;
  return (
    `${(busy / 100 / elapsed).toFixed(2)} of ${cpus().length} cores busy: server ${share(serverTicks)}, ` +
    `PostgreSQL ${share(postgres)}, shoppers ${share(shoppers)}, ` +
    `the rest ${share(busy - serverTicks - shoppers - postgres)}`
  );
}
