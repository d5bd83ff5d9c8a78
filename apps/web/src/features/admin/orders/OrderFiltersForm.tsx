import { useId, type FormEvent } from "react";
import { useTranslation } from "@/i18n";
import { PURCHASE_STATUSES, isPurchaseStatus } from "@voltio/domain/order-status";
import { Card } from "@/components/ui/Card";
import { Field } from "../Field";
import { CheckboxFilter, FilterActions, UserIdBox, filterFieldClass, useUserIdBox } from "../Filters";
import type { OrderFilters } from "./api";

/** User id (sent with the form), status and 'flagged only' (applied as they change). */
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
  const userId = useUserIdBox(filters.userId);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply({ userId: userId.typed() });
  };

  return (
    <Card as="section" aria-label={t("admin.orders.filters")} className="p-4">
      <form
        onSubmit={submit}
        className="grid items-end gap-3 sm:grid-cols-2 lg:grid-cols-[minmax(0,10rem)_minmax(0,14rem)_1fr_auto]"
      >
        <UserIdBox label={t("admin.orders.userId")} box={userId} />
        <Field small id={statusId} label={t("admin.orders.status")}>
          <select
            id={statusId}
            value={filters.status ?? ""}
            onChange={(event) => {
              const status = event.target.value;
              onApply({ userId: userId.typed(), status: isPurchaseStatus(status) ? status : undefined });
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
          onChange={(checked) => onApply({ userId: userId.typed(), flagged: checked || undefined })}
        />
        <FilterActions
          apply={t("admin.orders.apply")}
          clear={t("admin.orders.clear")}
          filtered={filtered}
          onClear={() => onApply({ userId: undefined, status: undefined, flagged: undefined })}
        />
      </form>
    </Card>
  );
}
