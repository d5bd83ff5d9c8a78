import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestContext } from "../../../test/app";

/**
 * Cart totals with each demo sale on each weekday, on a store clock the test sets. The demo
 * sales: 10% off everything on Fridays; every third mouse free; 40% off the second keyboard on Sundays; 35%
 * off the UBOTIE keyboard (product 15) on Thursdays. The store is in Buenos Aires (UTC−3): its weekday, not
 * the server's, decides. Totals round once, at the line (docs/product-rules.md §11).
 */
let t: TestContext;
let clock = new Date();

const MOUSE = 11; // Logitech M510, 29.99, Mouse
const KEYBOARD = 13; // Arteck, 27.99, Keyboards
const UBOTIE = 15; // 39.99, Keyboards, its own Thursday sale
const WEBCAM = 12; // NexiGo N60, 39.99, no sale but Friday's

const CART = [
  { productId: MOUSE, amount: 3 },
  { productId: KEYBOARD, amount: 2 },
  { productId: UBOTIE, amount: 2 },
  { productId: WEBCAM, amount: 1 },
];

type Line = { lineTotal: number; salePercentage: number | null };
const plain = (lineTotal: number): Line => ({ lineTotal, salePercentage: null });
const THIRD_MOUSE_FREE: Line = { lineTotal: 59.98, salePercentage: 100 };

/** Noon in Buenos Aires on each day of the week of 2026-11-23 (a Monday). */
const DAYS: { day: string; at: string; lines: Record<number, Line> }[] = [
  {
    day: "Monday",
    at: "2026-11-23T15:00:00Z",
    lines: {
      [MOUSE]: THIRD_MOUSE_FREE,
      [KEYBOARD]: plain(55.98),
      [UBOTIE]: plain(79.98),
      [WEBCAM]: plain(39.99),
    },
  },
  {
    day: "Tuesday",
    at: "2026-11-24T15:00:00Z",
    lines: {
      [MOUSE]: THIRD_MOUSE_FREE,
      [KEYBOARD]: plain(55.98),
      [UBOTIE]: plain(79.98),
      [WEBCAM]: plain(39.99),
    },
  },
  {
    day: "Wednesday",
    at: "2026-11-25T15:00:00Z",
    lines: {
      [MOUSE]: THIRD_MOUSE_FREE,
      [KEYBOARD]: plain(55.98),
      [UBOTIE]: plain(79.98),
      [WEBCAM]: plain(39.99),
    },
  },
  {
    day: "Thursday",
    at: "2026-11-26T15:00:00Z",
    lines: {
      [MOUSE]: THIRD_MOUSE_FREE,
      [KEYBOARD]: plain(55.98),
      // 79.98 × 0.65 = 51.987: rounded once for the line, not per unit (2 × 25.99 would be 51.98).
      [UBOTIE]: { lineTotal: 51.99, salePercentage: 35 },
      [WEBCAM]: plain(39.99),
    },
  },
  {
    // 01:30 UTC on Friday is still Thursday evening in Buenos Aires: Thursday's sale, not Friday's.
    day: "Thursday night (Friday in UTC)",
    at: "2026-11-27T01:30:00Z",
    lines: {
      [MOUSE]: THIRD_MOUSE_FREE,
      [KEYBOARD]: plain(55.98),
      [UBOTIE]: { lineTotal: 51.99, salePercentage: 35 },
      [WEBCAM]: plain(39.99),
    },
  },
  {
    day: "Friday",
    at: "2026-11-27T15:00:00Z",
    lines: {
      // 100% on every third unit beats 10% on every unit.
      [MOUSE]: THIRD_MOUSE_FREE,
      [KEYBOARD]: { lineTotal: 50.38, salePercentage: 10 },
      [UBOTIE]: { lineTotal: 71.98, salePercentage: 10 },
      [WEBCAM]: { lineTotal: 35.99, salePercentage: 10 },
    },
  },
  {
    day: "Saturday",
    at: "2026-11-28T15:00:00Z",
    lines: {
      [MOUSE]: THIRD_MOUSE_FREE,
      [KEYBOARD]: plain(55.98),
      [UBOTIE]: plain(79.98),
      [WEBCAM]: plain(39.99),
    },
  },
  {
    day: "Sunday",
    at: "2026-11-29T15:00:00Z",
    lines: {
      [MOUSE]: THIRD_MOUSE_FREE,
      // The second keyboard at 60%: 27.99 + 16.794 = 44.784.
      [KEYBOARD]: { lineTotal: 44.78, salePercentage: 40 },
      [UBOTIE]: { lineTotal: 63.98, salePercentage: 40 },
      [WEBCAM]: plain(39.99),
    },
  },
];

let shopper: Record<string, string>;

beforeAll(async () => {
  t = await createTestApp({ now: () => clock, env: { STORE_TIMEZONE: "America/Argentina/Buenos_Aires" } });
  const registered = await t.app.inject({
    method: "POST",
    url: "/api/user",
    payload: { firstName: "Week", lastName: "Shopper", email: "week@voltio.test", password: "long-enough-1" },
  });
  shopper = await t.bearer(registered.json<{ id: number }>().id);
  for (const line of CART) {
    const added = await t.app.inject({
      method: "POST",
      url: "/api/order",
      headers: shopper,
      payload: { status: "inCart", ...line },
    });
    expect(added.statusCode, added.body).toBe(201);
  }
});
afterAll(() => t.close());

async function cartLines() {
  const reply = await t.app.inject({ url: "/api/order?status=inCart", headers: shopper });
  expect(reply.statusCode, reply.body).toBe(200);
  const products = reply.json<{ id: number; orders: Line[] }[]>();
  return Object.fromEntries(
    products.map((product) => [
      product.id,
      { lineTotal: product.orders[0]!.lineTotal, salePercentage: product.orders[0]!.salePercentage },
    ]),
  );
}

describe("cart totals on each store weekday", () => {
  it.each(DAYS)("$day", async ({ at, lines }) => {
    clock = new Date(at);
    expect(await cartLines()).toEqual(lines);
  });

  it("keeps the price of the day a line became pending, whatever day it is read", async () => {
    clock = new Date("2026-11-29T15:00:00Z"); // Sunday
    const bought = await t.app.inject({
      method: "POST",
      url: "/api/order",
      headers: shopper,
      payload: { status: "pending", productId: KEYBOARD, amount: 2 },
    });
    expect(bought.statusCode, bought.body).toBe(201);
    clock = new Date("2026-11-30T15:00:00Z"); // Monday
    const reply = await t.app.inject({ url: "/api/order?status=pending", headers: shopper });
    expect(reply.json()[0].orders).toEqual([
      expect.objectContaining({ lineTotal: 44.78, salePercentage: 40 }),
    ]);
    expect((await cartLines())[KEYBOARD]).toEqual(plain(55.98));
  });
});
