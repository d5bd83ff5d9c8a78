import { useSyncExternalStore } from "react";
import type { Product, Variant } from "@voltio/domain/catalog";

/**
 * A guest's cart and wishlist (docs/product-rules.md §13, §8): lists of product snapshots kept in localStorage under
 * `inCart` and `inWishList`. On login they join the shopper's lists on the server and leave the storage
 * (login-merge.ts); signed-in shoppers' lists live on the server only.
 */
export type GuestListName = "inCart" | "inWishList";

export interface GuestLine {
  /** Guests have no order ids: a line is known by its product id, and its variant's when one was chosen. */
  id: number;
  productId: number;
  /** The variant chosen on the product page (issue 41); none: the product's default, as the server picks it. */
  variantId?: number;
  status: GuestListName;
  amount: number;
  title: string;
  price: number;
  shippingCost: number;
  stock: number;
  description: string;
  images: Product["images"];
  /** Kept so a preview can price the line with the same discount rules as the product card. */
  sales: Product["sales"];
}

type ProductSnapshot = Pick<
  Product,
  "id" | "title" | "price" | "shippingCost" | "stock" | "description" | "images" | "sales"
>;

const EMPTY: GuestLine[] = [];
const listeners = new Set<() => void>();
/** Parsed lists by their raw JSON, so every reader gets the same array until the storage changes. */
const parsed = new Map<GuestListName, { raw: string | null; lines: GuestLine[] }>();

function isLine(value: unknown): value is GuestLine {
  if (typeof value !== "object" || value === null) return false;
  const line = value as Partial<GuestLine>;
  return typeof line.productId === "number" && typeof line.amount === "number";
}

export function readGuestList(name: GuestListName): GuestLine[] {
  let raw: string | null = null;
  try {
    raw = localStorage.getItem(name);
  } catch {
    return EMPTY;
  }
  const cached = parsed.get(name);
  if (cached && cached.raw === raw) return cached.lines;
  let lines = EMPTY;
  if (raw) {
    try {
      const value: unknown = JSON.parse(raw);
      // A damaged or foreign value must not break the header on every page: keep only well-formed lines.
      if (Array.isArray(value)) lines = value.filter(isLine);
    } catch {
      lines = EMPTY;
    }
  }
  parsed.set(name, { raw, lines });
  return lines;
}

function writeGuestList(name: GuestListName, lines: GuestLine[]) {
  if (lines.length === 0) localStorage.removeItem(name);
  else localStorage.setItem(name, JSON.stringify(lines));
  listeners.forEach((listener) => listener());
}

/** A variant as a guest line keeps it: its name ("Logitech M720 — Black"), price, stock and pictures. */
export type ChosenVariant = Pick<Variant, "id" | "price" | "stock" | "images"> & { name: string };

function snapshotOf(
  product: ProductSnapshot,
  status: GuestListName,
  amount: number,
  variant?: ChosenVariant,
): GuestLine {
  return {
    id: product.id,
    productId: product.id,
    ...(variant ? { variantId: variant.id } : {}),
    status,
    amount,
    title: variant?.name ?? product.title,
    price: variant?.price ?? product.price,
    shippingCost: product.shippingCost,
    stock: variant?.stock ?? product.stock,
    description: product.description,
    images: variant && variant.images.length > 0 ? variant.images : product.images,
    sales: product.sales,
  };
}

/** The line of this product and variant (none: the line added without choosing one). */
const isLineOf = (line: GuestLine, productId: number, variantId: number | undefined) =>
  line.productId === productId && line.variantId === variantId;

export function isInGuestList(name: GuestListName, productId: number, variantId?: number): boolean {
  return readGuestList(name).some((line) => isLineOf(line, productId, variantId));
}

/**
 * Adding sets the status with amount 1 (docs/product-rules.md §8); a product (or variant) already in the list
 * stays as it is.
 */
export function addToGuestList(
  name: GuestListName,
  product: ProductSnapshot,
  amount = 1,
  variant?: ChosenVariant,
) {
  const lines = readGuestList(name);
  if (lines.some((line) => isLineOf(line, product.id, variant?.id))) return;
  writeGuestList(name, [...lines, snapshotOf(product, name, amount, variant)]);
}

export function removeFromGuestList(name: GuestListName, productId: number, variantId?: number) {
  writeGuestList(
    name,
    readGuestList(name).filter((line) => !isLineOf(line, productId, variantId)),
  );
}

/** The heart and cart buttons toggle. Returns true when the product was added, false when removed. */
export function toggleInGuestList(name: GuestListName, product: ProductSnapshot): boolean {
  if (isInGuestList(name, product.id)) {
    removeFromGuestList(name, product.id);
    return false;
  }
  addToGuestList(name, product);
  return true;
}

/** docs/product-rules.md §8: adds a delta to the amount; when the result would fall below 1 the line is dropped. */
export function changeGuestAmount(name: GuestListName, productId: number, delta: number, variantId?: number) {
  const lines = readGuestList(name);
  const next: GuestLine[] = [];
  for (const line of lines) {
    if (!isLineOf(line, productId, variantId)) next.push(line);
    else if (Math.abs(line.amount + delta) >= 1) next.push({ ...line, amount: line.amount + delta });
  }
  writeGuestList(name, next);
}

/**
 * A wishlist line into the cart, as on the server: one more unit of a cart line already there (while the
 * stock allows), or a cart line of one; the wishlist line goes.
 */
export function moveGuestLineToCart(productId: number, variantId?: number) {
  const wished = readGuestList("inWishList").find((line) => isLineOf(line, productId, variantId));
  if (!wished) return;
  const inCart = readGuestList("inCart").find((line) => isLineOf(line, productId, variantId));
  if (!inCart)
    writeGuestList("inCart", [...readGuestList("inCart"), { ...wished, status: "inCart", amount: 1 }]);
  else if (inCart.amount < wished.stock) changeGuestAmount("inCart", productId, 1, variantId);
  removeFromGuestList("inWishList", productId, variantId);
}

/** Lines whose description is on its way, by list and product: the header and the page ask for the same. */
const completing = new Set<string>();

/**
 * A listing drawn from the page's HTML has no descriptions until its whole reply comes (api/boot-data.ts): a
 * line added from it meanwhile gets its product's own when a list shows it (useListLines: the header's
 * previews, on every page), once per line however many lists ask.
 */
export function completeGuestDescriptions(
  name: GuestListName,
  fetchDescription: (id: number) => Promise<string>,
) {
  for (const line of readGuestList(name)) {
    const key = `${name} ${line.productId}`;
    if (line.description !== "" || completing.has(key)) continue;
    completing.add(key);
    void fetchDescription(line.productId)
      .then(
        (description) =>
          writeGuestList(
            name,
            readGuestList(name).map((entry) =>
              entry.productId === line.productId && entry.description === ""
                ? { ...entry, description }
                : entry,
            ),
          ),
        // Offline or withdrawn: the line stays as it is and the next showing tries again.
        () => {},
      )
      .finally(() => completing.delete(key));
  }
}

export function clearGuestList(name: GuestListName) {
  writeGuestList(name, []);
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  // Another tab changed the lists: every open tab shows the same cart.
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key === "inCart" || event.key === "inWishList") listener();
  };
  window.addEventListener("storage", onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", onStorage);
  };
}

/** The live list: re-renders when this tab or another one changes it. */
export function useGuestList(name: GuestListName): GuestLine[] {
  return useSyncExternalStore(
    subscribe,
    () => readGuestList(name),
    () => EMPTY,
  );
}
