import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { SignJWT, exportJWK, generateKeyPair, type CryptoKey } from "jose";

/**
 * Google is outside the machine, so a local server plays its part with the real protocol: it publishes a
 * JSON Web Key Set, and tests sign ID tokens with the matching private key, as Google does. `env` points
 * a test app at it.
 */
export const GOOGLE_CLIENT_ID = "voltio-test.apps.googleusercontent.com";
export const GOOGLE_ISSUER = "https://accounts.google.com";
const KEY_ID = "google-test-key";

export interface IdTokenOptions {
  /** Another signing key (a forgery), another key id, issuer or audience. */
  key?: CryptoKey;
  kid?: string;
  issuer?: string;
  audience?: string;
  expiresIn?: number;
  /** When Google issued it: a minute ago by default. */
  issuedSecondsAgo?: number;
  claims?: Record<string, unknown>;
  /** Google's id of the account: by default one per e-mail. */
  subject?: string;
}

export interface FakeGoogle {
  env: { GOOGLE_CLIENT_ID: string; GOOGLE_JWKS_URL: string };
  /** Key set requests so far (the server caches the keys). */
  keyRequests: () => number;
  idToken: (email: string, options?: IdTokenOptions) => Promise<string>;
  close: () => Promise<void>;
}

export async function startFakeGoogle(): Promise<FakeGoogle> {
  const { privateKey, publicKey } = await generateKeyPair("RS256");
  const jwk = { ...(await exportJWK(publicKey)), kid: KEY_ID, alg: "RS256", use: "sig" };
  let keyRequests = 0;
  const server = createServer((request, response) => {
    keyRequests++;
    if (request.url !== "/oauth2/v3/certs") return response.writeHead(404).end();
    response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    env: { GOOGLE_CLIENT_ID, GOOGLE_JWKS_URL: `http://127.0.0.1:${port}/oauth2/v3/certs` },
    keyRequests: () => keyRequests,
    idToken(email, options = {}) {
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({
        email,
        email_verified: true,
        given_name: "Grace",
        family_name: "Hopper",
        picture: "https://lh3.googleusercontent.com/a/photo",
        ...options.claims,
      })
        .setProtectedHeader({ alg: "RS256", kid: options.kid ?? KEY_ID, typ: "JWT" })
        .setIssuer(options.issuer ?? GOOGLE_ISSUER)
        .setAudience(options.audience ?? GOOGLE_CLIENT_ID)
        .setSubject(options.subject ?? `google-${email.toLowerCase()}`)
        .setIssuedAt(now - (options.issuedSecondsAgo ?? 60))
        .setExpirationTime(now + (options.expiresIn ?? 3600))
        .sign(options.key ?? privateKey);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
