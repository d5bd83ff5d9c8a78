import { describe, expect, it } from "vitest";
import type { CompareReply } from "./api";
import { compareRows } from "./compare-rows";

const product = (id: number, brand: string | null, specs: CompareReply["products"][number]["specs"]) => ({
  id,
  title: `P${id}`,
  price: 10,
  images: [],
  brand: brand === null ? null : { id: id, name: brand, slug: brand.toLowerCase() },
  rating: { average: 0, count: 0 },
  specs,
});

describe("the compare table's rows", () => {
  const reply: CompareReply = {
    category: { id: 1, name: "Laptops" },
    attributes: [
      { key: "ram_gb", label: "RAM", unit: "GB", type: "number", betterWhen: "higher" },
      { key: "cpu", label: "Processor", unit: null, type: "text", betterWhen: null },
    ],
    products: [product(1, "Acme", { ram_gb: 16, cpu: "i7" }), product(2, "Acme", { ram_gb: 32 })],
    best: { ram_gb: [2] },
    differs: ["ram_gb", "cpu"],
  };

  it("put the brand first, then each attribute in order, values in the columns' order", () => {
    const rows = compareRows(reply);
    expect(rows.map((row) => row.key)).toEqual(["brand", "ram_gb", "cpu"]);
    expect(rows[1]!.cells.map((cell) => cell.value)).toEqual([16, 32]);
    expect(rows[2]!.cells.map((cell) => cell.value)).toEqual(["i7", null]);
  });

  it("mark the rows that differ and the best cells the reply names", () => {
    const rows = compareRows(reply);
    expect(rows.map((row) => row.differs)).toEqual([false, true, true]);
    expect(rows[1]!.cells.map((cell) => cell.best)).toEqual([false, true]);
    expect(rows[2]!.cells.every((cell) => !cell.best)).toBe(true);
    expect(rows[1]!.unit).toBe("GB");
    expect(rows[2]!.unit).toBe("");
  });

  it("leave the brand row out when no product has a brand", () => {
    const rows = compareRows({ ...reply, products: reply.products.map((p) => ({ ...p, brand: null })) });
    expect(rows[0]!.key).toBe("ram_gb");
  });
});
