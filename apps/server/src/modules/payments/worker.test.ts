import { afterEach, describe, expect, it, vi } from "vitest";
import { createTestDatabase } from "../../../test/database";
import { sandboxProvider } from "../../integrations/payments/sandbox";
import { startPaymentsWorker, type PaymentsWorker } from "./worker";

let worker: PaymentsWorker | undefined;
afterEach(async () => {
  await worker?.stop();
  worker = undefined;
});

describe("the payments worker in the background", () => {
  it("logs a round that fails while the database is away and keeps polling, without an unhandled rejection", async () => {
    const database = await createTestDatabase("empty");
    await database.close(); // every query now fails, as while PostgreSQL restarts
    const warn = vi.fn();
    worker = startPaymentsWorker({
      db: database.db,
      provider: sandboxProvider(database.db, { webhookSecret: "x" }),
      log: { warn },
      pollMs: 10,
      background: true,
    });
    // Several rounds failed and each was logged: the timer went on after a failure. (A rejection left
    // unhandled fails the run: vitest reports it as an error.)
    await expect.poll(() => warn.mock.calls.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(3);
    expect(warn).toHaveBeenCalledWith(
      expect.objectContaining({ error: expect.any(String) }),
      "payments worker round failed",
    );
  });
});
