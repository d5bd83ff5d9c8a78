import { useTranslation } from "@/i18n";
import { LayoutDashboard } from "lucide-react";
import { useSession } from "@/api/session";
import { Card } from "@/components/ui/Card";

/** /admin until the admin area is built: the guard in front of it is what matters here. */
export function AdminPlaceholder() {
  const { t } = useTranslation();
  const { user } = useSession();
  return (
    <Card size="lg" className="flex flex-col items-center gap-4 px-6 py-16 text-center">
      <span className="grid h-16 w-16 place-items-center rounded-2xl bg-accent-soft text-accent-strong">
        <LayoutDashboard size={32} aria-hidden />
      </span>
      <h1 className="text-2xl font-bold text-ink">
        {t("adminHome.welcome", { name: user?.firstName ?? "" })}
      </h1>
    </Card>
  );
}

export default AdminPlaceholder;
