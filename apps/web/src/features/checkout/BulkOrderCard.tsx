import { Plus, Undo2 } from "lucide-react";
import { useTranslation } from "@/i18n";
import { Button } from "@/components/ui/Button";
import { Card } from "@/components/ui/Card";
import type { Line, LineActions } from "./checkout-line";
import { PendingLines } from "./PendingLines";

/** A bulk order: its lines go back to the cart together or one by one; one waiting apart can be added. */
export function BulkOrderCard({
  order,
  actions,
  onAllBack,
  onAdd,
}: {
  order: { id: number; lines: Line[] };
  actions: LineActions;
  onAllBack: () => void;
  onAdd?: () => void;
}) {
  const { t } = useTranslation();
  const headingId = `bulk-${order.id}`;
  return (
    <Card as="section" size="lg" aria-labelledby={headingId} className="flex flex-col gap-4 p-5">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={headingId} className="font-semibold text-ink">
          {t("checkout.bulkOrder", { count: order.lines.length })}
        </h2>
        <div className="flex flex-wrap gap-2">
          {onAdd && (
            <Button size="sm" variant="secondary" onClick={onAdd} disabled={actions.busy}>
              <Plus size={16} aria-hidden />
              {t("money.addOrderToPurchase")}
            </Button>
          )}
          <Button size="sm" variant="ghost" onClick={onAllBack} disabled={actions.busy}>
            <Undo2 size={16} aria-hidden />
            {t("money.orderBackToCart")}
          </Button>
        </div>
      </div>
      <PendingLines lines={order.lines} {...actions} />
    </Card>
  );
}
