import type { Product } from "@voltio/domain/catalog";
import { formatSpec } from "@voltio/domain/specs";
import { useTranslation } from "@/i18n";

/** The product's specifications with their units (issue 41), its brand first. */
export function SpecTable({ product }: { product: Pick<Product, "brand" | "specs"> }) {
  const { t } = useTranslation();
  if (!product.brand && product.specs.length === 0) return null;
  return (
    <section aria-labelledby="specs-heading" className="max-w-3xl">
      <h2 id="specs-heading" className="text-xl font-bold tracking-tight text-ink">
        {t("specs.heading")}
      </h2>
      <table className="mt-4 w-full overflow-hidden rounded-2xl border border-line text-sm">
        <tbody>
          {product.brand && (
            <tr className="border-b border-line odd:bg-surface even:bg-card">
              <th scope="row" className="w-2/5 px-4 py-2.5 text-left font-medium text-muted">
                {t("specs.brand")}
              </th>
              <td className="px-4 py-2.5 text-ink">{product.brand.name}</td>
            </tr>
          )}
          {product.specs.map((spec) => (
            <tr key={spec.key} className="border-b border-line last:border-b-0 odd:bg-surface even:bg-card">
              <th scope="row" className="w-2/5 px-4 py-2.5 text-left font-medium text-muted">
                {spec.label}
              </th>
              <td className="px-4 py-2.5 text-ink tabular-nums">{formatSpec(spec.value, spec.unit)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
