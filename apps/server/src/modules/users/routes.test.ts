import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { desc, eq } from "drizzle-orm";
import { userSchema, type User } from "@voltio/domain/account";
import { auditLog, directions, mailOutbox, orders, users } from "../../db/schema";
import { createTestApp, type TestContext } from "../../../test/app";
import { TEST_PASSWORD_HASH_COST } from "../../../test/database";

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

type Headers = Record<string, string>;
const call = (
  method: "GET" | "POST" | "PUT" | "DELETE",
  url: string,
  headers: Headers = {},
  payload?: object,
) => t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

async function register(email: string, firstName = "Nora") {
  const reply = await call(
    "POST",
    "/api/user",
    {},
    { firstName, lastName: "Newman", email, password: "long-enough-1" },
  );
  expect(reply.statusCode, reply.body).toBe(201);
  return reply.json<{ id: number }>().id;
}

async function loginAs(email: string, password = "long-enough-1") {
  const reply = await call("POST", "/api/user/login", {}, { email, password });
  expect(reply.statusCode, reply.body).toBe(200);
  const tokens = reply.json<{ accessToken: string; refreshToken: string }>();
  return { headers: { authorization: `Bearer ${tokens.accessToken}` }, refreshToken: tokens.refreshToken };
}

const me = async (headers: Headers) => {
  const reply = await call("GET", "/api/user", headers);
  expect(reply.statusCode, reply.body).toBe(200);
  return userSchema.parse(reply.json());
};

describe("POST /api/user (register)", () => {
  it("creates an account that can log in", async () => {
    const reply = await call(
      "POST",
      "/api/user",
      {},
      {
        firstName: "Alan",
        lastName: "Turing",
        email: "alan@voltio.test",
        password: "enigma-1912",
      },
    );
    expect(reply.statusCode).toBe(201);
    expect(reply.json()).toMatchObject({ msg: "User created" });
    const { headers } = await loginAs("alan@voltio.test", "enigma-1912");
    expect(await me(headers)).toMatchObject({
      firstName: "Alan",
      lastName: "Turing",
      rol: "user",
      googleUser: false,
      newsletterSubscription: false,
      directions: [],
    });
  });

  it("takes names in any language: 'María José' 'Núñez O'Brien'", async () => {
    const reply = await call(
      "POST",
      "/api/user",
      {},
      {
        firstName: " María José ",
        lastName: "Núñez O'Brien",
        email: "maria.jose@voltio.test",
        password: "long-enough-1",
      },
    );
    expect(reply.statusCode, reply.body).toBe(201);
    const { headers } = await loginAs("maria.jose@voltio.test", "long-enough-1");
    expect(await me(headers)).toMatchObject({ firstName: "María José", lastName: "Núñez O'Brien" });
  });

  it("keeps the e-mail unique whatever its case", async () => {
    const reply = await call(
      "POST",
      "/api/user",
      {},
      {
        firstName: "Copy",
        lastName: "Cat",
        email: "SHOPPER@Voltio.test",
        password: "long-enough-1",
      },
    );
    expect(reply.statusCode).toBe(409);
    expect(reply.json().error).toBe("email exists");
  });

  it.each([
    [{ firstName: "" }, "firstName", "First name is required"],
    [{ firstName: "Ann  Marie" }, "firstName", "Only letters, no spaces or digits"],
    [{ firstName: "R2D2" }, "firstName", "Only letters, no spaces or digits"],
    [{ lastName: "O'" }, "lastName", "Only letters, no spaces or digits"],
    [{ lastName: "Smith & Co" }, "lastName", "Only letters, no spaces or digits"],
    [{ lastName: " " }, "lastName", "Last name is required"],
    [{ email: "" }, "email", "E-mail is required"],
    [{ email: "nope@" }, "email", "Enter a valid e-mail"],
    [{ password: "" }, "password", "Password is required"],
    [{ password: "short7!" }, "password", "At least 8 characters"],
  ])("refuses %o: %s → %s", async (change, field, reason) => {
    const body = {
      firstName: "Valid",
      lastName: "Person",
      email: "valid@voltio.test",
      password: "long-enough-1",
      ...change,
    };
    const reply = await call("POST", "/api/user", {}, body);
    expect(reply.statusCode).toBe(400);
    expect(reply.json().details).toContainEqual({ field, reason });
  });

  it("never stores or returns the password itself, and can't be made an admin", async () => {
    const reply = await call(
      "POST",
      "/api/user",
      {},
      {
        firstName: "Eve",
        lastName: "Sneaky",
        email: "eve@voltio.test",
        password: "long-enough-1",
        rol: "admin",
      },
    );
    expect(reply.statusCode).toBe(201);
    const [row] = await t.database.db.select().from(users).where(eq(users.email, "eve@voltio.test"));
    expect(row!.rol).toBe("user");
    // At the harness's cost (production's is checked in auth/password.test.ts).
    expect(row!.passwordHash!.startsWith(`scrypt$${2 ** TEST_PASSWORD_HASH_COST}$8$1$`)).toBe(true);
    expect(row!.passwordHash).not.toContain("long-enough-1");
  });
});

