import type { FastifyInstance } from "fastify";
import { InvalidInput } from "../errors";

/**
 * Rules for every request, API and page alike, before any route sees it:
 * - a query key given twice (`?search=a&search=b`) is ambiguous: which one did the client mean? Refused, so
 *   no route has to expect an array where it declared one value — but for the listing's facet filters,
 *   which are lists by nature (`brand=dell&brand=hp`, `spec.connection=…`: any of them);
 * - a NUL byte can't be stored in PostgreSQL text and means nothing in a URL or a form: refused anywhere, in
 *   the query, the path parameters and the body, with the field it was found in.
 */
export function refuseAmbiguousInput(app: FastifyInstance): void {
  // Callback hooks, not async ones: they run on every request, and a promise each is measurable (ADR 0011).
  app.addHook("onRequest", (request, _reply, done) => {
    try {
      for (const [key, value] of Object.entries((request.query ?? {}) as Record<string, unknown>)) {
        checkText(key, key);
        if (Array.isArray(value)) {
          if (!repeatable(key)) throw new InvalidInput(key, "must be given once");
          for (const item of value) if (typeof item === "string") checkText(key, item);
        } else if (typeof value === "string") checkText(key, value);
      }
      for (const [key, value] of Object.entries((request.params ?? {}) as Record<string, unknown>)) {
        if (typeof value === "string") checkText(key, value);
      }
    } catch (error) {
      return done(error as Error);
    }
    done();
  });
  app.addHook("preValidation", (request, _reply, done) => {
    try {
      checkValue("body", request.body, 0);
    } catch (error) {
      return done(error as Error);
    }
    done();
  });
}

/** The query keys that may be given more than once: the listing's facet filters (docs/product-rules.md §2.11). */
const repeatable = (key: string) => key === "brand" || key.startsWith("spec.");

function checkText(field: string, text: string) {
  if (text.includes("\u0000")) throw new InvalidInput(field, "must not contain NUL bytes");
}

/** Walks a parsed JSON body (no schema of ours nests 32 levels deep). */
function checkValue(field: string, value: unknown, depth: number) {
  if (typeof value === "string") return checkText(field, value);
  if (typeof value !== "object" || value === null || Buffer.isBuffer(value)) return;
  if (depth > 32) throw new InvalidInput(field, "is nested too deeply");
  for (const [key, inner] of Object.entries(value)) {
    const path = Array.isArray(value) ? `${field}.${key}` : field === "body" ? key : `${field}.${key}`;
    checkText(path, key);
    checkValue(path, inner, depth + 1);
  }
}
