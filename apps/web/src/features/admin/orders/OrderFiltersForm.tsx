import { useId, useState, type FormEvent } from "react";
import { ADMIN_ORDER_SEARCH_MAX } from "@voltio/domain/admin-orders";
import { useTranslation } from "@/i18n";
import { PURCHASE_STATUSES, isPurchaseStatus } from "@voltio/domain/order-status";
import { Card } from "@/components/ui/Card";
import { Field } from "../Field";
import { CheckboxFilter, FilterActions, UserIdBox, filterFieldClass, useUserIdBox } from "../Filters";
import type { OrderFilters } from "./api";

/**
 * Search by number, buyer name or e-mail and user id (sent with the form), status and 'flagged only'
 * (applied as they change).
 */
export function OrderFiltersForm({
  filters,
  onApply,
  filtered,
}: {
  filters: OrderFilters;
  onApply: (next: Partial<OrderFilters>) => void;
  filtered: boolean;
}) {
  const { t } = useTranslation();
  const statusId = useId();
  const searchId = useId();
  const userId = useUserIdBox(filters.userId);
  const [search, setSearch] = useState(filters.search ?? "");
  // The box follows the URL when it changes under the form (the back button, 'Clear filters').
  const [shown, setShown] = useState(filters.search);
  if (shown !== filters.search) {
    setShown(filters.search);
    setSearch(filters.search ?? "");
  }
  const typed = () => ({ userId: userId.typed(), search: search.trim() || undefined });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply(typed());
  };

  return (
    <Card as="section" aria-label={t("admin.orders.filters")} className="p-4">
      <form
        onSubmit={submit}
        className="grid items-end gap-3 sm:grid-cols-2 lg:grid-cols-[minmax(0,10rem)_minmax(0,14rem)_1fr_auto]"
      >
        <Field small id={searchId} label={t("orderAdmin.search")} className="sm:col-span-2 lg:col-span-4">
          <input
            id={searchId}
            type="search"
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            maxLength={ADMIN_ORDER_SEARCH_MAX}
            placeholder={t("orderAdmin.searchPlaceholder")}
            autoComplete="off"
            className={`${filterFieldClass} max-w-xl`}
          />
        </Field>
        <UserIdBox label={t("admin.orders.userId")} box={userId} />
        <Field small id={statusId} label={t("admin.orders.status")}>
          <select
            id={statusId}
            value={filters.status ?? ""}
            onChange={(event) => {
              const status = event.target.value;
              onApply({ ...typed(), status: isPurchaseStatus(status) ? status : undefined });
            }}
            className={filterFieldClass}
          >
            <option value="">{t("admin.orders.allStatuses")}</option>
            {PURCHASE_STATUSES.map((status) => (
              <option key={status} value={status}>
                {t(`admin.orders.statuses.${status}`)}
              </option>
            ))}
          </select>
        </Field>
        <CheckboxFilter
          label={t("admin.orders.flaggedOnly")}
          hint={t("admin.orders.flaggedHint")}
          checked={Boolean(filters.flagged)}
          onChange={(checked) => onApply({ ...typed(), flagged: checked || undefined })}
        />
        <FilterActions
          apply={t("admin.orders.apply")}
          clear={t("admin.orders.clear")}
          filtered={filtered}
          onClear={() =>
            onApply({ userId: undefined, status: undefined, flagged: undefined, search: undefined })
          }
        />
      </form>
    </Card>
  );
}