describe("GET /api/user", () => {
  it("is the caller with their addresses, without any password hash", async () => {
    const reply = await call("GET", "/api/user", await t.bearer(2));
    expect(reply.statusCode).toBe(200);
    expect(reply.body).not.toMatch(/password|scrypt/i);
    expect(reply.json()).toEqual({
      id: 2,
      firstName: "Sam",
      lastName: "Shopper",
      email: "shopper@voltio.test",
      rol: "user",
      profilePicture: "/illustrations/avatar/SS.svg",
      googleUser: false,
      newsletterSubscription: expect.any(Boolean),
      directions: [
        {
          id: expect.any(Number),
          city: "Springfield",
          street: "Evergreen Terrace",
          streetNumber: 742,
          floor: null,
          unit: null,
          postalCode: "49007",
        },
      ],
    });
    expect(reply.headers["cache-control"]).toBe("no-store");
  });

  it("needs a login", async () => {
    expect((await call("GET", "/api/user")).statusCode).toBe(401);
  });
});

describe("PUT /api/user", () => {
  let headers: Headers;
  let id: number;
  beforeAll(async () => {
    id = await register("editor@voltio.test", "Edith");
    headers = (await loginAs("editor@voltio.test")).headers;
  });

  it.each([
    [{ firstName: "Edwina" }, { firstName: "Edwina" }],
    [{ lastName: "Editor-Smith" }, { lastName: "Editor-Smith" }],
    [{ firstName: "Lucía" }, { firstName: "Lucía" }],
    [{ lastName: "D’Ávila" }, { lastName: "D’Ávila" }],
    [
      { profilePicture: "/uploads/0123456789abcdef0123456789abcdef.png" },
      { profilePicture: "/uploads/0123456789abcdef0123456789abcdef.png" },
    ],
    [
      { profilePicture: "https://lh3.googleusercontent.com/a/pic" },
      { profilePicture: "https://lh3.googleusercontent.com/a/pic" },
    ],
    [{ newsletterSubscription: true }, { newsletterSubscription: true }],
    [{ newsletterSubscription: false }, { newsletterSubscription: false }],
  ])("changes one field: %o", async (body, expected) => {
    const reply = await call("PUT", "/api/user", headers, body);
    expect(reply.statusCode, reply.body).toBe(200);
    expect(reply.json()).toMatchObject(expected);
    expect(await me(headers)).toMatchObject(expected);
  });

  it("changes the e-mail with the current password once the new address confirms it, unique whatever its case", async () => {
    const currentPassword = "long-enough-1";
    const taken = await call("PUT", "/api/user", headers, { email: "Admin@Voltio.test", currentPassword });
    expect(taken.statusCode).toBe(409);
    const reply = await call("PUT", "/api/user", headers, { email: "edith@voltio.test", currentPassword });
    expect(reply.statusCode, reply.body).toBe(200);
    // Still the old address until the link sent to the new one is opened (email-change.test.ts).
    expect(reply.json()).toMatchObject({ email: "editor@voltio.test", pendingEmail: "edith@voltio.test" });
    const [mail] = await t.database.db
      .select({ text: mailOutbox.textBody })
      .from(mailOutbox)
      .where(eq(mailOutbox.recipient, "edith@voltio.test"));
    const token = /\/user\/email\/confirm\?token=([\w-]{43})/.exec(mail?.text ?? "")?.[1];
    expect((await call("POST", "/api/user/email/confirm", {}, { token })).statusCode).toBe(200);
    await loginAs("edith@voltio.test");
  });

  it.each([
    [{}, "Send one field at a time"],
    [{ firstName: "Two", lastName: "Fields" }, "Send one field at a time"],
    [{ firstName: "D4ve" }, "Only letters, no spaces or digits"],
    [{ email: "broken" }, "Enter a valid e-mail"],
    [{ profilePicture: "javascript:alert(1)" }, "The picture must be an uploaded image or an https address"],
    [
      { profilePicture: "http://insecure.test/pic.png" },
      "The picture must be an uploaded image or an https address",
    ],
    [
      { profilePicture: "/uploads/../../etc/passwd" },
      "The picture must be an uploaded image or an https address",
    ],
    [{ prevPassword: "long-enough-1" }, "Fill in the corresponding fields"],
    [{ prevPassword: "", newPassword: "another-one-2" }, "Fill in the corresponding fields"],
    [{ prevPassword: "long-enough-1", newPassword: "short" }, "At least 8 characters"],
  ])("refuses %o", async (body, reason) => {
    const reply = await call("PUT", "/api/user", headers, body);
    expect(reply.statusCode).toBe(400);
    expect(reply.json().details.map((d: { reason: string }) => d.reason)).toContain(reason);
  });

  it("refuses fields a user may not set, such as the role", async () => {
    const reply = await call("PUT", "/api/user", headers, { rol: "admin" });
    expect(reply.statusCode).toBe(400);
    const sneaky = await call("PUT", "/api/user", headers, {
      firstName: "Edith",
      rol: "admin",
      googleUser: true,
    });
    expect(sneaky.statusCode).toBe(400);
    const [row] = await t.database.db.select().from(users).where(eq(users.id, id));
    expect(row!.rol).toBe("user");
  });

  it("changes the password with the old one, and ends the account's other logins", async () => {
    const other = await loginAs("edith@voltio.test");
    const current = await loginAs("edith@voltio.test");
    const wrong = await call("PUT", "/api/user", current.headers, {
      prevPassword: "not-my-password",
      newPassword: "brand-new-pass",
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toContain("incorrect");

    const reply = await call("PUT", "/api/user", current.headers, {
      prevPassword: "long-enough-1",
      newPassword: "brand-new-pass",
    });
    expect(reply.statusCode, reply.body).toBe(200);
    expect(
      (await call("POST", "/api/user/login", {}, { email: "edith@voltio.test", password: "long-enough-1" }))
        .statusCode,
    ).toBe(401);
    await loginAs("edith@voltio.test", "brand-new-pass");
    // The session that changed it goes on; the other one can't refresh any more.
    expect((await call("POST", "/api/user/token", {}, { token: current.refreshToken })).statusCode).toBe(200);
    expect((await call("POST", "/api/user/token", {}, { token: other.refreshToken })).statusCode).toBe(401);
  });

  it("needs a login", async () => {
    expect((await call("PUT", "/api/user", {}, { firstName: "Ghost" })).statusCode).toBe(401);
  });
});

describe("addresses", () => {
  const address = {
    city: "Lisbon",
    street: "Rua Augusta",
    streetNumber: "100",
    floor: "2",
    unit: "B",
    postalCode: "1100-053",
  };
  let owner: Headers;
  let stranger: Headers;
  beforeAll(async () => {
    await register("owner@voltio.test", "Olga");
    await register("stranger@voltio.test", "Stan");
    owner = (await loginAs("owner@voltio.test")).headers;
    stranger = (await loginAs("stranger@voltio.test")).headers;
  });

  async function add(headers: Headers, body: object = address): Promise<User> {
    const reply = await call("POST", "/api/user/direction", headers, body);
    expect(reply.statusCode, reply.body).toBe(201);
    return userSchema.parse(reply.json());
  }

  it("adds an address (streetNumber becomes a number) and replies the user with every address", async () => {
    const user = await add(owner);
    expect(user.directions).toEqual([
      {
        id: expect.any(Number),
        city: "Lisbon",
        street: "Rua Augusta",
        streetNumber: 100,
        floor: "2",
        unit: "B",
        postalCode: "1100-053",
      },
    ]);
    const bare = await add(owner, {
      city: "Porto",
      street: "Rua das Flores",
      streetNumber: 7,
      postalCode: "4050-262",
    });
    expect(bare.directions[1]).toMatchObject({ floor: null, unit: null });
  });

  it.each(["city", "street", "streetNumber", "postalCode"])(
    "needs %s: 'Complete the required fields'",
    async (field) => {
      const reply = await call("POST", "/api/user/direction", owner, { ...address, [field]: "" });
      expect(reply.statusCode).toBe(400);
      expect(reply.json().details).toContainEqual({ field, reason: "Complete the required fields" });
    },
  );

  it("refuses a street number that isn't a whole number", async () => {
    const reply = await call("POST", "/api/user/direction", owner, { ...address, streetNumber: "12b" });
    expect(reply.json().details).toContainEqual({
      field: "streetNumber",
      reason: "The street number must be a whole number",
    });
  });

  it("edits one of the caller's addresses through PUT /user {direction}", async () => {
    const [first] = (await me(owner)).directions;
    const reply = await call("PUT", "/api/user", owner, {
      direction: { id: first!.id, city: "Coimbra", streetNumber: 12 },
    });
    expect(reply.statusCode, reply.body).toBe(200);
    expect(reply.json().directions[0]).toMatchObject({
      id: first!.id,
      city: "Coimbra",
      streetNumber: 12,
      street: "Rua Augusta",
    });
  });

  it("answers an edit without any field with the address unchanged, never a server error", async () => {
    const [first] = (await me(owner)).directions;
    const reply = await call("PUT", "/api/user", owner, { direction: { id: first!.id } });
    expect(reply.statusCode, reply.body).toBe(200);
    expect(reply.json().directions[0]).toEqual(first);
  });

  it("never shows, changes or deletes another user's address", async () => {
    const [target] = (await me(owner)).directions;
    const theirs = await me(stranger);
    expect(JSON.stringify(theirs)).not.toContain("Coimbra");

    const edit = await call("PUT", "/api/user", stranger, { direction: { id: target!.id, city: "Hacked" } });
    expect(edit.statusCode).toBe(404);
    const remove = await call("DELETE", `/api/user/direction/${target!.id}`, stranger);
    expect(remove.statusCode).toBe(404);
    // The same answer as for an id that doesn't exist at all.
    expect((await call("DELETE", "/api/user/direction/999999", stranger)).json()).toEqual(remove.json());

    const [row] = await t.database.db.select().from(directions).where(eq(directions.id, target!.id));
    expect(row!.city).toBe("Coimbra");
  });

  it("deletes the caller's address and replies the remaining ones", async () => {
    const before = await me(owner);
    const reply = await call("DELETE", `/api/user/direction/${before.directions[0]!.id}`, owner);
    expect(reply.statusCode).toBe(200);
    expect(reply.json().directions.map((d: { city: string }) => d.city)).toEqual(["Porto"]);
    expect((await call("DELETE", "/api/user/direction/abc", owner)).statusCode).toBe(400);
  });

  it("keeps at most 20 addresses per account", async () => {
    const user = await me(owner);
    for (let i = user.directions.length; i < 20; i++) await add(owner);
    const reply = await call("POST", "/api/user/direction", owner, address);
    expect(reply.statusCode).toBe(409);
  });

  it("keeps the cap under 200 concurrent creations", async () => {
    const email = "racer@voltio.test";
    await register(email, "Racer");
    const racer = (await loginAs(email)).headers;
    const replies = await Promise.all(
      Array.from({ length: 200 }, () => call("POST", "/api/user/direction", racer, address)),
    );
    const statuses = replies.map((reply) => reply.statusCode);
    expect(statuses.filter((status) => status === 201)).toHaveLength(20);
    expect(statuses.filter((status) => status === 409)).toHaveLength(180);
    expect((await me(racer)).directions).toHaveLength(20);
  });

  it("needs a login", async () => {
    expect((await call("POST", "/api/user/direction", {}, address)).statusCode).toBe(401);
    expect((await call("DELETE", "/api/user/direction/1")).statusCode).toBe(401);
  });
});

describe("admin calls", () => {
  let admin: Headers;
  let shopper: Headers;
  beforeAll(async () => {
    admin = await t.bearer(1);
    shopper = await t.bearer(2);
  });

  it("refuse users (403) and guests (401)", async () => {
    const calls = [
      ["GET", "/api/user/all", undefined],
      ["PUT", "/api/user/admin", { id: 2, rol: "admin" }],
      ["DELETE", "/api/user/admin", { id: 3 }],
    ] as const;
    for (const [method, url, body] of calls) {
      expect((await call(method, url, shopper, body)).statusCode, `${method} ${url}`).toBe(403);
      expect((await call(method, url, {}, body)).statusCode, `${method} ${url}`).toBe(401);
    }
    const [row] = await t.database.db.select().from(users).where(eq(users.id, 2));
    expect(row!.rol).toBe("user");
  });

  it("lists every live account without password hashes", async () => {
    const reply = await call("GET", "/api/user/all", admin);
    expect(reply.statusCode).toBe(200);
    expect(reply.body).not.toMatch(/password|scrypt/i);
    const list = reply.json<{ id: number; email: string; rol: string }[]>();
    expect(list.slice(0, 2).map((u) => [u.id, u.email, u.rol])).toEqual([
      [1, "admin@voltio.test", "admin"],
      [2, "shopper@voltio.test", "user"],
    ]);
  });

  it("toggles a role, and records who did it", async () => {
    const promoted = await call("PUT", "/api/user/admin", admin, { id: 2 });
    expect(promoted.statusCode, promoted.body).toBe(200);
    expect(promoted.json()).toMatchObject({ id: 2, rol: "admin" });
    // The user stays signed in with the new role's powers at once, and is told.
    const asAdmin = await call("GET", "/api/user/all", shopper);
    expect(asAdmin.statusCode).toBe(200);
    expect(asAdmin.headers["voltio-role-changed"]).toBe("admin");
    const demoted = await call("PUT", "/api/user/admin", admin, { id: 2, rol: "user" });
    expect(demoted.json()).toMatchObject({ rol: "user" });
    // Back to the role the token was issued with: nothing to tell, and no admin powers.
    const back = await call("GET", "/api/user/all", shopper);
    expect(back.statusCode).toBe(403);
    expect(back.headers["voltio-role-changed"]).toBeUndefined();

    const log = await t.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, "user.role"))
      .orderBy(auditLog.id);
    expect(log.map((entry) => [entry.actorId, entry.entityId, entry.details])).toEqual([
      [1, "2", { before: { rol: "user" }, after: { rol: "admin" } }],
      [1, "2", { before: { rol: "admin" }, after: { rol: "user" } }],
    ]);
  });

  it("never demotes user 1, by toggle or by role", async () => {
    const newAdminId = await register("second-admin@voltio.test", "Sid");
    await call("PUT", "/api/user/admin", admin, { id: newAdminId, rol: "admin" });
    const secondAdmin = await t.bearer(newAdminId);
    for (const body of [{ id: 1 }, { id: 1, rol: "user" }]) {
      const reply = await call("PUT", "/api/user/admin", secondAdmin, body);
      expect(reply.statusCode).toBe(403);
      expect(reply.json().error).toMatch(/user 1/);
    }
    const [row] = await t.database.db.select().from(users).where(eq(users.id, 1));
    expect(row!.rol).toBe("admin");
    expect((await call("PUT", "/api/user/admin", admin, { id: 1, rol: "admin" })).statusCode).toBe(200);
    expect((await call("PUT", "/api/user/admin", admin, { id: 999999 })).statusCode).toBe(404);
  });

  it("soft-deletes an account: it can't log in, its tokens stop working, its e-mail is free again", async () => {
    const id = await register("leaving@voltio.test", "Lea");
    const session = await loginAs("leaving@voltio.test");
    const address = { city: "Oslo", street: "Karl Johans gate", streetNumber: 1, postalCode: "0154" };
    expect((await call("POST", "/api/user/direction", session.headers, address)).statusCode).toBe(201);
    expect(
      (await call("POST", "/api/order", session.headers, { status: "inCart", productId: 3 })).statusCode,
    ).toBe(201);
    const bought = await call("POST", "/api/order", session.headers, { status: "pending", productId: 3 });
    expect(bought.statusCode, bought.body).toBe(201);
    const reply = await call("DELETE", "/api/user/admin", admin, { id });
    expect(reply.statusCode, reply.body).toBe(200);

    const [row] = await t.database.db.select().from(users).where(eq(users.id, id));
    expect(row!.deletedAt).toBeInstanceOf(Date);
    // Nothing left that says who the person was; their purchase stays for the books.
    expect(row).toMatchObject({
      firstName: "Deleted",
      lastName: "User",
      email: `deleted-user-${id}@deleted.invalid`,
      profilePicture: "",
      newsletterSubscription: false,
    });
    expect(JSON.stringify(row)).not.toMatch(/Lea|leaving|scrypt/);
    expect(await t.database.db.select().from(directions).where(eq(directions.userId, id))).toEqual([]);
    const left = await t.database.db.select().from(orders).where(eq(orders.userId, id));
    expect(left.map((line) => line.status)).toEqual(["pending"]);
    expect((await call("GET", "/api/user", session.headers)).statusCode).toBe(401);
    expect((await call("POST", "/api/user/token", {}, { token: session.refreshToken })).statusCode).toBe(401);
    expect(
      (await call("POST", "/api/user/login", {}, { email: "leaving@voltio.test", password: "long-enough-1" }))
        .statusCode,
    ).toBe(401);
    const list = (await call("GET", "/api/user/all", admin)).json<{ id: number }[]>();
    expect(list.some((u) => u.id === id)).toBe(false);
    expect((await call("DELETE", "/api/user/admin", admin, { id })).statusCode).toBe(404);

    const [entry] = await t.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, "user.delete"))
      .orderBy(desc(auditLog.id));
    expect(entry).toMatchObject({
      actorId: 1,
      entityId: String(id),
      details: { before: { rol: "user" }, after: null },
    });
    expect(JSON.stringify(entry!.details)).not.toMatch(/leaving/);

    await register("leaving@voltio.test", "Lea");
  });

  it("never deletes user 1, and an admin can't delete themselves", async () => {
    const otherAdminId = await register("third-admin@voltio.test", "Tess");
    await call("PUT", "/api/user/admin", admin, { id: otherAdminId, rol: "admin" });
    const otherAdmin = await t.bearer(otherAdminId);
    expect((await call("DELETE", "/api/user/admin", otherAdmin, { id: 1 })).statusCode).toBe(403);
    expect((await call("DELETE", "/api/user/admin", admin, { id: 1 })).statusCode).toBe(403);
    expect((await call("DELETE", "/api/user/admin", otherAdmin, { id: otherAdminId })).statusCode).toBe(403);
    const [row] = await t.database.db.select().from(users).where(eq(users.id, 1));
    expect(row!.deletedAt).toBeNull();
  });
});

