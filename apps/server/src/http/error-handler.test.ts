import Fastify from "fastify";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { freePort } from "../../test/processes";
import { handleError } from "./error-handler";

/** Failures that aren't the request's fault nor a bug: a 503 that says when to try again, never a 500. */
describe("the error handler's temporary failures", () => {
  const appThrowing = (failure: () => Promise<unknown>) => {
    const app = Fastify();
    app.setErrorHandler(handleError);
    app.get("/", async () => failure());
    return app;
  };

  it("PostgreSQL unreachable: 503, Retry-After 5", async () => {
    const port = await freePort(); // nothing listens there
    const app = appThrowing(() => new pg.Client({ host: "127.0.0.1", port }).connect());
    const reply = await app.inject("/");
    expect(reply.statusCode).toBe(503);
    expect(reply.headers["retry-after"]).toBe("5");
    expect(reply.json()).toEqual({ error: "The store is briefly unavailable: try again in a few seconds" });
  });

  it("a statement refused for want of disk (SQLSTATE 53100), as drizzle wraps it: 503", async () => {
    const cause = Object.assign(new Error("could not extend file: No space left on device"), {
      code: "53100",
    });
    const app = appThrowing(async () => {
      throw new Error("Failed query: insert into orders …", { cause });
    });
    expect((await app.inject("/")).statusCode).toBe(503);
  });

  it("the disk under DATA_DIR full: 503, Retry-After 60", async () => {
    const app = appThrowing(async () => {
      throw Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });
    });
    const reply = await app.inject("/");
    expect(reply.statusCode).toBe(503);
    expect(reply.headers["retry-after"]).toBe("60");
    expect(reply.json()).toEqual({ error: "The store can't save files right now: try again later" });
  });

  it("any other failure stays a 500 without details", async () => {
    const app = appThrowing(async () => {
      throw new Error("a bug");
    });
    const reply = await app.inject("/");
    expect(reply.statusCode).toBe(500);
    expect(reply.json()).toEqual({ error: "Internal Server Error" });
  });
});
