import { Writable } from "node:stream";
import Fastify from "fastify";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signAccessToken } from "../modules/auth/access-token";
import { createTestApp, type TestContext } from "../../test/app";
import { handleError } from "./error-handler";

/** Input that once reached the database and came back as a 500: each is now a 400 naming the field. */
let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const expectRefused = (reply: { statusCode: number; body: string; json(): unknown }, field: string) => {
  expect(reply.statusCode, reply.body).toBe(400);
  const body = reply.json() as { error: string; details: { field: string; reason: string }[] };
  expect(body.details[0]!.field).toBe(field);
  expect(body.error).toContain(field);
};

describe("one rule for query strings", () => {
  it.each(["/api/products", "/api/categories", "/products", "/", "/api/nothing-here"])(
    "refuses a key given twice on %s",
    async (path) => {
      expectRefused(await t.app.inject({ url: `${path}?search=a&search=b` }), "search");
    },
  );

  it.each(["/api/categories?search=%00", "/api/products?search=mouse%00", "/products?search=%00", "/?x=%00"])(
    "refuses a NUL byte in %s",
    async (url) => {
      const reply = await t.app.inject({ url });
      expect(reply.statusCode, reply.body).toBe(400);
      expect(reply.json().details[0].reason).toMatch(/NUL/);
    },
  );
});

describe("NUL bytes anywhere", () => {
  it("in a JSON body, naming the field", async () => {
    const reply = await t.app.inject({
      method: "POST",
      url: "/api/user/email",
      payload: { email: "shopper@voltio.test\u0000" },
    });
    expectRefused(reply, "email");
  });

  it("in a nested field and a key", async () => {
    const reply = await t.app.inject({
      method: "PUT",
      url: "/api/user",
      headers: await t.bearer(2),
      payload: { direction: { id: 1, city: "Li\u0000sbon" } },
    });
    expectRefused(reply, "direction.city");
    const key = await t.app.inject({
      method: "POST",
      url: "/api/user/email",
      payload: { email: "a@b.test", "x\u0000": 1 },
    });
    expect(key.statusCode).toBe(400);
  });

  it("refuses a path that isn't valid percent-encoding in the usual shape", async () => {
    for (const url of ["/api/products/%ff", "/product/%ff"]) {
      expectRefused(await t.app.inject({ url }), "path");
    }
  });

  it("in a path parameter", async () => {
    expect((await t.app.inject({ url: "/api/products/1%00" })).statusCode).toBe(400);
    expect((await t.app.inject({ url: "/product/1%00" })).statusCode).toBe(400);
  });
});

describe("ids past the database's integer", () => {
  it.each([
    ["/api/products/2147483648", "id"],
    ["/api/products?categoryId=2147483648", "categoryId"],
    ["/api/sale?limit=99999999999", "limit"],
  ])("%s → 400 on %s", async (url, field) => {
    expectRefused(await t.app.inject({ url }), field);
  });

  it("in bodies too", async () => {
    const reply = await t.app.inject({
      method: "DELETE",
      url: "/api/user/admin",
      headers: await t.bearer(1),
      payload: { id: 2147483648 },
    });
    expectRefused(reply, "id");
  });

  it("and a token whose subject no account can have is an invalid token, not a 500", async () => {
    for (const subject of [99_999_999_999, -1]) {
      const token = await signAccessToken(subject, t.config.jwtSecret);
      const reply = await t.app.inject({ url: "/api/user", headers: { authorization: `Bearer ${token}` } });
      expect(reply.statusCode, reply.body).toBe(401);
    }
  });
});

describe("uploads that aren't well-formed multipart", () => {
  const send = async (contentType: string, payload: string) =>
    t.app.inject({
      method: "POST",
      url: "/api/uploads",
      headers: { ...(await t.bearer(2)), "content-type": contentType },
      payload,
    });

  it.each([
    ["no boundary", "multipart/form-data", "--x\r\n"],
    ["an empty boundary", "multipart/form-data; boundary=", "--\r\n"],
    ["a boundary the body never uses", "multipart/form-data; boundary=abc", "garbage without parts"],
    [
      "a part cut short",
      "multipart/form-data; boundary=abc",
      '--abc\r\nContent-Disposition: form-data; name="file"',
    ],
  ])("%s → 400 on file", async (_case, contentType, payload) => {
    expectRefused(await send(contentType, payload), "file");
  });
});

describe("the log of a failed query", () => {
  it("names the database's reason and code, never the SQL text", async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const app = Fastify({ logger: { level: "error", stream } });
    app.setErrorHandler(handleError);
    app.get("/broken", async () => t.database.db.execute(sql`select ${"secret-input"}::int as n`));
    const reply = await app.inject({ url: "/broken" });
    expect(reply.statusCode).toBe(500);
    expect(reply.json()).toEqual({ error: "Internal Server Error" });
    const log = lines.join("\n");
    expect(log).toMatch(/invalid input syntax for type integer/);
    expect(log).toMatch(/"code":"22P02"/);
    expect(log).not.toMatch(/select|Failed query|params/i);
    await app.close();
  });
});
