import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { SignJWT, exportJWK, generateKeyPair, type CryptoKey } from "jose";
import { eq } from "drizzle-orm";
import { users } from "../../../db/schema";
import { createTestApp, type TestContext } from "../../../../test/app";
import { totpCode } from "../../../../test/second-factor";

/** Google's part is played by a local key server and ID tokens signed with its key, as in google.test.ts. */
const CLIENT_ID = "voltio-test.apps.googleusercontent.com";

let t: TestContext;
let keyServer: Server;
let googleKey: CryptoKey;

beforeAll(async () => {
  const google = await generateKeyPair("RS256");
  googleKey = google.privateKey;
  const jwk = { ...(await exportJWK(google.publicKey)), kid: "google-test-key", alg: "RS256", use: "sig" };
  keyServer = createServer((_request, response) => {
    response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((resolve) => keyServer.listen(0, "127.0.0.1", resolve));
  const { port } = keyServer.address() as AddressInfo;
  t = await createTestApp({
    env: { GOOGLE_CLIENT_ID: CLIENT_ID, GOOGLE_JWKS_URL: `http://127.0.0.1:${port}/oauth2/v3/certs` },
  });
});
afterAll(async () => {
  await t.close();
  await new Promise((resolve) => keyServer.close(resolve));
});

const idToken = (email: string) => {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ email, email_verified: true, given_name: "Grace", family_name: "Hopper" })
    .setProtectedHeader({ alg: "RS256", kid: "google-test-key", typ: "JWT" })
    .setIssuer("https://accounts.google.com")
    .setAudience(CLIENT_ID)
    .setSubject(`google-${email}`)
    .setIssuedAt(now - 60)
    .setExpirationTime(now + 3600)
    .sign(googleKey);
};

const googleLogin = async (email: string) =>
  t.app.inject({ method: "POST", url: "/api/google/login", payload: { tokenId: await idToken(email) } });

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
