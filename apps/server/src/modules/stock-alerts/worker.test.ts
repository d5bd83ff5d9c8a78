import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { mailOutbox, products, stockAlerts } from "../../db/schema";
import { createTestApp, type TestContext } from "../../../test/app";
import { shop, type Shop } from "../../../test/shop";

/**
 * The sweep in the background, as the server runs it: stock that rises by any path (here
 * SQL by hand, as a cancelled purchase giving units back would) is announced by the database's change
 * notifications, and the process answers the open requests without anybody calling it.
 */
let t: TestContext;
let s: Shop;
beforeAll(async () => {
  t = await createTestApp({ mailWorker: true });
  s = shop(t);
});
afterAll(() => t.close());

describe("the background sweep", () => {
  it("answers a request once the change feed says the product's stock rose", async () => {
    const productId = await s.newProduct({ stock: 0 });
    const reply = await t.app.inject({
      method: "PUT",
      url: `/api/product/${productId}/stock-alert`,
      headers: await s.newShopper({ address: false }),
    });
    expect(reply.statusCode, reply.body).toBe(200);
    const [alert] = await t.database.db
      .select()
      .from(stockAlerts)
      .where(eq(stockAlerts.productId, productId));

    await t.database.db.update(products).set({ stock: 2 }).where(eq(products.id, productId));
    await vi.waitFor(
      async () => {
        const [closed] = await t.database.db.select().from(stockAlerts).where(eq(stockAlerts.id, alert!.id));
        expect(closed!.notifiedAt).not.toBeNull();
      },
      { timeout: 10_000, interval: 50 },
    );
    const mails = await t.database.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.dedupeKey, `stock-alert:${alert!.id}`));
    expect(mails).toHaveLength(1);
  });
});
