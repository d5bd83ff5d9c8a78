import multipart from "@fastify/multipart";
import type { FastifyPluginAsync, FastifyRequest } from "fastify";
import type { Db } from "../../db/client";
import { SharedWindowCounter } from "../auth/shared-counter";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { uploadReplySchema } from "@voltio/domain/account";
import { errorSchema } from "@voltio/domain/http";
import type { Config } from "../../config";
import { InvalidInput, TooManyAttempts, UnsupportedContent } from "../../errors";
import { signedIn } from "../../http/access";
import { IMAGE_TYPES, UPLOAD_NAME, detectImageType, storeImage, type ImageExtension } from "./service";
import type { UploadStorage } from "./storage";

const UPLOADS_PER_HOUR = 60;

/** POST /api/uploads: a signed-in user's image (profile picture, product pictures), checked by its content. */
export interface UploadDeps {
  db: Db;
  config: Pick<Config, "uploadMaxBytes">;
  storage: UploadStorage;
}

export function uploadRoutes({ db, config, storage }: UploadDeps): FastifyPluginAsyncZod {
  return async (app) => {
    // Registered here only, so no other route accepts multipart bodies.
    await app.register(multipart, {
      limits: { fileSize: config.uploadMaxBytes, files: 1, fields: 5, fieldSize: 1024, parts: 6 },
    });
    // Counted in the database every process shares: N processes allow what one does.
    const perUser = new SharedWindowCounter(db, 3600);

    app.post(
      "/uploads",
      {
        config: { access: "user" },
        schema: {
          tags: ["uploads"],
          summary: "Upload one image (jpeg, png, webp, gif or avif; field `file`); replies its URL",
          security: [{ bearer: [] }],
          consumes: ["multipart/form-data"],
          response: {
            201: uploadReplySchema,
            400: errorSchema,
            401: errorSchema,
            413: errorSchema,
            415: errorSchema,
            429: errorSchema,
          },
        },
      },
      async (request, reply) => {
        const key = `upload:user:${signedIn(request).id}`;
        const window = (await perUser.add([key], 1)).get(key)!;
        if (window.count > UPLOADS_PER_HOUR)
          throw new TooManyAttempts("Too many uploads, try again later", window.retryAfterSeconds);
        if (!request.isMultipart()) throw new UnsupportedContent("Send the image as multipart/form-data");
        const bytes = await readFilePart(request);
        const type = detectImageType(bytes);
        if (!type) throw new UnsupportedContent("Only jpeg, png, webp, gif or avif images are accepted");
        const url = await storeImage(storage, bytes, type);
        return reply.code(201).send({ secure_url: url });
      },
    );
  };
}

/**
 * GET /uploads/:file, outside /api. Only names the server generated are served, with the content type of the
 * checked format, nosniff, and a CSP that lets nothing in the file run even when opened on its own.
 */
/**
 * The one file of a multipart body. A body that isn't well-formed multipart (no boundary, a broken one, cut
 * short) is the client's mistake: busboy's plain errors become a 400 on `file`; the plugin's own refusals
 * (413 past the size limit, nothing written before that) keep their status.
 */
async function readFilePart(request: FastifyRequest): Promise<Buffer> {
  try {
    const part = await request.file();
    if (!part) throw new InvalidInput("file", "is required");
    return await part.toBuffer();
  } catch (error) {
    if (error instanceof InvalidInput || (error as { statusCode?: number }).statusCode) throw error;
    throw new InvalidInput("file", "must be sent as a well-formed multipart/form-data body");
  }
}

export function uploadedFileRoutes({ storage }: { storage: UploadStorage }): FastifyPluginAsync {
  return async (app) => {
    app.get<{ Params: { file: string } }>("/uploads/:file", async (request, reply) => {
      const { file } = request.params;
      if (!UPLOAD_NAME.test(file)) return reply.code(404).send({ error: "Not Found" });
      const stored = await storage.get(file);
      if (!stored) return reply.code(404).send({ error: "Not Found" });
      const extension = file.slice(file.lastIndexOf(".") + 1) as ImageExtension;
      return reply
        .header("content-type", IMAGE_TYPES[extension])
        .header("content-length", stored.size)
        .header("x-content-type-options", "nosniff")
        .header("content-security-policy", "default-src 'none'; sandbox")
        .header("content-disposition", "inline")
        .header("cache-control", "public, max-age=31536000, immutable")
        .send(stored.body);
    });
  };
}
