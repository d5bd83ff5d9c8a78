import { readFileSync } from "node:fs";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestContext } from "../../../test/app";
import { multipart } from "../../../test/multipart";
import { detectImageType } from "./service";
import { uploadsDir } from "./storage";

/** The smallest real files of each format: their first bytes are what the server looks at. */
const SAMPLES = {
  jpg: Buffer.from("ffd8ffe000104a46494600010100000100010000ffd9", "hex"),
  png: Buffer.from(
    "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6300010000000500010d0a2db40000000049454e44ae426082",
    "hex",
  ),
  gif: Buffer.from("474946383961010001000000002c00000000010001000002024401003b", "hex"),
  webp: Buffer.concat([
    Buffer.from("RIFF"),
    Buffer.from([26, 0, 0, 0]),
    Buffer.from("WEBPVP8L"),
    Buffer.alloc(14),
  ]),
  avif: Buffer.concat([
    Buffer.from([0, 0, 0, 0x1c]),
    Buffer.from("ftypavif"),
    Buffer.from([0, 0, 0, 0]),
    Buffer.from("avifmif1miaf"),
    Buffer.alloc(8),
  ]),
};

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp({ env: { UPLOAD_MAX_BYTES: "4096" } });
});
afterAll(() => t.close());

async function upload(file: Buffer, filename: string, contentType: string, auth = true) {
  const form = multipart(file, filename, contentType);
  return t.app.inject({
    method: "POST",
    url: "/api/uploads",
    payload: form.payload,
    headers: { ...form.headers, ...(auth ? await t.bearer(2) : {}) },
  });
}

describe("detectImageType", () => {
  it.each(Object.entries(SAMPLES))("recognises %s by its first bytes", (type, bytes) => {
    expect(detectImageType(bytes)).toBe(type);
  });

  it("refuses everything else", () => {
    expect(detectImageType(Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'></svg>"))).toBeUndefined();
    expect(detectImageType(Buffer.from("<html><script>alert(1)</script></html>"))).toBeUndefined();
    expect(detectImageType(Buffer.from("%PDF-1.7 and some more bytes"))).toBeUndefined();
    expect(detectImageType(Buffer.from("ffd8", "hex"))).toBeUndefined();
    // An MP4 is an ISO-BMFF file too, but not an AVIF one.
    expect(
      detectImageType(
        Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from("ftypisom"), Buffer.alloc(12)]),
      ),
    ).toBeUndefined();
  });
});

describe("POST /api/uploads", () => {
  it.each(Object.entries(SAMPLES))(
    "stores a %s under a random name and serves it with its type",
    async (type, bytes) => {
      const reply = await upload(bytes, `holiday.${type}`, "application/octet-stream");
      expect(reply.statusCode, reply.body).toBe(201);
      const { secure_url: url } = reply.json<{ secure_url: string }>();
      expect(url).toMatch(new RegExp(`^/uploads/[a-f0-9]{32}\\.${type}$`));
      expect(readFileSync(join(uploadsDir(t.config.dataDir), url.split("/").pop()!))).toEqual(bytes);

      const served = await t.app.inject({ url });
      expect(served.statusCode).toBe(200);
      expect(served.rawPayload).toEqual(bytes);
      expect(served.headers["content-type"]).toBe(type === "jpg" ? "image/jpeg" : `image/${type}`);
      expect(served.headers["x-content-type-options"]).toBe("nosniff");
      expect(served.headers["content-security-policy"]).toBe("default-src 'none'; sandbox");
    },
  );

  it("judges the content, not the name or the declared type", async () => {
    const html = Buffer.from("<html><body><script>alert(document.cookie)</script></body></html>");
    const reply = await upload(html, "cat.png", "image/png");
    expect(reply.statusCode).toBe(415);
    const svg = Buffer.from("<svg xmlns='http://www.w3.org/2000/svg' onload='alert(1)'/>");
    expect((await upload(svg, "logo.svg", "image/svg+xml")).statusCode).toBe(415);
  });

  it("refuses files over the size limit", async () => {
    const big = Buffer.concat([SAMPLES.png, Buffer.alloc(5000)]);
    const reply = await upload(big, "big.png", "image/png");
    expect(reply.statusCode).toBe(413);
  });

  it("needs a login, a multipart body and a file", async () => {
    expect((await upload(SAMPLES.png, "a.png", "image/png", false)).statusCode).toBe(401);
    const json = await t.app.inject({
      method: "POST",
      url: "/api/uploads",
      payload: { file: "x" },
      headers: await t.bearer(2),
    });
    expect(json.statusCode).toBe(415);
  });

  it("serves only names it generated", async () => {
    for (const path of [
      "/uploads/..%2F..%2Fjwt-secret",
      "/uploads/jwt-secret",
      "/uploads/0123456789abcdef0123456789abcdef.png",
      "/uploads/0123456789abcdef0123456789abcdef.html",
    ]) {
      expect((await t.app.inject({ url: path })).statusCode, path).toBe(404);
    }
  });
});

describe("the upload limit", () => {
  it("takes 60 uploads an hour from one user, counted in the database every process shares", async () => {
    const headers = await t.bearer(2);
    await t.database.db.execute(sql`delete from rate_windows where key like 'upload:%'`);
    const statuses: number[] = [];
    for (let i = 0; i < 61; i++) {
      const form = multipart(SAMPLES.png, "p.png", "image/png");
      const reply = await t.app.inject({
        method: "POST",
        url: "/api/uploads",
        payload: form.payload,
        headers: { ...form.headers, ...headers },
      });
      statuses.push(reply.statusCode);
    }
    expect(statuses.slice(0, 60).every((status) => status === 201)).toBe(true);
    expect(statuses[60]).toBe(429);
  });
});
