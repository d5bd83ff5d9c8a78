import { Pencil, Percent, Trash2 } from "lucide-react";
import { useTranslation } from "@/i18n";
import type { Sale } from "@voltio/domain/catalog";
import { DiscountBadge } from "@/components/ui/DiscountBadge";
import { IconButton } from "@/components/ui/IconButton";
import { Card } from "@/components/ui/Card";
import { focusRingClass } from "@/components/ui/focus-ring";
import { dayName } from "./draft";

/** The first names of a long list; the rest are counted. */
const NAMES_SHOWN = 6;

interface SaleListProps {
  sales: Sale[];
  /** The sale loaded in the form, if any. */
  selectedId: number | null;
  onPick: (sale: Sale) => void;
  onDelete: (sale: Sale) => void;
}

/**
 * 'Active sales' (docs/product-rules.md §1 Admin discounts, §8 Sales screen): each sale with its terms, day, categories
 * and products. Picking one loads it into the form (a toggle: picking it again clears the form); the bin
 * deletes it after a confirmation.
 */
export function SaleList({ sales, selectedId, onPick, onDelete }: SaleListProps) {
  const { t } = useTranslation();
  return (
    <ul className="grid gap-3 xl:grid-cols-2">
      {sales.map((sale) => {
        const selected = sale.id === selectedId;
        return (
          <li key={sale.id} data-sale-id={sale.id}>
            <Card
              as="article"
              aria-label={sale.description}
              className={`flex h-full gap-3 p-4 transition ${selected ? "border-accent ring-2 ring-accent/40" : ""}`}
            >
              {sale.image ? (
                <img
                  src={sale.image}
                  alt=""
                  width={64}
                  height={64}
                  loading="lazy"
                  className="hidden h-16 w-16 shrink-0 rounded-xl bg-accent-soft object-cover sm:block"
                />
              ) : (
                <span className="hidden h-16 w-16 shrink-0 place-items-center rounded-xl bg-accent-soft text-accent-strong sm:grid">
                  <Percent size={28} aria-hidden />
                </span>
              )}
              <div className="flex min-w-0 flex-1 flex-col gap-2">
                <div className="flex items-start gap-2">
                  <h3 className="min-w-0 flex-1 font-semibold break-words text-ink">
                    <button
                      type="button"
                      aria-pressed={selected}
                      aria-label={t("admin.sales.list.edit", { description: sale.description })}
                      onClick={() => onPick(sale)}
                      className={`group inline-flex max-w-full items-start gap-2 rounded text-left hover:text-accent-strong ${focusRingClass}`}
                    >
                      <span className="min-w-0 break-words">{sale.description}</span>
                      <Pencil
                        size={16}
                        aria-hidden
                        className={`mt-1 shrink-0 ${selected ? "text-accent-strong" : "text-muted group-hover:text-accent-strong"}`}
                      />
                    </button>
                  </h3>
                  <IconButton
                    label={t("admin.sales.list.delete", { description: sale.description })}
                    icon={<Trash2 size={18} aria-hidden />}
                    size="sm"
                    className="-mt-1 -mr-1 hover:text-sale!"
                    onClick={() => onDelete(sale)}
                  />
                </div>
                <p className="flex flex-wrap items-center gap-2 text-xs">
                  <DiscountBadge sale={sale} className="shadow-none" />
                  <span className="rounded-full border border-line px-2.5 py-0.5 font-medium text-muted">
                    {t(`admin.sales.days.${dayName(sale.day)}`)}
                  </span>
                  {selected && (
                    <span className="rounded-full bg-accent-soft px-2.5 py-0.5 font-semibold text-accent-strong">
                      {t("admin.sales.list.inForm")}
                    </span>
                  )}
                </p>
                <dl className="grid gap-1 text-sm">
                  {sale.categories.length === 0 && sale.products.length === 0 ? (
                    <div className="flex gap-1">
                      <dt className="sr-only">{t("admin.sales.list.appliesTo")}</dt>
                      <dd className="text-muted">{t("admin.sales.list.wholeStore")}</dd>
                    </div>
                  ) : (
                    <>
                      <Names
                        label={t("admin.sales.list.categories")}
                        names={sale.categories.map((c) => c.name)}
                      />
                      <Names
                        label={t("admin.sales.list.products")}
                        names={sale.products.map((p) => p.title)}
                      />
                    </>
                  )}
                </dl>
              </div>
            </Card>
          </li>
        );
      })}
    </ul>
  );
}

function Names({ label, names }: { label: string; names: string[] }) {
  const { t } = useTranslation();
  if (names.length === 0) return null;
  const shown = names.slice(0, NAMES_SHOWN);
  return (
    <div className="flex min-w-0 flex-wrap gap-x-1.5">
      <dt className="text-muted">{label}:</dt>
      <dd className="min-w-0 break-words text-ink">
        {shown.join(", ")}
        {names.length > shown.length && (
          <span className="text-muted">
            {" "}
            {t("admin.sales.list.andMore", { count: names.length - shown.length })}
          </span>
        )}
      </dd>
    </div>
  );
}
