import { useSyncExternalStore } from "react";

/**
 * The products a shopper chose to compare (issue 41 point 6): kept in localStorage under `voltio.compare`,
 * so guests have it too and it lasts across visits. At most MAX_COMPARED, all of one category: the compare
 * page (/compare?ids=…) puts their specifications side by side. Shared by the product page (Add to compare),
 * the listing (its link) and the compare page.
 */
export const COMPARE_KEY = "voltio.compare";
export const MAX_COMPARED = 4;

/** A chosen product: its id, title (for messages) and its categories (the list shares one at least). */
export interface ComparedProduct {
  id: number;
  title: string;
  categoryIds: number[];
  /** The category named when another category's product is refused. */
  categoryName: string;
}

const EMPTY: ComparedProduct[] = [];
const listeners = new Set<() => void>();
let cache: { raw: string | null; items: ComparedProduct[] } | null = null;

function isCompared(value: unknown): value is ComparedProduct {
  if (typeof value !== "object" || value === null) return false;
  const item = value as Partial<ComparedProduct>;
  return typeof item.id === "number" && Number.isInteger(item.id) && item.id > 0;
}

export function readCompareList(): ComparedProduct[] {
  let raw: string | null;
  try {
    raw = localStorage.getItem(COMPARE_KEY);
  } catch {
    return EMPTY;
  }
  if (cache && cache.raw === raw) return cache.items;
  let items = EMPTY;
  try {
    const value: unknown = raw ? JSON.parse(raw) : [];
    // A damaged or foreign value must not break a page: keep the well-formed entries, at most MAX_COMPARED.
    if (Array.isArray(value))
      items = value
        .filter(isCompared)
        .map((item) => ({
          id: item.id,
          title: typeof item.title === "string" ? item.title : `#${item.id}`,
          categoryIds: Array.isArray(item.categoryIds)
            ? item.categoryIds.filter((id): id is number => typeof id === "number")
            : [],
          categoryName: typeof item.categoryName === "string" ? item.categoryName : "",
        }))
        .slice(0, MAX_COMPARED);
  } catch {
    items = EMPTY;
  }
  cache = { raw, items };
  return items;
}

function write(items: ComparedProduct[]) {
  try {
    if (items.length === 0) localStorage.removeItem(COMPARE_KEY);
    else localStorage.setItem(COMPARE_KEY, JSON.stringify(items));
  } catch {
    // Storage refused (private mode, full): the list lives as long as the page.
  }
  listeners.forEach((listener) => listener());
}

/** Why a product can't join the list, or null: the list is full, or it holds another category's products. */
export type CompareRefusal = { reason: "full" } | { reason: "otherCategory"; categoryName: string };

export function compareRefusal(items: ComparedProduct[], product: ComparedProduct): CompareRefusal | null {
  if (items.some((item) => item.id === product.id)) return null;
  if (items.length >= MAX_COMPARED) return { reason: "full" };
  // The categories every product of the list has: the newcomer must have one of them too.
  const shared = items.reduce(
    (ids, item) => ids.filter((id) => item.categoryIds.includes(id)),
    product.categoryIds,
  );
  return items.length > 0 && shared.length === 0
    ? { reason: "otherCategory", categoryName: items[0]!.categoryName }
    : null;
}

/** Adds the product unless refused (the refusal is returned and nothing changes). */
export function addToCompare(product: ComparedProduct): CompareRefusal | null {
  const items = readCompareList();
  const refusal = compareRefusal(items, product);
  if (refusal || items.some((item) => item.id === product.id)) return refusal;
  write([...items, product]);
  return null;
}

export function removeFromCompare(id: number) {
  write(readCompareList().filter((item) => item.id !== id));
}

/** The compare page opened with ?ids=: the list becomes those products (titles filled in from its reply). */
export function replaceCompareList(items: ComparedProduct[]) {
  write(items.slice(0, MAX_COMPARED));
}

/** `?ids=1,2,3` → [1, 2, 3]: positive integers, no repeats, at most MAX_COMPARED. */
export function compareIdsOf(text: string | null): number[] {
  if (!text) return [];
  const ids = text
    .split(",")
    .map((part) => Number(part.trim()))
    .filter((id) => Number.isInteger(id) && id > 0);
  return [...new Set(ids)].slice(0, MAX_COMPARED);
}

export const comparePath = (ids: number[]) => `/compare?ids=${ids.join(",")}`;

function subscribe(listener: () => void) {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key === COMPARE_KEY) listener();
  };
  window.addEventListener("storage", onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", onStorage);
  };
}

/** The live list; empty in the server's render (it can't read the visitor's storage). */
export function useCompareList(): ComparedProduct[] {
  return useSyncExternalStore(subscribe, readCompareList, () => EMPTY);
}
