import { useEffect } from "react";
import { ROLE_CHANGED_EVENT, type NewRole } from "@/api/role-change";
import { useTranslation } from "@/i18n";
import { showToast } from "@/components/ui/toast";

/**
 * Tells the signed-in user that an admin changed their role, in a toast: sonner's
 * polite live region reads it out. The API layer has already renewed the login and re-read the user, so
 * the Panel link, the guards and the buy buttons follow by themselves. Mounted once, in the layout.
 */
export function RoleChangeNotice() {
  const { t } = useTranslation();
  useEffect(() => {
    const tell = (event: Event) => {
      const role = (event as CustomEvent<NewRole>).detail;
      showToast(t(role === "admin" ? "roleChange.admin" : "roleChange.user"));
    };
    window.addEventListener(ROLE_CHANGED_EVENT, tell);
    return () => window.removeEventListener(ROLE_CHANGED_EVENT, tell);
  }, [t]);
  return null;
}
