import { createReadStream } from "node:fs";
import { mkdir, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Readable } from "node:stream";
import type * as S3 from "@aws-sdk/client-s3";
import type { Config, UploadsS3Config } from "../../config";
import { UpstreamUnavailable } from "../../errors";

/**
 * Where uploaded pictures live: `DATA_DIR/uploads` on one machine, or an S3-compatible
 * bucket that every machine shares. Names are the server's own (random, checked by UPLOAD_NAME).
 */
export interface UploadStorage {
  put(name: string, bytes: Buffer, contentType: string): Promise<void>;
  /** The stored file, or null when there is none of that name. */
  get(name: string): Promise<{ body: Readable; size: number } | null>;
  /** The address a picture is shown at: through the app (/uploads/…) or the bucket's public address. */
  urlOf(name: string): string;
}

export const uploadsDir = (dataDir: string) => join(dataDir, "uploads");

export function createUploadStorage(config: Pick<Config, "dataDir" | "uploadsS3">): UploadStorage {
  return config.uploadsS3 ? s3Storage(config.uploadsS3) : localStorage(uploadsDir(config.dataDir));
}

function localStorage(dir: string): UploadStorage {
  return {
    async put(name, bytes) {
      await mkdir(dir, { recursive: true });
      // 'wx': never overwrite, even in the impossible case of a repeated random name.
      await writeFile(join(dir, name), bytes, { flag: "wx", mode: 0o644 });
    },
    async get(name) {
      const path = join(dir, name);
      const info = await stat(path).catch(() => undefined);
      return info?.isFile() ? { body: createReadStream(path), size: info.size } : null;
    },
    urlOf: (name) => `/uploads/${name}`,
  };
}

const UPSTREAM = "The picture storage";

function s3Storage(settings: UploadsS3Config): UploadStorage {
  // The SDK (~4 MB of heap) loads with the bucket's first use: a store that keeps pictures on disk never does.
  let connected: Promise<{ sdk: typeof S3; client: S3.S3Client }> | undefined;
  const connect = () =>
    (connected ??= import("@aws-sdk/client-s3").then((sdk) => ({
      sdk,
      client: new sdk.S3Client({
        region: settings.region,
        endpoint: settings.endpoint,
        // Buckets of S3-compatible stores (MinIO, R2, a local stand-in) are addressed by path.
        forcePathStyle: settings.endpoint !== undefined,
        credentials: settings.accessKeyId
          ? { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey ?? "" }
          : undefined,
        // Checksums only where the API requires them: not every S3-compatible store reads the newer trailers.
        requestChecksumCalculation: "WHEN_REQUIRED",
        responseChecksumValidation: "WHEN_REQUIRED",
      }),
    })));
  const fail = (what: string) => (error: unknown) => {
    throw new UpstreamUnavailable(UPSTREAM, `${what}: ${(error as Error).message}`);
  };
  return {
    async put(name, bytes, contentType) {
      const { sdk, client } = await connect();
      await client
        .send(
          new sdk.PutObjectCommand({
            Bucket: settings.bucket,
            Key: name,
            Body: bytes,
            ContentType: contentType,
            CacheControl: "public, max-age=31536000, immutable",
          }),
        )
        .catch(fail(`storing ${name}`));
    },
    async get(name) {
      const { sdk, client } = await connect();
      try {
        const object = await client.send(new sdk.GetObjectCommand({ Bucket: settings.bucket, Key: name }));
        return { body: object.Body as Readable, size: object.ContentLength ?? 0 };
      } catch (error) {
        if (error instanceof sdk.NoSuchKey || (error as { name?: string }).name === "NoSuchKey") return null;
        return fail(`reading ${name}`)(error);
      }
    },
    urlOf: (name) => (settings.publicUrl ? `${settings.publicUrl}/${name}` : `/uploads/${name}`),
  };
}
