import { ApiError } from "@/api/client";

/** A product other shoppers' checkouts hold: what is left of it for this shopper. */
export interface Shortage {
  productId: number;
  /** The variant short (issue 41): only its lines are cut. Absent from an older server's reply. */
  variantId?: number;
  /** What the shopper can still have of it. */
  stock: number;
}

/**
 * POST /{provider}/pay refused before any payment because other shoppers' checkouts hold the units:
 * 409 `{error: "Only N left" | "Out of stock", productId, variantId, stock}`. Null for any other failure.
 */
export function shortageOf(error: unknown): Shortage | null {
  if (!(error instanceof ApiError) || error.status !== 409) return null;
  const { productId, variantId, stock } = (error.body ?? {}) as {
    productId?: unknown;
    variantId?: unknown;
    stock?: unknown;
  };
  if (typeof productId !== "number" || typeof stock !== "number" || stock < 0) return null;
  return typeof variantId === "number" ? { productId, variantId, stock } : { productId, stock };
}

/** What of a pending line the fix reads. */
interface ShortLine {
  product: { id: number; title: string };
  order: { id: number; amount: number; variantId?: number };
  pending?: { title: string };
  /** Gathered in a bulk order: it can't be removed or changed. */
  bulk: boolean;
}

/**
 * What the shopper can do about a shortage: the product's lines bought alone are cut down to what is left
 * beside its bulk-order lines (which can't change) — `cut` to `room` units — or removed when nothing is left
 * for them; with no such line there is nothing to do here (`none`).
 */
export function shortageFix<L extends ShortLine>(
  lines: readonly L[],
  { productId, variantId, stock }: Shortage,
) {
  const ofProduct = lines.filter(
    (line) =>
      line.product.id === productId && (variantId === undefined || line.order.variantId === variantId),
  );
  const single = ofProduct.filter((line) => !line.bulk);
  const inBulk = ofProduct.filter((line) => line.bulk).reduce((units, line) => units + line.order.amount, 0);
  const room = stock - inBulk;
  const action: "none" | "cut" | "remove" = single.length === 0 ? "none" : room > 0 ? "cut" : "remove";
  const first = ofProduct[0];
  return { title: first?.pending?.title ?? first?.product.title, single, action, room };
}
