import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestContext } from "../../../test/app";
import { TEST_PASSWORD_HASH_COST } from "../../../test/database";
import { setPasswordHashCost } from "./password";

/**
 * A login for an unknown e-mail verifies against a dummy hash of today's cost, so its reply costs as much
 * as a wrong password's for a real account: timing tells no account apart (ASVS 2.2.1). The hashes here cost
 * 2^14, so scrypt's work (what leaked when it was skipped) outweighs the rest of a request.
 */
const COST = 14;
let t: TestContext;
beforeAll(async () => {
  t = await createTestApp({ env: { PASSWORD_HASH_COST: String(COST) } });
});
afterAll(async () => {
  await t.close();
  setPasswordHashCost(TEST_PASSWORD_HASH_COST);
});

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length / 2;
  return (sorted[Math.floor(middle - 0.5)]! + sorted[Math.ceil(middle - 0.5)]!) / 2;
};

interface Cost {
  /** Milliseconds of CPU the server process spent, its scrypt threads included. */
  cpu: number;
  wall: number;
}

describe("POST /api/user/login timing", () => {
  /**
   * What a login costs is measured as the server process's CPU time: on a shared two-core machine the wall
   * time of a request is mostly the other processes' (seen at three times the CPU time, its medians 20% apart
   * run to run in either direction), while the CPU time is the server's own work, which is what would differ.
   * A hundred scrypt hashes on a loaded machine can outlast the default 30 s.
   */
  it("costs the same median for an unknown e-mail as for a wrong password (within 5% over 50 each)", async () => {
    const known = {
      firstName: "Tim",
      lastName: "Timing",
      email: "timing@voltio.test",
      password: "Quartz-lantern-7",
    };
    expect((await t.app.inject({ method: "POST", url: "/api/user", payload: known })).statusCode).toBe(201);
    const attempt = async (email: string): Promise<Cost> => {
      const cpu = process.cpuUsage();
      const started = process.hrtime.bigint();
      const reply = await t.app.inject({
        method: "POST",
        url: "/api/user/login",
        payload: { email, password: "Wrong-password-1" },
      });
      const wall = Number(process.hrtime.bigint() - started) / 1e6;
      const used = process.cpuUsage(cpu);
      expect(reply.statusCode).toBe(401);
      return { cpu: (used.user + used.system) / 1000, wall };
    };
    // One unknown e-mail, tried again and again like the known one: both series then count their failures on
    // rate-limit rows that exist, and only the password check differs.
    const unknown = () => attempt("missing@voltio.test");
    const wrong = () => attempt(known.email);
    // Warm: the dummy hash is made on first use, and the first requests compile the route's code.
    for (let i = 0; i < 5; i++) {
      await unknown();
      await wrong();
    }
    const missing: Cost[] = [];
    const wrongPassword: Cost[] = [];
    // Interleaved, in turns that alternate who goes first, so a slow moment (the garbage collector, a busy
    // neighbour) falls on both series alike.
    for (let pair = 0; pair < 50; pair++) {
      if (pair % 2 === 0) {
        missing.push(await unknown());
        wrongPassword.push(await wrong());
      } else {
        wrongPassword.push(await wrong());
        missing.push(await unknown());
      }
    }
    const medianOf = (series: Cost[], key: keyof Cost) => median(series.map((cost) => cost[key]));
    const ratio = medianOf(missing, "cpu") / medianOf(wrongPassword, "cpu");
    const detail =
      `median CPU ${medianOf(missing, "cpu").toFixed(1)} ms for an unknown e-mail, ` +
      `${medianOf(wrongPassword, "cpu").toFixed(1)} ms for a wrong password (wall ` +
      `${medianOf(missing, "wall").toFixed(1)} and ${medianOf(wrongPassword, "wall").toFixed(1)} ms)`;
    expect(Math.abs(ratio - 1), detail).toBeLessThan(0.05);
  }, 180_000);
});
