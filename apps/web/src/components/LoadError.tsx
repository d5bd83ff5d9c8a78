import { useTranslation } from "@/i18n";
import { Button } from "./ui/Button";

/** A read that failed: says so and offers to try again (the page's own layout decides where it sits). */
export function LoadError({ onRetry, className = "" }: { onRetry: () => void; className?: string }) {
  const { t } = useTranslation();
  return (
    <div role="alert" className={`text-center ${className}`}>
      <p className="font-semibold text-ink">{t("common.loadError")}</p>
      <Button size="md" onClick={onRetry} className="mt-4">
        {t("common.retry")}
      </Button>
    </div>
  );
}
