import type { ReactNode } from "react";
import { Modal } from "@/components/ui/Modal";
import { Button } from "@/components/ui/Button";
import { useTranslation } from "@/i18n";

/**
 * The phone's filter sheet (issue 41 point 5): the same filters as the side panel, in a dialog whose
 * focus stays inside and returns to the Filters button. Each change applies at once (the URL changes and the
 * grid behind follows); 'Show n products' closes it. Loaded the first time it opens (lazyDialog).
 */
export default function FilterSheet({
  open,
  onOpenChange,
  total,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  total: number | undefined;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title={t("listing.filters")}
      closeLabel={t("facets.close")}
      layout="panel"
      size="lg"
      className="flex flex-col gap-7 p-5"
    >
      {children}
      <div className="sticky bottom-0 -mx-5 -mb-5 border-t border-line bg-card p-3">
        <Button size="xl" className="w-full" onClick={() => onOpenChange(false)}>
          {total === undefined ? t("facets.close") : t("facets.showResults", { count: total })}
        </Button>
      </div>
    </Modal>
  );
}
