import { Readable } from "node:stream";
import { ORDER_CSV_COLUMNS, type AdminOrder, type AdminOrderFilters } from "@voltio/domain/admin-orders";
import type { Db } from "../../db/client";
import { describePurchases, purchaseKeys, type PurchaseKey } from "./admin-list";

/** GET /order/admin/export: every purchase the filters match, as CSV (the list is admin-list.ts). */

/** Spreadsheets run a cell that starts like a formula: such text gets a leading quote (OWASP CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;

/** One CSV field (RFC 4180): quoted when it holds a quote, a comma or a line break. */
export function csvField(value: string | number | null): string {
  if (value === null) return "";
  let text = String(value);
  if (typeof value === "string" && FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

const csvLine = (fields: (string | number | null)[]) => `${fields.map(csvField).join(",")}\r\n`;

const money = (dollars: number) => dollars.toFixed(2);

function csvRow(order: AdminOrder): string {
  const row: Record<(typeof ORDER_CSV_COLUMNS)[number], string | number | null> = {
    number: order.number,
    kind: order.kind,
    id: order.id,
    userId: order.userId,
    email: order.user.email,
    status: order.status,
    flag: order.flag,
    serverPurchaseDate: order.serverPurchaseDate,
    price: money(order.price),
    shippingCost: money(order.shippingCost),
    purchaseId: order.purchaseId,
    products: order.products.map((line) => `${line.title} × ${line.amount}`).join("; "),
  };
  return csvLine(ORDER_CSV_COLUMNS.map((column) => row[column]));
}

export const CSV_BATCH = 500;

/**
 * GET /order/admin/export: every matching purchase as CSV, in the list's order. The rows are read in keyset
 * batches as the client takes them (the stream pulls the next batch only when the last one was sent), so
 * the whole export never sits in memory, and no transaction stays open while a slow client downloads.
 */
export function ordersCsv(db: Db, filters: AdminOrderFilters, batch = CSV_BATCH): Readable {
  async function* lines() {
    yield csvLine([...ORDER_CSV_COLUMNS]);
    let after: PurchaseKey | undefined;
    for (;;) {
      const keys = await purchaseKeys(db, filters, { limit: batch, after });
      if (keys.length === 0) return;
      yield (await describePurchases(db, keys)).map(csvRow).join("");
      if (keys.length < batch) return;
      after = keys.at(-1);
    }
  }
  return Readable.from(lines(), { objectMode: false });
}
