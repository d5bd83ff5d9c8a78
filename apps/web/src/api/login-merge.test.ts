import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "./client";
import { addToGuestList, changeGuestAmount, readGuestList, type GuestLine } from "./guest-lists";
import { mergeGuestLists, mergeOutcome, mergePlan } from "./login-merge";
import { tokens } from "./tokens";

const product = (id: number) => ({
  id,
  title: `Product ${id}`,
  price: 10 * id,
  shippingCost: 2,
  stock: 5,
  description: "A product.",
  images: [],
  sales: { productSales: [], categorySales: [] },
});

const line = (productId: number, amount = 1): GuestLine => ({
  ...product(productId),
  productId,
  status: "inCart",
  amount,
});

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

describe("which guest lines a login sends (SPEC.md §4 Login, issue 9 point 3)", () => {
  it("sends cart lines with their amounts and wishlist lines as adds of one", () => {
    expect(mergePlan([line(1, 2), line(2)], [line(3, 4)])).toEqual([
      { status: "inCart", productId: 1, amount: 2 },
      { status: "inCart", productId: 2, amount: 1 },
      { status: "inWishList", productId: 3, amount: 1 },
    ]);
  });

  it("sends a product listed twice once, with its amounts together, and keeps amounts within 1–1000", () => {
    expect(mergePlan([line(1, 2), line(1, 3), line(2, -4), line(4, 5000)], [line(3), line(3)])).toEqual([
      { status: "inCart", productId: 1, amount: 5 },
      { status: "inCart", productId: 2, amount: 1 },
      { status: "inCart", productId: 4, amount: 1000 },
      { status: "inWishList", productId: 3, amount: 1 },
    ]);
  });

  it("sends nothing when the guest had no lines", () => {
    expect(mergePlan([], [])).toEqual([]);
  });
});

describe("which lines leave the browser storage", () => {
  it("clears a line the server took or refused for good (stock, gone, invalid)", () => {
    expect(mergeOutcome(undefined)).toBe("clear");
    expect(mergeOutcome(new ApiError(409, { error: "Only 2 left", stock: 2 }))).toBe("clear");
    expect(mergeOutcome(new ApiError(404, { error: "Product Not Found" }))).toBe("clear");
    expect(mergeOutcome(new ApiError(400, { error: "bad" }))).toBe("clear");
  });

  it("keeps a line for the next try when the answer says nothing about it", () => {
    expect(mergeOutcome(new TypeError("Failed to fetch"))).toBe("keep");
    expect(mergeOutcome(new ApiError(500, { error: "Internal Server Error" }))).toBe("keep");
    expect(mergeOutcome(new ApiError(401, { error: "No token" }))).toBe("keep");
    expect(mergeOutcome(new ApiError(429, { error: "Too many" }))).toBe("keep");
  });
});

describe("the merge against a fake of POST /api/order", () => {
  let posted: unknown[];
  let answer: (body: { productId: number }) => Response | Promise<Response>;

  beforeEach(() => {
    posted = [];
    answer = () => json(201, {});
    tokens.set("access-1", "refresh-1");
    vi.stubGlobal(
      "fetch",
      vi.fn(async (url: string, init: RequestInit = {}) => {
        if (url !== "/api/order" || init.method !== "POST") return json(404, { error: "Not Found" });
        const body = JSON.parse(String(init.body)) as { productId: number };
        posted.push(body);
        return answer(body);
      }),
    );
  });

  afterEach(() => {
    vi.unstubAllGlobals();
    localStorage.clear();
  });

  it("posts every line and empties both lists", async () => {
    addToGuestList("inCart", product(1));
    changeGuestAmount("inCart", 1, 1);
    addToGuestList("inCart", product(2));
    addToGuestList("inWishList", product(3));
    await mergeGuestLists();
    expect(posted).toEqual([
      { status: "inCart", productId: 1, amount: 2 },
      { status: "inCart", productId: 2, amount: 1 },
      { status: "inWishList", productId: 3, amount: 1 },
    ]);
    expect(localStorage.getItem("inCart")).toBeNull();
    expect(localStorage.getItem("inWishList")).toBeNull();
  });

  it("drops a line the server refuses (no stock, product gone) without failing", async () => {
    addToGuestList("inCart", product(1));
    addToGuestList("inCart", product(2));
    answer = ({ productId }) =>
      productId === 1
        ? json(409, { error: "Out of stock", stock: 0 })
        : json(404, { error: "Product Not Found" });
    await expect(mergeGuestLists()).resolves.toBeUndefined();
    expect(localStorage.getItem("inCart")).toBeNull();
  });

  it("keeps what was not sent when the merge is cut short, and sends only that next time", async () => {
    addToGuestList("inCart", product(1));
    addToGuestList("inCart", product(2));
    addToGuestList("inWishList", product(3));
    answer = ({ productId }) => (productId === 1 ? json(201, {}) : Promise.reject(new TypeError("offline")));
    await mergeGuestLists();
    expect(readGuestList("inCart").map((kept) => kept.productId)).toEqual([2]);
    expect(readGuestList("inWishList").map((kept) => kept.productId)).toEqual([3]);

    posted = [];
    answer = () => json(201, {});
    await mergeGuestLists();
    expect(posted).toEqual([
      { status: "inCart", productId: 2, amount: 1 },
      { status: "inWishList", productId: 3, amount: 1 },
    ]);
    expect(localStorage.getItem("inCart")).toBeNull();
    expect(localStorage.getItem("inWishList")).toBeNull();
  });

  it("runs one merge at a time: a second call while one runs shares it", async () => {
    addToGuestList("inCart", product(1));
    await Promise.all([mergeGuestLists(), mergeGuestLists()]);
    expect(posted).toHaveLength(1);
  });
});
