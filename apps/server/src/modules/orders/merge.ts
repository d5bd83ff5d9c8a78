import { and, eq, inArray } from "drizzle-orm";
import type { ListMerge, ListMergeReply, ListStatus, OrderLine } from "@voltio/domain/orders";
import type { Db } from "../../db/client";
import { listMerges, orders } from "../../db/schema";
import { lineColumns } from "./service";
import { lockVariants } from "../inventory/stock";
import { guestLineVariants } from "../inventory/variants";

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

    // Each guest line sells a variant: the one it names, or its product's default (a SPEC client's lists).
    const variantOf = await guestLineVariants(tx, [...input.inCart, ...input.inWishList]);
    const wanted = new Map<
      string,
      { status: ListStatus; productId: number; variantId: number | undefined; amount: number }
    >();
    input.inCart.forEach(({ productId, amount }, index) => {
      const variantId = variantOf[index];
      const key = `inCart:${variantId ?? `p${productId}`}`;
      const entry = wanted.get(key);
      wanted.set(key, { status: "inCart", productId, variantId, amount: (entry?.amount ?? 0) + amount });
    });
    input.inWishList.forEach(({ productId }, index) => {
      const variantId = variantOf[input.inCart.length + index];
      wanted.set(`inWishList:${variantId ?? `p${productId}`}`, {
        status: "inWishList",
        productId,
        variantId,
        amount: 1,
      });
    });
    if (wanted.size === 0) return { msg: "Nothing to merge", repeated: false, lines: [], refused: [] };

    // Locked like every other stock check: adds of the same variant take turns.
    const variantIds = [...wanted.values()].flatMap((line) =>
      line.variantId === undefined ? [] : [line.variantId],
    );
    const locked = await lockVariants(tx, variantIds);
    const existing = await tx
      .select(lineColumns)
      .from(orders)
      .where(
        and(
          eq(orders.userId, userId),
          inArray(orders.variantId, variantIds),
          inArray(orders.status, ["inCart", "inWishList"]),
        ),
      )
      .for("update");
    const lineOf = new Map(existing.map((line) => [`${line.status}:${line.variantId}`, line]));

    const lines: OrderLine[] = [];
    const refused: ListMergeReply["refused"] = [];
    for (const [key, guest] of wanted) {
      const product = guest.variantId === undefined ? undefined : locked.get(guest.variantId);
      if (guest.variantId === undefined || !product || product.retired) {
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
                .values({
                  userId,
                  productId: guest.productId,
                  variantId: guest.variantId,
                  status: "inWishList",
                  amount: 1,
                })
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
            .values({
              userId,
              productId: guest.productId,
              variantId: guest.variantId,
              status: "inCart",
              amount,
            })
            .returning(lineColumns);
      lines.push(merged!);
    }
    return { msg: "Lists merged", repeated: false, lines, refused };
  });
}
