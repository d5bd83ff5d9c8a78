import { useTranslation, type Translate } from "@/i18n";

/**
 * docs/product-rules.md §12: a stock of 1 or less reads 'No stock available'; above 1, 'Stock: n'. A variant's
 * (issue 41) reads 'Only n left' at `fewAt` units or fewer, and 'Sold out' at none: one of several choices.
 */
export function StockText({ stock, fewAt }: { stock: number; fewAt?: number }) {
  const { t } = useTranslation();
  return <p className={`text-sm font-medium ${stockTone(stock, fewAt)}`}>{stockText(t, stock, fewAt)}</p>;
}

const stockTone = (stock: number, fewAt?: number) =>
  stock <= 1 || (fewAt !== undefined && stock <= fewAt) ? "text-sale" : "text-success";

export function stockText(t: Translate, stock: number, fewAt?: number): string {
  if (fewAt !== undefined && stock <= 0) return t("variants.soldOut");
  if (fewAt !== undefined && stock <= fewAt) return t("variants.onlyLeft", { count: stock });
  return stock <= 1 ? t("catalog.noStock") : t("catalog.stock", { count: stock });
}
