/**
 * Demo mode's log: one short line per request (`GET /api/products?offset=1 200 4 ms`) and one line per
 * warning or error, instead of pino's JSON. Production keeps the JSON lines, which log collectors parse.
 * It is the pino destination: it receives each JSON line pino would have printed.
 */
interface Entry {
  level?: number;
  msg?: string;
  reqId?: string;
  req?: { method?: string; url?: string };
  res?: { statusCode?: number };
  responseTime?: number;
  err?: { type?: string; message?: string };
}

const WARN = 40;
const ERROR = 50;
/** Requests that never complete (a client gone mid-way) must not grow the map forever. */
const MAX_OPEN_REQUESTS = 1000;

export function demoLogStream(write: (line: string) => void = (line) => process.stdout.write(line)) {
  const open = new Map<string, string>();
  return {
    write(json: string) {
      let entry: Entry;
      try {
        entry = JSON.parse(json) as Entry;
      } catch {
        write(json);
        return;
      }
      const request = entry.reqId ? open.get(entry.reqId) : undefined;
      if (entry.msg === "incoming request" && entry.reqId && entry.req) {
        if (open.size >= MAX_OPEN_REQUESTS) open.delete(open.keys().next().value!);
        open.set(entry.reqId, `${entry.req.method} ${entry.req.url}`);
        return;
      }
      if (entry.msg === "request completed" && entry.reqId) {
        open.delete(entry.reqId);
        const ms = Math.round(entry.responseTime ?? 0);
        write(`${request ?? "request"} ${entry.res?.statusCode ?? "?"} ${ms} ms\n`);
        return;
      }
      // main prints the address with the demo logins.
      if (entry.msg?.startsWith("Server listening at")) return;
      const level = entry.level ?? 30;
      const text = entry.err?.message ?? entry.msg ?? "";
      const prefix = level >= ERROR ? "error: " : level >= WARN ? "warning: " : "";
      const where = request ? `${request}: ` : "";
      write(`${prefix}${where}${text}`.replace(/\s*\n\s*/g, " ") + "\n");
    },
  };
}
