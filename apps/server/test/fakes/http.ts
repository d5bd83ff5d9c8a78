import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

/** A request as a fake provider received it. */
export interface ReceivedRequest {
  method: string;
  /** The path without the query. */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** The body as sent (JSON or form-encoded text). */
  text: string;
}

export interface FakeReply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export interface FakeServer {
  /** `http://127.0.0.1:<port>`: what the app's *_API_URL is set to. */
  url: string;
  /** Every request, in the order received. */
  received: ReceivedRequest[];
  /** The next `count` requests get `reply` instead of an answer, as in an outage. */
  failNext(count: number, reply: FakeReply): void;
  close(): Promise<void>;
}

/**
 * A payment provider's API on this machine (127.0.0.1, a free port): the fakes in this folder speak each
 * provider's real HTTP protocol through it, so the adapters run unchanged against them.
 */
export async function startFakeServer(answer: (request: ReceivedRequest) => FakeReply): Promise<FakeServer> {
  const received: ReceivedRequest[] = [];
  const failures: FakeReply[] = [];
  const server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const url = new URL(incoming.url ?? "/", "http://fake");
      const request: ReceivedRequest = {
        method: incoming.method ?? "GET",
        path: url.pathname,
        query: url.searchParams,
        headers: incoming.headers,
        text: Buffer.concat(chunks).toString("utf8"),
      };
      received.push(request);
      const reply = failures.shift() ?? answer(request);
      outgoing.writeHead(reply.status, { "content-type": "application/json", ...reply.headers });
      outgoing.end(JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    failNext(count, reply) {
      for (let i = 0; i < count; i++) failures.push(reply);
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
