import pg from "pg";

/** What changed, as migrations 0015–0016's triggers NOTIFY it on channel voltio_changes. */
export type Change = "catalog" | "stock" | "holds";
const CHANGES: readonly string[] = ["catalog", "stock", "holds"] satisfies Change[];

export interface ChangeListener {
  /** Its LISTEN connection is up: notifications reach this process. */
  connected(): boolean;
  close(): Promise<void>;
}

const CHANNEL = "voltio_changes";
const RETRY_MS = [250, 1000, 2000, 5000, 10_000];

/**
 * Every process LISTENs on one connection of its own (issue 22 point 1, ADR 0014) and applies what other
 * processes (or SQL by hand) changed: its copies of the catalogue follow within a second. A lost connection
 * is opened again; notifications sent meanwhile are lost, so `onMissed` then drops every copy.
 */
export function listenForChanges(options: {
  url: string;
  onChange: (change: Change) => void;
  onMissed: () => void;
  log: { warn: (object: object, message: string) => void };
}): ChangeListener {
  let client: pg.Client | undefined;
  let up = false;
  let closed = false;
  let attempt = 0;
  let timer: NodeJS.Timeout | undefined;

  async function connect(reconnecting: boolean) {
    const next = new pg.Client({ connectionString: options.url, application_name: "voltio-listen" });
    const lost = (error?: Error) => {
      if (client !== next) return;
      up = false;
      client = undefined;
      void next.end().catch(() => {});
      if (closed) return;
      options.log.warn({ error: error?.message }, "the change notifications' connection was lost");
      schedule();
    };
    client = next;
    next.on("error", lost);
    next.on("end", () => lost());
    next.on("notification", (message) => {
      if (message.payload && CHANGES.includes(message.payload)) options.onChange(message.payload as Change);
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${CHANNEL}`);
      if (client !== next) return;
      up = true;
      attempt = 0;
      // What was written while nobody listened is unknown: every copy goes.
      if (reconnecting) options.onMissed();
    } catch (error) {
      lost(error as Error);
    }
  }

  function schedule() {
    clearTimeout(timer);
    timer = setTimeout(() => void connect(true), RETRY_MS[Math.min(attempt++, RETRY_MS.length - 1)]);
    timer.unref();
  }

  void connect(false);
  return {
    connected: () => up,
    async close() {
      closed = true;
      clearTimeout(timer);
      const last = client;
      client = undefined;
      up = false;
      await last?.end().catch(() => {});
    },
  };
}
