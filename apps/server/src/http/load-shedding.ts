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

export type ShedReason = "event_loop_delay" | "heap";

export interface LoadSheddingLimits {
  /** Mean event-loop delay over a sample, in ms, past which requests are refused (0: never). */
  maxEventLoopDelayMs: number;
  /** Share of V8's heap limit (--max-old-space-size) in use, in percent, past which requests are refused (0: never). */
  maxHeapUsedPercent: number;
}

/** What /api/metrics shows of it. */
export interface LoadSheddingState {
  /** Requests refused so far, by reason. */
  shed: Record<ShedReason, number>;
  /** The event loop's mean delay over the last sample, in ms; undefined while shedding is off. */
  eventLoopDelayMs: number | undefined;
}

/**
 * Load shedding (issue 38 point 4): while the process is overloaded (its event loop lags behind, or its heap
 * nears V8's limit) a request is answered 503 with Retry-After at once, before any route work, instead of
 * queueing behind the others until its client gives up; the requests already taken finish in bounded time.
 * Health and metrics always answer. Must be installed before the hooks that do work for a request (the route
 * guard reads the caller).
 */
export async function shedLoad(
  app: FastifyInstance,
  { maxEventLoopDelayMs, maxHeapUsedPercent }: LoadSheddingLimits,
): Promise<() => LoadSheddingState> {
  const shed: Record<ShedReason, number> = { event_loop_delay: 0, heap: 0 };
  if (maxEventLoopDelayMs === 0 && maxHeapUsedPercent === 0)
    return () => ({ shed: { ...shed }, eventLoopDelayMs: undefined });
  const body = { error: "The store is busy: try again in a few seconds" };
  const refuse = (request: FastifyRequest, reply: FastifyReply, type: string) => {
    if (NEVER_SHED.has(request.routeOptions.url ?? "")) return undefined;
    shed[type === underPressure.TYPE_HEAP_USED_BYTES ? "heap" : "event_loop_delay"]++;
    void reply.code(503).header("retry-after", String(LOAD_SHED_RETRY_AFTER_SECONDS));
    // Documented: a value other than a promise or nullish is sent as the reply, and the request goes no further.
    return body;
  };
  await app.register(underPressure, {
    maxEventLoopDelay: maxEventLoopDelayMs,
    maxHeapUsedBytes: Math.round((getHeapStatistics().heap_size_limit * maxHeapUsedPercent) / 100),
    sampleInterval: LOAD_SHED_SAMPLE_MS,
    pressureHandler: refuse as unknown as FastifyUnderPressureOptions["pressureHandler"],
  });
  return () => ({ shed: { ...shed }, eventLoopDelayMs: app.memoryUsage().eventLoopDelay });
}