describe("GET /api/user/admin (admin)", () => {
  it("pages the accounts and searches names and e-mails, case-insensitively", async () => {
    const admin = await t.bearer(1);
    for (const name of ["Zorbel", "Zorbax", "Zorbin"])
      await register(`${name.toLowerCase()}.page@voltio.test`, name);
    const found = await call("GET", "/api/user/admin?search=ZORB&limit=2", admin);
    expect(found.statusCode, found.body).toBe(200);
    const page1 = found.json<{
      users: { firstName: string }[];
      page: number;
      totalPages: number;
      total: number;
    }>();
    expect(page1).toMatchObject({ page: 1, totalPages: 2, total: 3 });
    const page2 = (await call("GET", "/api/user/admin?search=zorb&limit=2&page=2", admin)).json<
      typeof page1
    >();
    expect([...page1.users, ...page2.users].map((u) => u.firstName)).toEqual(["Zorbel", "Zorbax", "Zorbin"]);
    const byEmail = (await call("GET", "/api/user/admin?search=zorbax.page%40voltio", admin)).json<
      typeof page1
    >();
    expect(byEmail.users.map((u) => u.firstName)).toEqual(["Zorbax"]);
    // A full name, and LIKE's wildcards taken as text.
    expect(
      (await call("GET", "/api/user/admin?search=zorbin%20newman", admin)).json<typeof page1>().total,
    ).toBe(1);
    expect((await call("GET", "/api/user/admin?search=%25", admin)).json<typeof page1>().total).toBe(0);
    expect((await call("GET", "/api/user/admin?search=_", admin)).json<typeof page1>().total).toBe(0);
    const admins = (await call("GET", "/api/user/admin?rol=admin", admin)).json<typeof page1>();
    expect(admins.users.map((u) => u.firstName)).toContain("Ada");
    expect(admins.users.every((u) => (u as unknown as { rol: string }).rol === "admin")).toBe(true);
    const all = (await call("GET", "/api/user/admin?limit=100", admin)).json<typeof page1>();
    expect(all.users.length).toBe(all.total);
    expect(JSON.stringify(all)).not.toMatch(/password|scrypt/i);
  });

  it("refuses bad paging with the field and the reason", async () => {
    const admin = await t.bearer(1);
    for (const [query, field] of [
      ["page=0", "page"],
      ["limit=101", "limit"],
      ["page=abc", "page"],
      [`search=${"x".repeat(101)}`, "search"],
      ["rol=owner", "rol"],
    ]) {
      const reply = await call("GET", `/api/user/admin?${query}`, admin);
      expect(reply.statusCode, query).toBe(400);
      expect(reply.json().details.map((d: { field: string }) => d.field)).toContain(field);
    }
  });
});

