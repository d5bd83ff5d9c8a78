import { desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog } from "../../db/schema";
import { createTestApp, type TestContext } from "../../../test/app";

/** POST /networks, with the catalogue's cache on as in production. */
let t: TestContext;
beforeAll(async () => {
  t = await createTestApp({ env: { CATALOG_CACHE_TTL_SECONDS: "300" } });
});
afterAll(() => t.close());

const post = async (payload: unknown, headers?: Record<string, string>) =>
  t.app.inject({
    method: "POST",
    url: "/api/networks",
    headers: headers ?? (await t.bearer(1)),
    payload: payload as object,
  });
const current = async () => (await t.app.inject({ url: "/api/networks" })).json()[0];

describe("POST /api/networks", () => {
  it("saves the links, and GET /networks (cached) follows at once", async () => {
    const before = await current();
    const reply = await post({ instagram: "https://instagram.com/voltio", twitter: "" });
    expect(reply.statusCode, reply.body).toBe(200);
    const after = { ...before, instagram: "https://instagram.com/voltio", twitter: "" };
    expect(reply.json()).toEqual(after);
    expect(await current()).toEqual(after);
    // A network left out keeps its link.
    expect((await post({ facebook: "http://facebook.com/voltio" })).json()).toEqual({
      ...after,
      facebook: "http://facebook.com/voltio",
    });
    const [entry] = await t.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, "networks.update"))
      .orderBy(desc(auditLog.id))
      .limit(1);
    expect(entry).toMatchObject({
      actorId: 1,
      entity: "networks",
      details: { before: after, after: { ...after, facebook: "http://facebook.com/voltio" } },
    });
  });

  it("takes only http(s) addresses, with the field and the reason", async () => {
    const saved = await current();
    for (const link of [
      "javascript:alert(1)",
      "ftp://x.test",
      "instagram.com/voltio",
      "https://",
      42,
      "https://a b.test",
    ]) {
      const reply = await post({ instagram: link });
      expect(reply.statusCode, String(link)).toBe(400);
      expect(reply.json().details[0].field).toBe("instagram");
    }
    expect(await current()).toEqual(saved);
  });

  it("is for admins only", async () => {
    expect((await post({ facebook: "" }, {})).statusCode).toBe(401);
    expect((await post({ facebook: "" }, await t.bearer(2))).statusCode).toBe(403);
  });
});
