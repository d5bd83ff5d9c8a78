import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { join } from "node:path";
import multipart from "@fastify/multipart";
import type { FastifyPluginAsync, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { uploadReplySchema } from "@voltio/domain/account";
import { errorSchema } from "@voltio/domain/catalog";
import type { AppDeps } from "../../app";
import { HttpError, badRequest } from "../../http/errors";
import { requireUser } from "../auth/guards";
import {
  IMAGE_TYPES,
  UPLOAD_NAME,
  detectImageType,
  storeImage,
  uploadsDir,
  type ImageExtension,
} from "./service";

const UPLOADS_PER_HOUR = 60;

/** POST /api/uploads: a signed-in user's image (profile picture, product pictures), checked by its content. */
export function uploadRoutes({ db, config }: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    // Registered here only, so no other route accepts multipart bodies.
    await app.register(multipart, {
      limits: { fileSize: config.uploadMaxBytes, files: 1, fields: 5, fieldSize: 1024, parts: 6 },
    });
    const callers = new WeakMap<FastifyRequest, number>();
    // A quota per user keeps one account from filling the disk (ASVS 12.1.3).
    const perUser = app.createRateLimit({
      max: UPLOADS_PER_HOUR,
      timeWindow: 3600_000,
      keyGenerator: (request) => `upload:user:${callers.get(request)}`,
    });

    app.post(
      "/uploads",
      {
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
        const caller = await requireUser(request, db, config.jwtSecret);
        callers.set(request, caller.id);
        const limit = await perUser(request);
        if (!limit.isAllowed && limit.isExceeded) {
          reply.header("retry-after", String(Math.max(1, limit.ttlInSeconds)));
          throw new HttpError(429, "Too many uploads, try again later");
        }
        if (!request.isMultipart()) throw new HttpError(415, "Send the image as multipart/form-data");
        const part = await request.file();
        if (!part) throw badRequest("file", "is required");
        // Throws the plugin's 413 once the size limit is passed; nothing is written before that.
        const bytes = await part.toBuffer();
        const type = detectImageType(bytes);
        if (!type) throw new HttpError(415, "Only jpeg, png, webp, gif or avif images are accepted");
        const url = await storeImage(config.dataDir, bytes, type);
        return reply.code(201).send({ secure_url: url });
      },
    );
  };
}

/**
 * GET /uploads/:file, outside /api. Only names the server generated are served, with the content type of the
 * checked format, nosniff, and a CSP that lets nothing in the file run even when opened on its own.
 */
export function uploadedFileRoutes({ config }: AppDeps): FastifyPluginAsync {
  return async (app) => {
    const dir = uploadsDir(config.dataDir);
    app.get<{ Params: { file: string } }>("/uploads/:file", async (request, reply) => {
      const { file } = request.params;
      if (!UPLOAD_NAME.test(file)) return reply.code(404).send({ error: "Not Found" });
      const path = join(dir, file);
      const info = await stat(path).catch(() => undefined);
      if (!info?.isFile()) return reply.code(404).send({ error: "Not Found" });
      const extension = file.slice(file.lastIndexOf(".") + 1) as ImageExtension;
      return reply
        .header("content-type", IMAGE_TYPES[extension])
        .header("content-length", info.size)
        .header("x-content-type-options", "nosniff")
        .header("content-security-policy", "default-src 'none'; sandbox")
        .header("content-disposition", "inline")
        .header("cache-control", "public, max-age=31536000, immutable")
        .send(createReadStream(path));
    });
  };
}