describe("the last admin", () => {
  it("can't be demoted, by themselves or anyone", async () => {
    const context = await createTestApp({ contents: "empty" });
    try {
      const [owner, second] = await context.database.db
        .insert(users)
        .values([
          {
            firstName: "Owner",
            lastName: "One",
            email: "owner@voltio.test",
            passwordHash: "x",
            rol: "admin",
          },
          {
            firstName: "Second",
            lastName: "Two",
            email: "second@voltio.test",
            passwordHash: "x",
            rol: "admin",
          },
        ])
        .returning({ id: users.id });
      expect(owner!.id).toBe(1);
      const secondAdmin = await context.bearer(second!.id);
      // Two admins: the second may step down — then they are no admin any more.
      const demoted = await context.app.inject({
        method: "PUT",
        url: "/api/user/admin",
        headers: secondAdmin,
        payload: { id: second!.id, rol: "user" },
      });
      expect(demoted.statusCode, demoted.body).toBe(200);
      // User 1, now the only admin, stays one.
      await context.database.db.update(users).set({ rol: "user" }).where(eq(users.id, second!.id));
      const reply = await context.app.inject({
        method: "PUT",
        url: "/api/user/admin",
        headers: await context.bearer(1),
        payload: { id: 1 },
      });
      expect(reply.statusCode).toBe(403);
    } finally {
      await context.close();
    }
  });
});

