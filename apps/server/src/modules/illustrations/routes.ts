import type { FastifyPluginAsync, FastifyReply } from "fastify";
import {
  AVATAR_INITIALS,
  avatarIllustration,
  categoryIllustration,
  cleanLabel,
  isIllustrationKind,
  placeholderIllustration,
  productIllustration,
} from "./svg";

const MAX_CACHED = 500;
// Canonical numbers only ("7", not "007"), so one picture has exactly one cacheable URL.
const VARIANT_FILE = /^(0|[1-9]\d{0,2})\.svg$/;
const KIND_FILE = /^([a-z]+)\.svg$/;
const AVATAR_FILE = /^(.+)\.svg$/u;

/** Insertion-ordered Map used as a small LRU: a hit moves the entry to the end, overflow drops the oldest. */
export class SvgCache {
  private readonly entries = new Map<string, string>();

  constructor(private readonly limit: number) {}

  get(key: string, render: () => string): string {
    const hit = this.entries.get(key);
    if (hit !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit;
    }
    const svg = render();
    if (this.entries.size >= this.limit) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, svg);
    return svg;
  }

  get size(): number {
    return this.entries.size;
  }
}

function sendSvg(reply: FastifyReply, svg: string) {
  return (
    reply
      .header("content-type", "image/svg+xml; charset=utf-8")
      // The bytes behind a URL never change, so browsers may keep them for good.
      .header("cache-control", "public, max-age=31536000, immutable")
      .header("x-content-type-options", "nosniff")
      .send(svg)
  );
}

function notFound(reply: FastifyReply) {
  return reply.code(404).send({ error: "Illustration Not Found" });
}

function labelFrom(query: unknown): string {
  const raw = (query as { label?: unknown } | undefined)?.label;
  const value = Array.isArray(raw) ? raw[0] : raw;
  return typeof value === "string" ? cleanLabel(value) : "";
}

/**
 * Offline pictures: GET /illustrations/:kind/:variant.svg[?label=], /illustrations/category/:kind.svg,
 * /illustrations/placeholder.svg (DEFAULT_PRODUCT_IMAGE: a product saved without pictures) and
 * /illustrations/avatar/:initials.svg (an account without a picture).
 */
export function illustrationRoutes(options: { cacheSize?: number } = {}): FastifyPluginAsync {
  return async (app) => {
    const cache = new SvgCache(options.cacheSize ?? MAX_CACHED);

    app.get("/illustrations/placeholder.svg", async (_request, reply) =>
      sendSvg(reply, cache.get("placeholder", placeholderIllustration)),
    );

    // An account without a picture (users' avatarUrl): its initials, or "default" for a silhouette.
    app.get<{ Params: { file: string } }>("/illustrations/avatar/:file", async (request, reply) => {
      const name = AVATAR_FILE.exec(request.params.file)?.[1];
      if (name !== "default" && !AVATAR_INITIALS.test(name ?? "")) return notFound(reply);
      const initials = name === "default" ? "" : name!;
      return sendSvg(
        reply,
        cache.get(`avatar/${initials}`, () => avatarIllustration(initials)),
      );
    });

    // The static "category" and "avatar" segments win over the :kind parameter in Fastify's router.
    app.get<{ Params: { file: string } }>("/illustrations/category/:file", async (request, reply) => {
      const kind = KIND_FILE.exec(request.params.file)?.[1];
      if (!kind || !isIllustrationKind(kind)) return notFound(reply);
      return sendSvg(
        reply,
        cache.get(`category/${kind}`, () => categoryIllustration(kind)),
      );
    });

    app.get<{ Params: { kind: string; file: string } }>(
      "/illustrations/:kind/:file",
      async (request, reply) => {
        const { kind, file } = request.params;
        const match = VARIANT_FILE.exec(file);
        if (!match || !isIllustrationKind(kind)) return notFound(reply);
        const variant = Number(match[1]);
        const label = labelFrom(request.query);
        const key = `${kind}/${variant}/${label}`;
        return sendSvg(
          reply,
          cache.get(key, () => productIllustration(kind, variant, label)),
        );
      },
    );
  };
}
