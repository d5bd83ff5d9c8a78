import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestContext } from "../../../test/app";

/** GET /audit: the changes admins made through the API, as the audit screen reads them. */
let t: TestContext;
let secondAdmin: number;
beforeAll(async () => {
  t = await createTestApp();
  const registered = await t.app.inject({
    method: "POST",
    url: "/api/user",
    payload: {
      firstName: "Ada",
      lastName: "Second",
      email: "ada.audit@voltio.test",
      password: "long-enough-1",
    },
  });
  secondAdmin = registered.json().id;
  const promoted = await t.app.inject({
    method: "PUT",
    url: "/api/user/admin",
    headers: await t.bearer(1),
    payload: { id: secondAdmin, rol: "admin" },
  });
  expect(promoted.statusCode).toBe(200);
  const networks = await t.app.inject({
    method: "POST",
    url: "/api/networks",
    headers: await t.bearer(secondAdmin),
    payload: { twitter: "https://twitter.com/voltio" },
  });
  expect(networks.statusCode).toBe(200);
});
afterAll(() => t.close());

const audit = async (query = "") => {
  const reply = await t.app.inject({ url: `/api/audit${query}`, headers: await t.bearer(1) });
  expect(reply.statusCode, reply.body).toBe(200);
  return reply.json();
};

describe("GET /api/audit", () => {
  it("lists changes newest first, with who, what, when, before and after", async () => {
    const page = await audit();
    expect(page).toMatchObject({ page: 1, total: 2, totalPages: 1 });
    expect(page.entries.map((e: { action: string }) => e.action)).toEqual(["networks.update", "user.role"]);
    expect(page.entries[0]).toMatchObject({
      actor: { id: secondAdmin, firstName: "Ada", lastName: "Second", email: "ada.audit@voltio.test" },
      entity: "networks",
      entityId: "1",
      details: { after: { twitter: "https://twitter.com/voltio" } },
    });
    expect(Date.parse(page.entries[0].createdAt)).not.toBeNaN();
    expect(page.entries[1]).toMatchObject({
      actor: { id: 1 },
      entity: "user",
      entityId: String(secondAdmin),
      details: { before: { rol: "user" }, after: { rol: "admin" } },
    });
  });

  it("filters by entity and by admin, and pages", async () => {
    expect((await audit("?entity=user")).entries.map((e: { action: string }) => e.action)).toEqual([
      "user.role",
    ]);
    expect((await audit(`?actorId=${secondAdmin}`)).total).toBe(1);
    expect((await audit(`?actorId=${secondAdmin}&entity=user`)).total).toBe(0);
    const first = await audit("?limit=1");
    const second = await audit("?limit=1&page=2");
    expect([first.totalPages, first.entries[0].action, second.entries[0].action]).toEqual([
      2,
      "networks.update",
      "user.role",
    ]);
  });

  it("refuses bad filters with the field, and anyone but an admin", async () => {
    for (const [query, field] of [
      ["?entity=password", "entity"],
      ["?actorId=0", "actorId"],
      ["?page=-1", "page"],
      ["?limit=1000", "limit"],
    ]) {
      const reply = await t.app.inject({ url: `/api/audit${query}`, headers: await t.bearer(1) });
      expect(reply.statusCode, query).toBe(400);
      expect(reply.json().details[0].field).toBe(field);
    }
    expect((await t.app.inject({ url: "/api/audit" })).statusCode).toBe(401);
    expect((await t.app.inject({ url: "/api/audit", headers: await t.bearer(2) })).statusCode).toBe(403);
  });
});
