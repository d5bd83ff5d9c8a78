import { TriangleAlert } from "lucide-react";
import { useTranslation } from "@/i18n";
import { Button } from "@/components/ui/Button";
import type { Line } from "./checkout-line";
import { shortageFix, type Shortage } from "./shortage";

/** Which product is short and how many are left, with the way to fix the purchase when there is one. */
export function ShortageAlert({
  lines,
  shortage,
  busy,
  onFix,
}: {
  lines: readonly Line[];
  shortage: Shortage;
  busy: boolean;
  onFix: () => void;
}) {
  const { t } = useTranslation();
  const { title, action, room } = shortageFix(lines, shortage);
  const name = title ?? t("checkout.someProduct");
  return (
    <div role="alert" className="flex flex-col gap-3 rounded-xl border border-sale p-3 text-sm text-ink">
      <p className="flex items-start gap-2">
        <TriangleAlert size={16} aria-hidden className="mt-0.5 shrink-0 text-sale" />
        <span>
          {shortage.stock > 0
            ? t("checkout.onlyLeft", { count: shortage.stock, title: name })
            : t("checkout.outOfStock", { title: name })}
        </span>
      </p>
      {action === "none" ? (
        <p className="text-muted">{t("checkout.inBulk")}</p>
      ) : (
        <Button variant="secondary" size="md" onClick={onFix} disabled={busy} className="self-start">
          {action === "cut"
            ? t("checkout.buyInstead", { count: room })
            : t("checkout.removeShort", { title: name })}
        </Button>
      )}
    </div>
  );
}
