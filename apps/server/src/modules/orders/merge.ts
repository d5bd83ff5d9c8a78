import { and, eq, inArray } from "drizzle-orm";
import type { ListMerge, ListMergeReply, ListStatus, OrderLine } from "@voltio/domain/orders";
import type { Db } from "../../db/client";
import { listMerges, orders } from "../../db/schema";
import { lineColumns } from "./service";
import { lockStock } from "../inventory/stock";

/**
 * POST /order/merge (docs/product-rules.md §8 Login): a guest's cart and wishlist joined to the shopper's
 * in one transaction, so a merge cut short changes nothing and the browser sends it again. Cart amounts are
 * added and capped at the stock; wishlist lines are a set. The merge's key is stored with it: the same merge
 * sent twice (its reply was lost on the way) is answered without adding the amounts a second time.
 */
export async function mergeGuestLists(db: Db, userId: number, input: ListMerge): Promise<ListMergeReply> {
  return db.transaction(async (tx) => {
    const [first] = await tx
      .insert(listMerges)
      .values({ userId, key: input.key })
      .onConflictDoNothing()
      .returning({ key: listMerges.key });
    if (!first) return { msg: "Already merged", repeated: true, lines: [], refused: [] };

    const wanted = new Map<string, { status: ListStatus; productId: number; amount: number }>();
    for (const { productId, amount } of input.inCart) {
      const entry = wanted.get(`inCart:${productId}`);
      wanted.set(`inCart:${productId}`, {
        status: "inCart",
        productId,
        amount: (entry?.amount ?? 0) + amount,
      });
    }
    for (const { productId } of input.inWishList)
      wanted.set(`inWishList:${productId}`, { status: "inWishList", productId, amount: 1 });
    if (wanted.size === 0) return { msg: "Nothing to merge", repeated: false, lines: [], refused: [] };

    // Locked like every other stock check: adds of the same product take turns.
    const productIds = [...new Set([...wanted.values()].map((line) => line.productId))];
    const locked = await lockStock(tx, productIds);
    const existing = await tx
      .select({ id: orders.id, status: orders.status, amount: orders.amount, productId: orders.productId })
      .from(orders)
      .where(
        and(
          eq(orders.userId, userId),
          inArray(orders.productId, productIds),
          inArray(orders.status, ["inCart", "inWishList"]),
        ),
      )
      .for("update");
    const lineOf = new Map(existing.map((line) => [`${line.status}:${line.productId}`, line]));

    const lines: OrderLine[] = [];
    const refused: ListMergeReply["refused"] = [];
    for (const [key, guest] of wanted) {
      const product = locked.get(guest.productId);
      if (!product || product.retired) {
        refused.push({ status: guest.status, productId: guest.productId, error: "Product Not Found" });
        continue;
      }
      const stock = product.stock;
      if (stock <= 0) {
        refused.push({ status: guest.status, productId: guest.productId, error: "Out of stock" });
        continue;
      }
      const line = lineOf.get(key);
      if (guest.status === "inWishList") {
        lines.push(
          line ??
            (
              await tx
                .insert(orders)
                .values({ userId, productId: guest.productId, status: "inWishList", amount: 1 })
                .returning(lineColumns)
            )[0]!,
        );
        continue;
      }
      const amount = Math.min((line?.amount ?? 0) + guest.amount, stock);
      const [merged] = line
        ? await tx
            .update(orders)
            .set({ amount: Math.max(amount, line.amount), updatedAt: new Date() })
            .where(eq(orders.id, line.id))
            .returning(lineColumns)
        : await tx
            .insert(orders)
            .values({ userId, productId: guest.productId, status: "inCart", amount })
            .returning(lineColumns);
      lines.push(merged!);
    }
    return { msg: "Lists merged", repeated: false, lines, refused };
  });
}
