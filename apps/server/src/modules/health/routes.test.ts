import { sql } from "drizzle-orm";
import Fastify from "fastify";
import { serializerCompiler, validatorCompiler } from "fastify-type-provider-zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestContext } from "../../../test/app";
import { shippedMigrations } from "../../db/client";
import { healthRoutes } from "./routes";

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const ready = () => t.app.inject({ url: "/api/health/ready" });

describe("health for a load balancer", () => {
  it("is live whatever else holds", async () => {
    const reply = await t.app.inject({ url: "/api/health/live" });
    expect(reply.statusCode).toBe(200);
    expect(reply.json()).toEqual({ status: "live" });
    expect(reply.headers["cache-control"]).toBe("no-store");
  });

  it("isn't ready while the search index is being built or other processes' changes can't reach it", async () => {
    const app = Fastify();
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    await app.register(
      healthRoutes({
        db: t.database.db,
        migrations: shippedMigrations(),
        searchReady: () => false,
        draining: () => false,
        listening: () => false,
      }),
    );
    const reply = await app.inject({ url: "/health/ready" });
    expect(reply.statusCode).toBe(503);
    expect(reply.json()).toEqual({ status: "unavailable", failing: ["search", "listen"] });
    await app.close();
  });

  it("is ready once the search index is built, and not while it drains or misses a migration", async () => {
    expect((await t.app.inject({ url: "/api/products?search=laptop" })).statusCode).toBe(200);
    const built = await ready();
    expect(built.statusCode, built.body).toBe(200);
    expect(built.json()).toEqual({ status: "ready", failing: [] });

    // A database behind this build (a migration not applied) can't serve it.
    await t.database.db.execute(
      sql`delete from drizzle.__drizzle_migrations where id = (select max(id) from drizzle.__drizzle_migrations)`,
    );
    expect((await ready()).json()).toEqual({ status: "unavailable", failing: ["migrations"] });

    t.app.startDraining();
    const draining = await ready();
    expect(draining.statusCode).toBe(503);
    expect(draining.json().failing).toContain("draining");
    expect((await t.app.inject({ url: "/api/health/live" })).statusCode).toBe(200);
  });
});
