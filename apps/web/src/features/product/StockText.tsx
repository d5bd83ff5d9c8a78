import { useTranslation } from "@/i18n";

/** docs/product-rules.md §12: a stock of 1 or less reads 'No stock available'; above 1, 'Stock: n'. */
export function StockText({ stock }: { stock: number }) {
  const { t } = useTranslation();
  const low = stock <= 1;
  return (
    <p className={`text-sm font-medium ${low ? "text-sale" : "text-success"}`}>
      {low ? t("catalog.noStock") : t("catalog.stock", { count: stock })}
    </p>
  );
}
