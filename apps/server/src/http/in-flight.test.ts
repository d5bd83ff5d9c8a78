import Fastify from "fastify";
import { describe, expect, it } from "vitest";
import { finishHandlersOnClose } from "./in-flight";

/** A server with one handler that runs until released, as one whose client has already hung up. */
async function serverWithSlowHandler(waitMs?: number) {
  const app = Fastify();
  finishHandlersOnClose(app, waitMs);
  const events: string[] = [];
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let started!: () => void;
  const handlerStarted = new Promise<void>((resolve) => (started = resolve));
  app.get("/slow", async () => {
    started();
    await released;
    events.push("handler finished");
    return { ok: true };
  });
  app.get("/quick", () => ({ ok: true }));
  const base = await app.listen({ port: 0, host: "127.0.0.1" });
  return { app, base, events, release, handlerStarted };
}

describe("closing the server", () => {
  it("waits for a handler whose client hung up before it finished", async () => {
    const { app, base, events, release, handlerStarted } = await serverWithSlowHandler();
    const client = new AbortController();
    const request = fetch(`${base}/slow`, { signal: client.signal }).catch((error: Error) => error.name);
    await handlerStarted;
    client.abort();
    expect(await request).toBe("AbortError");
    const closed = app.close().then(() => events.push("closed"));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(events).toEqual([]);
    release();
    await closed;
    expect(events).toEqual(["handler finished", "closed"]);
  });

  it("doesn't wait when nothing runs, also after plain and async handlers answered", async () => {
    const { app, base, events, release } = await serverWithSlowHandler();
    expect((await fetch(`${base}/quick`)).status).toBe(200);
    release();
    expect((await fetch(`${base}/slow`)).status).toBe(200);
    await app.close();
    expect(events).toEqual(["handler finished"]);
  });

  it("stops waiting after the bound, so a stuck handler can't keep the process alive", async () => {
    const { app, base, events, handlerStarted } = await serverWithSlowHandler(100);
    const client = new AbortController();
    const request = fetch(`${base}/slow`, { signal: client.signal }).catch(() => undefined);
    await handlerStarted;
    client.abort();
    await request;
    await app.close();
    expect(events).toEqual([]);
  });
});
