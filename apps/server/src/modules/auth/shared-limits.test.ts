import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp, type App } from "../../app";
import { createTestApp, type TestContext } from "../../../test/app";

/**
 * Two app instances on one database (two processes behind a balancer) enforce exactly the
 * limits of one. Requests alternate between them, from one address.
 */
let t: TestContext;
let other: App;
beforeAll(async () => {
  t = await createTestApp({
    env: {
      RATE_LIMIT_AUTH_PER_IP: "6",
      RATE_LIMIT_AUTH_PER_EMAIL: "3",
      RATE_LIMIT_AUTH_WINDOW_SECONDS: "600",
      RATE_LIMIT_LOGIN_DELAY_MS: "1",
      RATE_LIMIT_LOGIN_MAX_DELAY_MS: "4",
    },
  });
  other = await buildApp(t.config, t.database.db);
});
afterAll(async () => {
  await other.close();
  await t.close();
});

const instances = () => [t.app, other];

describe("limits shared by every process on one database", () => {
  it("counts failed logins of one e-mail from one address across both processes", async () => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 6; attempt++) {
      const reply = await instances()[attempt % 2]!.inject({
        method: "POST",
        url: "/api/user/login",
        remoteAddress: "203.0.113.7",
        payload: { email: "shopper@voltio.test", password: `wrong-${attempt}` },
      });
      statuses.push(reply.statusCode);
    }
    // 3 per e-mail and address, whichever process answers: the 4th is refused, as one process would.
    expect(statuses).toEqual([401, 401, 401, 429, 429, 429]);
  });

  it("counts e-mail checks of one address across both processes", async () => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 9; attempt++) {
      const reply = await instances()[attempt % 2]!.inject({
        method: "POST",
        url: "/api/user/email",
        remoteAddress: "203.0.113.8",
        payload: { email: `someone-${attempt}@voltio.test` },
      });
      statuses.push(reply.statusCode);
    }
    expect(statuses.filter((status) => status === 200)).toHaveLength(6);
    expect(statuses.slice(6)).toEqual([429, 429, 429]);
    const refused = await other.inject({
      method: "POST",
      url: "/api/user/email",
      remoteAddress: "203.0.113.8",
      payload: { email: "late@voltio.test" },
    });
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(500);
  });
});
