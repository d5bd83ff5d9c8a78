import { afterAll, beforeAll, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { users } from "../../../db/schema";
import { createTestApp, type TestContext } from "../../../../test/app";
import { startFakeGoogle, type FakeGoogle } from "../../../../test/fake-google";
import { totpCode } from "../../../../test/second-factor";

let t: TestContext;
let google: FakeGoogle;

beforeAll(async () => {
  google = await startFakeGoogle();
  t = await createTestApp({ env: google.env });
});
afterAll(async () => {
  await t.close();
  await google.close();
});

const googleLogin = async (email: string) =>
  t.app.inject({
    method: "POST",
    url: "/api/google/login",
    payload: { tokenId: await google.idToken(email) },
  });

it("asks an admin who signs in with Google for the authenticator's code too", async () => {
  const first = await googleLogin("grace-admin@gmail.test");
  const { accessToken } = first.json<{ accessToken: string }>();
  await t.database.db.update(users).set({ rol: "admin" }).where(eq(users.email, "grace-admin@gmail.test"));
  const auth = { authorization: `Bearer ${accessToken}` };
  const start = await t.app.inject({ method: "POST", url: "/api/user/second-factor/totp", headers: auth });
  const { secret } = start.json<{ secret: string }>();
  const confirm = await t.app.inject({
    method: "POST",
    url: "/api/user/second-factor/totp/confirm",
    headers: auth,
    payload: { code: totpCode(secret) },
  });
  expect(confirm.statusCode, confirm.body).toBe(200);

  const again = await googleLogin("grace-admin@gmail.test");
  expect(again.statusCode).toBe(200);
  const reply = again.json<{ msg: string; secondFactor: { token: string; methods: string[] } }>();
  expect(reply).toMatchObject({
    msg: "Second factor required",
    secondFactor: { methods: ["totp", "recovery"] },
  });
  expect(reply).not.toHaveProperty("accessToken");
  const finished = await t.app.inject({
    method: "POST",
    url: "/api/user/login/second-factor",
    payload: { token: reply.secondFactor.token, code: totpCode(secret, 1) },
  });
  expect(finished.statusCode, finished.body).toBe(200);
  expect(finished.json()).toMatchObject({ msg: "Logged in" });
});
