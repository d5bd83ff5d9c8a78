import { spawn, type ChildProcess } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtServer } from "../builds";
import { createTestDatabase } from "../database";
import { freePort, removeTempDirs, startServer, stop, tempDir, type Run } from "../processes";
import { and, eq, sql } from "drizzle-orm";
import type { Database } from "../../src/db/client";
import { orders, products, stockHolds } from "../../src/db/schema";

/**
 * Run on PostgreSQL only (vitest.config.ts): three server processes on one database behind
 * a real load balancer (haproxy, from the system's packages: .ci/run installs it), health-checking
 * /api/health/ready, as docs/DEPLOYMENT.md configures it.
 */
const PROCESSES = 3;
let database: Database;
let ports: number[];
const servers: Run[] = [];
let haproxy: ChildProcess;
let front: string;
let dir: string;

const serverEnv = (port: number) => ({
  DATABASE_URL: database.url!,
  JWT_SECRET: "cluster-test-secret-cluster-test-secret",
  DATA_DIR: tempDir("cluster-server"),
  PORT: String(port),
  DEMO: "false",
  // The admin edits with a password alone: two-step sign-in is tested on its own (second-factor.test.ts).
  ADMIN_REQUIRE_2FA: "false",
  RATE_LIMIT_AUTH_PER_IP: "1000",
  RATE_LIMIT_AUTH_PER_EMAIL: "3",
  SHUTDOWN_DRAIN_SECONDS: "2",
  // Shoppers come through the balancer: its address is the store's, the one a checkout may return to.
  PUBLIC_URL: front,
});

