/**
 * A promise rejected with nobody to hear it is a bug: Node's default is to end the process,
 * which turned a PostgreSQL restart into an outage. Each one is logged with its stack and counted
 * (`voltio_unhandled_rejections_total` in /api/metrics), and the process goes on serving.
 */
let count = 0;

export const unhandledRejections = (): number => count;

interface FaultLog {
  error: (object: object, message: string) => void;
}

let installed = false;
let log: FaultLog = {
  error: (object, message) => console.error(JSON.stringify({ level: 50, msg: message, ...object })),
};

/** Installs the process's handler once; later calls only change where it logs (the app's logger once it exists). */
export function reportUnhandledRejections(to?: FaultLog) {
  if (to) log = to;
  if (installed) return;
  installed = true;
  process.on("unhandledRejection", (reason) => {
    count++;
    const err =
      reason instanceof Error ? { type: reason.name, message: reason.message, stack: reason.stack } : reason;
    log.error({ err }, "unhandled promise rejection (a bug: please report it)");
  });
}
