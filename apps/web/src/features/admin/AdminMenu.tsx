import { useId, useRef, useState, type KeyboardEvent } from "react";
import { NavLink, useLocation, useNavigate } from "react-router";
import {
  BarChart3,
  Banknote,
  ChevronDown,
  History,
  LogOut,
  Mail,
  Package,
  PackagePlus,
  Percent,
  Tags,
  ReceiptText,
  Users,
  type LucideIcon,
} from "lucide-react";
import { useTranslation } from "@/i18n";
import { useSession } from "@/api/session";
import { useLogout } from "@/api/session-mutations";
import { ConfirmDialog } from "@/components/ConfirmDialog";
import { Card } from "@/components/ui/Card";
import { focusRingClass } from "@/components/ui/focus-ring";

/** docs/product-rules.md §1 Admin side menu: its links, in its order, with its targets. */
const LINKS: { to: string; label: string; icon: LucideIcon; end?: boolean; alsoUnder?: string }[] = [
  { to: "/admin", label: "admin.menu.statistics", icon: BarChart3, end: true },
  // A product's edit form belongs to the products it was opened from.
  {
    to: "/admin/products?limit=8&offset=1",
    label: "admin.menu.products",
    icon: Package,
    alsoUnder: "/admin/edit/",
  },
  { to: "/admin/create/Product", label: "admin.menu.createProduct", icon: PackagePlus },
  // Issue 41: brands, the attributes products are specified by, and the catalogue as CSV.
  { to: "/admin/catalogue", label: "admin.menu.catalogue", icon: Tags },
  { to: "/admin/orders", label: "admin.menu.orders", icon: ReceiptText },
  // Beyond docs/product-rules.md: the payments, beside the orders they pay.
  { to: "/admin/payments", label: "admin.menu.payments", icon: Banknote },
  // A customer's page is opened from the users screen.
  { to: "/admin/users", label: "admin.menu.users", icon: Users, alsoUnder: "/admin/customers/" },
  { to: "/admin/discounts", label: "admin.menu.sales", icon: Percent },
  { to: "/admin/newsletter", label: "admin.menu.newsletter", icon: Mail },
  // Beyond docs/product-rules.md: after the SPEC's entries, before Logout.
  { to: "/admin/audit", label: "admin.menu.audit", icon: History },
];

/** The entry this path belongs to, as NavLink decides it (the path without the link's query). */
const currentLink = (pathname: string) =>
  LINKS.find(({ to, end, alsoUnder }) => {
    const path = to.split("?")[0]!;
    const own = end ? pathname === path : pathname === path || pathname.startsWith(`${path}/`);
    return own || (alsoUnder !== undefined && pathname.startsWith(alsoUnder));
  });

const itemClass = (active: boolean) =>
  `flex min-h-11 items-center gap-3 rounded-xl px-3 text-sm font-medium transition ${focusRingClass} ${
    active ? "bg-accent text-on-accent" : "text-ink hover:bg-accent-soft"
  }`;

export function AdminMenu() {
  const { t } = useTranslation();
  const { user } = useSession();
  const logout = useLogout();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [confirming, setConfirming] = useState(false);
  const [leaving, setLeaving] = useState(false);
  // Phones: the list folds under a button naming the current screen, so the screen itself comes first.
  const [open, setOpen] = useState(false);
  const listId = useId();
  const toggle = useRef<HTMLButtonElement>(null);
  const current = currentLink(pathname);
  const CurrentIcon = current?.icon ?? BarChart3;

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== "Escape" || !open) return;
    setOpen(false);
    toggle.current?.focus();
  };

  const leave = async () => {
    setLeaving(true);
    await logout.mutateAsync();
    setConfirming(false);
    void navigate("/");
  };

  return (
    <Card as="aside" size="lg" className="p-3 md:sticky md:top-24" aria-labelledby="admin-welcome">
      <h2 id="admin-welcome" className="px-3 pt-2 pb-3 font-bold text-ink">
        {t("adminHome.welcome", { name: user?.firstName ?? "" })}
      </h2>
      <nav aria-label={t("admin.menu.label")} onKeyDown={onKeyDown}>
        <button
          ref={toggle}
          type="button"
          aria-expanded={open}
          aria-controls={listId}
          onClick={() => setOpen((value) => !value)}
          className={`flex min-h-11 w-full items-center gap-3 rounded-xl border border-line px-3 text-left text-sm font-semibold text-ink transition hover:bg-accent-soft md:hidden ${focusRingClass}`}
        >
          <CurrentIcon size={18} aria-hidden />
          <span className="min-w-0 flex-1">
            <span className="sr-only">{t("admin.menu.toggle")} </span>
            {t(current?.label ?? "admin.menu.label")}
          </span>
          <ChevronDown size={18} aria-hidden className={`transition ${open ? "rotate-180" : ""}`} />
        </button>
        <ul
          id={listId}
          className={`mt-2 gap-1 sm:grid-cols-2 md:mt-0 md:grid md:grid-cols-1 ${open ? "grid" : "hidden"}`}
        >
          {LINKS.map(({ to, label, icon: Icon, end, alsoUnder }) => (
            <li key={to}>
              <NavLink
                to={to}
                end={end}
                onClick={() => setOpen(false)}
                className={({ isActive }) =>
                  itemClass(isActive || (alsoUnder !== undefined && pathname.startsWith(alsoUnder)))
                }
              >
                <Icon size={18} aria-hidden />
                {t(label)}
              </NavLink>
            </li>
          ))}
          <li>
            <button
              type="button"
              className={`w-full ${itemClass(false)}`}
              onClick={() => setConfirming(true)}
            >
              <LogOut size={18} aria-hidden />
              {t("profileMenu.logout")}
            </button>
          </li>
        </ul>
      </nav>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={t("admin.confirmation")}
        description={t("profileMenu.confirmLogout")}
        onAccept={() => void leave()}
        busy={leaving}
      />
    </Card>
  );
}