describe("malformed input", () => {
  it("answers 4xx with a reason, never a server error", async () => {
    const user = await t.bearer(2);
    const admin = await t.bearer(1);
    const bodies: unknown[] = [
      null,
      [],
      "text",
      42,
      { email: null },
      { email: ["a@b.c"] },
      { email: "a".repeat(300) + "@voltio.test" },
      { password: { $gt: "" } },
      { token: 123 },
      { id: "1" },
      { id: 2 ** 40 },
      { id: -1 },
      { direction: null },
      { direction: { id: 1.5 } },
      { direction: { id: 1, streetNumber: 1e12 } },
      { newsletterSubscription: "yes" },
      { firstName: "\u0000" },
      { lastName: "Null\u0000Byte" },
      { profilePicture: "https://pictures.test/\u0000" },
      { city: "A\u0000", street: "B", streetNumber: 1, postalCode: "1" },
    ];
    const routes: [string, string, Record<string, string>][] = [
      ["POST", "/api/user/email", {}],
      ["POST", "/api/user/login", {}],
      ["POST", "/api/user", {}],
      ["POST", "/api/user/token", {}],
      ["DELETE", "/api/user/token", {}],
      ["PUT", "/api/user", user],
      ["POST", "/api/user/direction", user],
      ["PUT", "/api/user/admin", admin],
      ["DELETE", "/api/user/admin", admin],
    ];
    for (const [method, url, headers] of routes) {
      for (const body of bodies) {
        const reply = await t.app.inject({
          method: method as "POST",
          url,
          headers: { ...headers, "content-type": "application/json" },
          payload: JSON.stringify(body),
        });
        expect(
          reply.statusCode,
          `${method} ${url} ${JSON.stringify(body)}: ${reply.body}`,
        ).toBeGreaterThanOrEqual(400);
        expect(reply.statusCode, `${method} ${url} ${JSON.stringify(body)}: ${reply.body}`).toBeLessThan(500);
        expect(reply.json().error).toBeTruthy();
      }
    }
    const broken = await t.app.inject({
      method: "POST",
      url: "/api/user/login",
      headers: { "content-type": "application/json" },
      payload: "{not json",
    });
    expect(broken.statusCode).toBe(400);
    for (const url of ["/api/user/direction/0", "/api/user/direction/99999999999", "/api/user/direction/x"]) {
      expect((await t.app.inject({ method: "DELETE", url, headers: user })).statusCode, url).toBe(400);
    }
  });
});
