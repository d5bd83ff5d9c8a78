import type { CompareReply } from "./api";

export interface CompareRow {
  key: string;
  /** null: the brand's row, named in the page's language. */
  label: string | null;
  unit: string;
  differs: boolean;
  cells: { productId: number; value: number | string | null; best: boolean }[];
}

/**
 * The compare table's specification rows: the brand first, then each attribute in the reply's order, each
 * with its products' values in their columns' order, whether the row differs and which cells are best.
 */
export function compareRows(reply: CompareReply): CompareRow[] {
  const differs = new Set(reply.differs);
  const brands = reply.products.map((product) => product.brand?.name ?? null);
  const brandRow: CompareRow[] = brands.some((brand) => brand !== null)
    ? [
        {
          key: "brand",
          label: null,
          unit: "",
          differs: new Set(brands).size > 1,
          cells: reply.products.map((product, index) => ({
            productId: product.id,
            value: brands[index] ?? null,
            best: false,
          })),
        },
      ]
    : [];
  return [
    ...brandRow,
    ...reply.attributes.map((attribute) => {
      const best = new Set(reply.best[attribute.key] ?? []);
      return {
        key: attribute.key,
        label: attribute.label,
        unit: attribute.unit ?? "",
        differs: differs.has(attribute.key),
        cells: reply.products.map((product) => ({
          productId: product.id,
          value: product.specs[attribute.key] ?? null,
          best: best.has(product.id),
        })),
      };
    }),
  ];
}