async function ready(url: string) {
  for (const started = Date.now(); Date.now() - started < 60_000;) {
    const reply = await fetch(`${url}/api/health/ready`).catch(() => undefined);
    if (reply?.status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} never became ready`);
}

async function startProcess(index: number) {
  servers[index] = startServer(serverEnv(ports[index]!));
  await servers[index].ready;
  await ready(`http://127.0.0.1:${ports[index]}`);
}

beforeAll(async () => {
  await builtServer();
  database = await createTestDatabase("demo");
  ports = await Promise.all(Array.from({ length: PROCESSES }, () => freePort()));
  const frontPort = await freePort();
  front = `http://127.0.0.1:${frontPort}`;
  for (let i = 0; i < PROCESSES; i++) await startProcess(i);
  dir = tempDir("haproxy");
  writeFileSync(
    join(dir, "haproxy.cfg"),
    [
      "global",
      "  maxconn 512",
      "defaults",
      "  mode http",
      "  timeout connect 2s",
      "  timeout client 30s",
      "  timeout server 30s",
      "  retries 3",
      "  option redispatch",
      "  retry-on conn-failure empty-response response-timeout",
      "frontend store",
      `  bind 127.0.0.1:${frontPort}`,
      "  default_backend voltio",
      "backend voltio",
      "  balance roundrobin",
      "  option httpchk GET /api/health/ready",
      "  http-check expect status 200",
      "  default-server inter 200ms fall 1 rise 2",
      ...ports.map((port, i) => `  server s${i} 127.0.0.1:${port} check`),
      "",
    ].join("\n"),
  );
  haproxy = spawn("haproxy", ["-db", "-f", join(dir, "haproxy.cfg")], { stdio: "ignore" });
  await ready(front);
}, 180_000);

afterAll(async () => {
  haproxy?.kill("SIGTERM");
  await Promise.all(servers.map((server) => stop(server)));
  await database?.close();
  removeTempDirs();
});

const json = (url: string, init?: RequestInit) =>
  fetch(url, { ...init, headers: { "content-type": "application/json", ...init?.headers } });

describe("three processes behind haproxy on one PostgreSQL database", { timeout: 180_000 }, () => {
  it("shows an edit made through the balancer on every process within a second", async () => {
    const login = await json(`${front}/api/user/login`, {
      method: "POST",
      body: JSON.stringify({ email: "admin@voltio.test", password: "Admin1234!" }),
    });
    expect(login.status).toBe(200);
    const { accessToken } = (await login.json()) as { accessToken: string };
    // Every process caches the product first.
    for (const port of ports) await fetch(`http://127.0.0.1:${port}/api/products/2`);
    const edited = await json(`${front}/api/products/2`, {
      method: "PUT",
      headers: { authorization: `Bearer ${accessToken}` },
      body: JSON.stringify({
        title: "Edited behind the balancer",
        name: "thing",
        price: 12,
        shippingCost: 0,
        description: "Edited. ",
        stock: 40,
        images: [],
        categories: ["Things"],
      }),
    });
    expect(edited.status, await edited.text()).toBe(200);
    const committed = Date.now();
    await Promise.all(
      ports.map(async (port) => {
        for (;;) {
          const { title } = (await (await fetch(`http://127.0.0.1:${port}/api/products/2`)).json()) as {
            title: string;
          };
          if (title === "Edited behind the balancer") return;
          expect(Date.now() - committed, `process on ${port}`).toBeLessThan(1000);
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
      }),
    );
  });

  it("enforces the limits of one process, whichever process answers", async () => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 5; attempt++) {
      const reply = await json(`${front}/api/user/login`, {
        method: "POST",
        body: JSON.stringify({ email: "shopper@voltio.test", password: `wrong-${attempt}` }),
      });
      statuses.push(reply.status);
    }
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
  });

  it("loses no acknowledged order and oversells nothing when a process is killed under a checkout load", async () => {
    const [product] = await database.db
      .insert(products)
      .values({ title: "Last five", name: "cluster", priceCents: 1000, stock: 5 })
      .returning({ id: products.id });
    const productId = product!.id;
    const acknowledged: number[] = [];
    const buyer = async (index: number) => {
      const email = `cluster-${index}-${Date.now()}@voltio.test`;
      const user = { firstName: "Cluster", lastName: "Buyer", email, password: "cluster-password-1" };
      if ((await json(`${front}/api/user`, { method: "POST", body: JSON.stringify(user) })).status !== 201)
        return;
      const login = await json(`${front}/api/user/login`, { method: "POST", body: JSON.stringify(user) });
      const { accessToken } = (await login.json()) as { accessToken: string };
      const headers = { authorization: `Bearer ${accessToken}` };
      const address = { city: "Rosario", street: "Córdoba", streetNumber: 1, postalCode: "2000" };
      await json(`${front}/api/user/direction`, { method: "POST", headers, body: JSON.stringify(address) });
      const added = await json(`${front}/api/order`, {
        method: "POST",
        headers,
        body: JSON.stringify({ status: "pending", productId, amount: 1 }),
      });
      if (added.status !== 201) return;
      const line = ((await added.json()) as { id: number }).id;
      const pay = await json(`${front}/api/sandbox/pay`, {
        method: "POST",
        headers,
        body: JSON.stringify({ baseURL: front }),
      });
      if (pay.status !== 200) return;
      const { init_point } = (await pay.json()) as { init_point: string };
      const card = await fetch(`${front}${new URL(init_point).pathname}`, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ number: "4242424242424242", expiry: "12/40", cvc: "123" }).toString(),
      });
      const returned = new URL(card.headers.get("location") ?? "", front);
      const feedback = await fetch(`${front}/api/sandbox/feedback${returned.search}`, { headers });
      if (feedback.status === 200 && ((await feedback.json()) as { Status: string }).Status === "approved")
        acknowledged.push(line);
    };
    const buying = Promise.all(Array.from({ length: 12 }, (_, index) => buyer(index).catch(() => {})));
    await new Promise((resolve) => setTimeout(resolve, 400));
    servers[1]!.child.kill("SIGKILL");
    await buying;
    await startProcess(1);

    // Every order the store acknowledged is paid; the units add up; nothing is sold twice.
    const lines = await database.db
      .select({ id: orders.id, status: orders.status, amount: orders.amount })
      .from(orders)
      .where(eq(orders.productId, productId));
    for (const id of acknowledged) expect(lines.find((line) => line.id === id)?.status).toBe("finished");
    const sold = lines
      .filter((line) => line.status === "finished")
      .reduce((sum, line) => sum + line.amount, 0);
    const [row] = await database.db
      .select({ stock: products.stock })
      .from(products)
      .where(eq(products.id, productId));
    const [held] = await database.db
      .select({ units: sql<number>`coalesce(sum(${stockHolds.units}), 0)::int` })
      .from(stockHolds)
      .where(and(eq(stockHolds.productId, productId), sql`${stockHolds.expiresAt} > now()`));
    // The shelf still holds the units of checkouts left open by the killed process: others can't take them.
    const available = row!.stock - Number(held!.units);
    expect(available).toBeGreaterThanOrEqual(0);
    expect(available + sold + Number(held!.units)).toBe(5);
    expect(sold).toBeLessThanOrEqual(5);
  });

  it("fails no request while every process is restarted in turn under steady load", async () => {
    let stopping = false;
    const failures: string[] = [];
    let served = 0;
    const load = Array.from({ length: 4 }, async () => {
      while (!stopping) {
        try {
          const reply = await fetch(`${front}/api/products?offset=1`);
          await reply.arrayBuffer();
          if (reply.status === 200) served++;
          else failures.push(`status ${reply.status}`);
        } catch (error) {
          failures.push(String(error));
        }
      }
    });
    for (let i = 0; i < PROCESSES; i++) {
      // SIGTERM: readiness fails first, haproxy stops sending, then the process drains and ends.
      expect(await stop(servers[i]!)).toBe(0);
      await startProcess(i);
      // haproxy takes it back once it answered ready twice.
      await new Promise((resolve) => setTimeout(resolve, 600));
    }
    stopping = true;
    await Promise.all(load);
    expect(failures).toEqual([]);
    expect(served).toBeGreaterThan(50);
  });
});
