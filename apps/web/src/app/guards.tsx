import { Navigate, Outlet } from "react-router";
import { useTranslation } from "@/i18n";
import { useSession } from "@/api/session";

function Checking() {
  const { t } = useTranslation();
  return (
    <p role="status" className="py-24 text-center text-muted">
      {t("common.loading")}
    </p>
  );
}

/** docs/product-rules.md §1: the login guard sends a visitor without a user to /. */
export function RequireUser() {
  const { user, pending } = useSession();
  if (pending) return <Checking />;
  if (!user) return <Navigate to="/" replace />;
  return <Outlet />;
}

/**
 * docs/product-rules.md §1: the admin guard sends a shopper to /; a guest goes to /login. The server checks
 * again on every call.
 */
export function RequireAdmin() {
  const { user, pending } = useSession();
  if (pending) return <Checking />;
  if (!user) return <Navigate to="/login" replace />;
  if (user.rol !== "admin") return <Navigate to="/" replace />;
  return <Outlet />;
}
