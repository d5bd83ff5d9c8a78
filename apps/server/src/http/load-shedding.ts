import { getHeapStatistics } from "node:v8";
import underPressure, { type FastifyUnderPressureOptions } from "@fastify/under-pressure";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";

/** What a balancer and Prometheus must always reach: they tell a busy process from a dead one. */
const NEVER_SHED = new Set(["/api/health/live", "/api/health/ready", "/api/metrics"]);

/** What a refused client is told to wait: long enough for a burst to pass, short enough to come back soon. */
export const LOAD_SHED_RETRY_AFTER_SECONDS = 5;

/**
 * How often the event loop's delay and the heap are read. The delay is the mean over this window: shorter
 * reacts sooner to a burst, longer lets one slow request (a search index build) pass without refusals.
 */
export const LOAD_SHED_SAMPLE_MS = 500;

export type ShedReason = "event_loop_delay" | "heap" | "in_flight";

export interface LoadSheddingLimits {
  /** Mean event-loop delay over a sample, in ms, past which requests are refused (0: never). */
  maxEventLoopDelayMs: number;
  /** Share of V8's heap limit (--max-old-space-size) in use, in percent, past which requests are refused (0: never). */
  maxHeapUsedPercent: number;
  /** Requests this process is answering at once, past which a new one is refused (0: no limit). */
  maxRequestsInFlight: number;
}

/** What /api/metrics shows of it. */
export interface LoadSheddingState {
  /** Requests refused so far, by reason. */
  shed: Record<ShedReason, number>;
  /** The event loop's mean delay over the last sample, in ms; undefined while that limit is off. */
  eventLoopDelayMs: number | undefined;
  /** Requests being answered now (health and metrics aside). */
  inFlight: number;
}

const BUSY = { error: "The store is busy: try again in a few seconds" };

/**
 * Load shedding: while the process is overloaded a request is answered 503 with Retry-After
 * at once, before any route work, instead of queueing behind the others until its client gives up; the
 * requests already taken finish in bounded time. Overloaded is: its event loop lags behind (its own CPU is the
 * limit), its heap nears V8's limit, or more requests are in flight than it answers in a moment — when the
 * database is the limit, requests wait for a pooled connection while the event loop idles (bench:overload:
 * 1,000 connections on the uncached listing, the loop's delay never passed 43 ms while replies took 0.9-2.7 s).
 * Health and metrics always answer. Must be installed before the hooks that do work for a request (the route
 * guard reads the caller).
 */
export async function shedLoad(
  app: FastifyInstance,
  { maxEventLoopDelayMs, maxHeapUsedPercent, maxRequestsInFlight }: LoadSheddingLimits,
): Promise<() => LoadSheddingState> {
  const shed: Record<ShedReason, number> = { event_loop_delay: 0, heap: 0, in_flight: 0 };
  let inFlight = 0;
  const refuse = (reason: ShedReason, reply: FastifyReply) => {
    shed[reason]++;
    return reply.code(503).header("retry-after", String(LOAD_SHED_RETRY_AFTER_SECONDS));
  };
  if (maxEventLoopDelayMs > 0 || maxHeapUsedPercent > 0) {
    // Starting lags the loop (loading the app, the page renderer, its first compilations): not an overload.
    // The delay measured meanwhile counts for nothing until two samples after the app is ready.
    let delayCountsFrom = Infinity;
    app.addHook("onReady", async () => {
      delayCountsFrom = performance.now() + 2 * LOAD_SHED_SAMPLE_MS;
    });
    const handler = (request: FastifyRequest, reply: FastifyReply, type: string) => {
      if (NEVER_SHED.has(request.routeOptions.url ?? "")) return undefined;
      if (type === underPressure.TYPE_EVENT_LOOP_DELAY && performance.now() < delayCountsFrom)
        return undefined;
      refuse(type === underPressure.TYPE_HEAP_USED_BYTES ? "heap" : "event_loop_delay", reply);
      // Documented: a value other than a promise or nullish is sent as the reply, and the request goes no further.
      return BUSY;
    };
    await app.register(underPressure, {
      maxEventLoopDelay: maxEventLoopDelayMs,
      maxHeapUsedBytes: Math.round((getHeapStatistics().heap_size_limit * maxHeapUsedPercent) / 100),
      sampleInterval: LOAD_SHED_SAMPLE_MS,
      pressureHandler: handler as unknown as FastifyUnderPressureOptions["pressureHandler"],
    });
  }
  if (maxRequestsInFlight > 0) {
    const finished = () => inFlight--;
    app.addHook("onRequest", (request, reply, done) => {
      if (NEVER_SHED.has(request.routeOptions.url ?? "")) return done();
      // Replied here, the request goes no further (a callback hook that sends doesn't call done).
      if (inFlight >= maxRequestsInFlight) return void refuse("in_flight", reply).send(BUSY);
      inFlight++;
      // A response's close comes once, whether it was sent or its client went away first.
      reply.raw.once("close", finished);
      done();
    });
  }
  return () => ({
    shed: { ...shed },
    eventLoopDelayMs: maxEventLoopDelayMs > 0 ? app.memoryUsage().eventLoopDelay : undefined,
    inFlight,
  });
}
