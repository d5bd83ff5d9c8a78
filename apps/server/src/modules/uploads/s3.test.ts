import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import S3rver from "s3rver";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestContext } from "../../../test/app";
import { multipart } from "../../../test/multipart";

/**
 * Pictures in an S3-compatible bucket, against a local stand-in that speaks S3's protocol
 * (s3rver): every machine of a store sees the same pictures.
 */
const PNG = Buffer.from(
  "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6300010000000500010d0a2db40000000049454e44ae426082",
  "hex",
);
const BUCKET = "voltio-pictures";
let s3: S3rver;
let endpoint: string;
let directory: string;
const apps: TestContext[] = [];

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), "voltio-s3-"));
  s3 = new S3rver({
    port: 0,
    address: "127.0.0.1",
    silent: true,
    directory,
    configureBuckets: [{ name: BUCKET }],
  });
  const { port } = await s3.run();
  endpoint = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  for (const app of apps) await app.close();
  await s3.close();
  rmSync(directory, { recursive: true, force: true });
});

async function appWith(env: Record<string, string> = {}) {
  const t = await createTestApp({
    env: {
      UPLOADS_S3_BUCKET: BUCKET,
      UPLOADS_S3_ENDPOINT: endpoint,
      UPLOADS_S3_ACCESS_KEY_ID: "S3RVER",
      UPLOADS_S3_SECRET_ACCESS_KEY: "S3RVER",
      ...env,
    },
  });
  apps.push(t);
  return t;
}

async function upload(t: TestContext) {
  const form = multipart(PNG, "p.png", "image/png");
  const reply = await t.app.inject({
    method: "POST",
    url: "/api/uploads",
    payload: form.payload,
    headers: { ...form.headers, ...(await t.bearer(2)) },
  });
  expect(reply.statusCode, reply.body).toBe(201);
  return reply.json<{ secure_url: string }>().secure_url;
}

describe("pictures in an S3 bucket", () => {
  it("stores an upload in the bucket, where another machine serves it from", async () => {
    const [one, other] = [await appWith(), await appWith()];
    const url = await upload(one);
    expect(url).toMatch(/^\/uploads\/[a-f0-9]{32}\.png$/);
    // Nothing was written on this machine's disk.
    expect(() => readdirSync(join(one.config.dataDir, "uploads"))).toThrow();
    const served = await other.app.inject({ url });
    expect(served.statusCode).toBe(200);
    expect(served.headers["content-type"]).toBe("image/png");
    expect(served.rawPayload.equals(PNG)).toBe(true);
    expect(
      (await other.app.inject({ url: "/uploads/0123456789abcdef0123456789abcdef.png" })).statusCode,
    ).toBe(404);
  });

  it("links pictures at the bucket's public address when it has one", async () => {
    const t = await appWith({ UPLOADS_S3_PUBLIC_URL: `${endpoint}/${BUCKET}/` });
    const url = await upload(t);
    expect(url).toMatch(new RegExp(`^${endpoint}/${BUCKET}/[a-f0-9]{32}\\.png$`));
    const fetched = await fetch(url);
    expect(fetched.status).toBe(200);
    expect(Buffer.from(await fetched.arrayBuffer()).equals(PNG)).toBe(true);
  });

  it("answers 502 while the bucket can't be reached, and keeps nothing", async () => {
    const t = await createTestApp({
      env: {
        UPLOADS_S3_BUCKET: BUCKET,
        UPLOADS_S3_ENDPOINT: "http://127.0.0.1:9",
        UPLOADS_S3_ACCESS_KEY_ID: "x",
        UPLOADS_S3_SECRET_ACCESS_KEY: "y",
      },
    });
    apps.push(t);
    const boundary = "b";
    const reply = await t.app.inject({
      method: "POST",
      url: "/api/uploads",
      payload: Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="p.png"\r\n\r\n`),
        PNG,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]),
      headers: { "content-type": `multipart/form-data; boundary=${boundary}`, ...(await t.bearer(2)) },
    });
    expect(reply.statusCode).toBe(502);
  }, 60_000);
});
