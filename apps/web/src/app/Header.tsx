import { lazy, Suspense } from "react";
import { Link } from "react-router";
import { LayoutDashboard, Moon, Package, Sun, UserRound, Zap } from "lucide-react";
import { useLeftoverGuestMerge } from "@/api/login-merge";
import { useSession } from "@/api/session";
import { LANGUAGE_PICKER_ID, setLanguage, useTranslation, type Language } from "@/i18n";
import { focusRingClass } from "@/components/ui/focus-ring";
import { CategoriesMenu } from "./header/CategoriesMenu";
import { ListPreview } from "./header/ListPreview";
import { ProfileFace, profileTriggerClass } from "./header/ProfileFace";
import { SearchBox } from "./header/SearchBox";
import { useTheme } from "@/components/theme";
import { IconButton } from "@/components/ui/IconButton";

/** Only signed-in shoppers download the menu (and its dialog). */
const ProfileMenu = lazy(() => import("./ProfileMenu"));

/** Sticky on every page (docs/product-rules.md §1). Below 768 px the categories and the search move to a second row. */
export function Header() {
  const { t, language } = useTranslation();
  const { dark, toggle } = useTheme();
  const { user, isAdmin } = useSession();
  useLeftoverGuestMerge(Boolean(user) && !isAdmin);

  return (
    <header className="sticky top-0 z-40 border-b border-line bg-card shadow-sm">
      <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-2 px-3 py-2 sm:gap-x-3 sm:px-4 md:gap-y-2 md:py-2.5">
        <Link
          to="/"
          className="order-1 flex items-center gap-2 rounded-xl md:order-none text-lg font-bold tracking-tight text-ink focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-accent"
        >
          <span className="grid h-9 w-9 place-items-center rounded-xl bg-accent text-on-accent shadow-sm">
            <Zap size={20} aria-hidden fill="currentColor" />
          </span>
          {/* Below 370 px the mark alone, so a signed-in shopper's icons still fit on one row. */}
          <span className="max-[369px]:sr-only">{t("store.name")}</span>
        </Link>
        {/* DOM order is tab order: Categories and Search come before the icons, which phones show first
            (CSS order) on the top row. */}
        <nav aria-label={t("nav.mainMenu")} className="order-4 mt-2 md:order-none md:mt-0">
          <CategoriesMenu />
        </nav>
        <div className="order-5 mt-2 flex min-w-0 flex-1 md:order-none md:mt-0 md:max-w-xl lg:mx-4">
          <SearchBox />
        </div>
        <div className="order-2 ml-auto flex items-center sm:gap-0.5 md:order-none">
          {/* docs/product-rules.md §1, §11.1: admins see Panel, never the wishlist, cart or purchases icons. */}
          {!isAdmin && <ListPreview list="inWishList" />}
          {!isAdmin && <ListPreview list="inCart" />}
          {/* Guests: the SPEC's 'Log in / Sign up' button. Signed-in shoppers get the profile menu. */}
          {user ? (
            <>
              {isAdmin ? (
                <Link
                  to="/admin"
                  className={`inline-flex h-10 items-center gap-2 rounded-xl px-2 text-sm font-semibold text-accent-strong transition hover:bg-accent-soft ${focusRingClass} sm:h-11 lg:px-3`}
                >
                  <LayoutDashboard size={20} aria-hidden />
                  <span className="sr-only sm:not-sr-only">{t("profileMenu.panel")}</span>
                </Link>
              ) : (
                <Link
                  to="/purchases"
                  aria-label={t("profileMenu.purchases")}
                  title={t("profileMenu.purchases")}
                  className={`grid h-10 w-9 place-items-center rounded-xl text-ink transition hover:bg-accent-soft hover:text-accent-strong ${focusRingClass} sm:h-11 sm:w-11`}
                >
                  <Package size={22} aria-hidden />
                </Link>
              )}
              <Suspense
                fallback={
                  <span aria-hidden className={profileTriggerClass}>
                    <ProfileFace user={user} />
                  </span>
                }
              >
                <ProfileMenu user={user} />
              </Suspense>
            </>
          ) : (
            <Link
              to="/login"
              className={`inline-flex h-10 min-w-10 items-center justify-center gap-2 rounded-xl px-2 text-sm font-medium sm:h-11 sm:min-w-11 text-ink transition hover:bg-accent-soft hover:text-accent-strong ${focusRingClass} lg:px-3`}
            >
              <UserRound size={22} aria-hidden />
              <span className="sr-only lg:not-sr-only">{t("nav.login")}</span>
            </Link>
          )}
          <IconButton
            variant="toolbar"
            size="toolbar"
            shape="square"
            onClick={toggle}
            label={dark ? t("nav.themeToLight") : t("nav.themeToDark")}
            icon={dark ? <Sun size={20} aria-hidden /> : <Moon size={20} aria-hidden />}
          />
          <label className="sr-only" htmlFor={LANGUAGE_PICKER_ID}>
            {t("nav.language")}
          </label>
          <select
            id={LANGUAGE_PICKER_ID}
            value={language}
            onChange={(event) => void setLanguage(event.target.value as Language)}
            className={`h-9 cursor-pointer rounded-lg border border-line bg-card px-1 text-sm font-medium text-ink ${focusRingClass} sm:ml-1`}
          >
            <option value="en">EN</option>
            <option value="es">ES</option>
          </select>
        </div>
        {/* Forces the second row on small screens; the margin above that row is its gap. */}
        <div aria-hidden className="order-3 basis-full md:hidden" />
      </div>
    </header>
  );
}
