import type { FastifyInstance } from "fastify";

/**
 * Closing waits for the route handlers still running. Fastify's close waits for open connections only: a
 * handler whose client hung up (a timeout, a closed tab, a load balancer's retry) keeps running, and the
 * database closed after close() would fail its next statement halfway. `waitMs` bounds the wait: a handler
 * stuck on an upstream must not keep the process from stopping.
 */
export function finishHandlersOnClose(app: FastifyInstance, waitMs = 10_000): void {
  let running = 0;
  let whenIdle: (() => void) | undefined;
  const finished = () => {
    if (--running === 0) whenIdle?.();
  };
  app.addHook("onRoute", (route) => {
    const handler = route.handler;
    // Not an async wrapper: this runs on every request, and only a handler's promise needs counting.
    route.handler = function (this: FastifyInstance, ...args: Parameters<typeof handler>) {
      const result = handler.apply(this, args) as unknown;
      if (result instanceof Promise) {
        running++;
        result.then(finished, finished);
      }
      return result;
    } as typeof handler;
  });
  app.addHook("onClose", async () => {
    if (running === 0) return;
    let timer: NodeJS.Timeout | undefined;
    await new Promise<void>((resolve) => {
      whenIdle = resolve;
      timer = setTimeout(() => {
        app.log.warn(`Stopped with ${running} requests still being handled after ${waitMs / 1000} s`);
        resolve();
      }, waitMs);
    });
    clearTimeout(timer);
  });
}
