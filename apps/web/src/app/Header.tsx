import { useState, type FormEvent } from "react";
import { Link, useNavigate } from "react-router";
import { useTranslation } from "react-i18next";
import { Moon, Search, Sun, Zap } from "lucide-react";
import { setLanguage, type Language } from "@/i18n";
import { useTheme } from "./theme";

export function Header() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const { dark, toggle } = useTheme();
  const [text, setText] = useState("");

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const search = text.trim();
    if (!search) return;
    void navigate(`/products?search=${encodeURIComponent(search)}&offset=1`);
  };

  return (
    <header className="sticky top-0 z-40 border-b border-line bg-card/90 backdrop-blur">
      <div className="mx-auto flex max-w-7xl items-center gap-3 px-4 py-3">
        <Link to="/" className="flex items-center gap-2 text-lg font-bold text-ink">
          <span className="grid h-8 w-8 place-items-center rounded-lg bg-accent text-white">
            <Zap size={18} aria-hidden />
          </span>
          <span>{t("store.name")}</span>
        </Link>
        <nav aria-label={t("nav.mainMenu")} className="hidden sm:block">
          <Link to="/products?offset=1" className="rounded-lg px-3 py-2 text-sm text-muted hover:text-ink">
            {t("nav.products")}
          </Link>
        </nav>
        <form
          role="search"
          onSubmit={submit}
          className="ml-auto flex min-w-0 flex-1 items-center sm:max-w-md"
        >
          <label htmlFor="header-search" className="sr-only">
            {t("nav.search")}
          </label>
          <input
            id="header-search"
            type="search"
            value={text}
            onChange={(event) => setText(event.target.value)}
            placeholder={t("nav.searchPlaceholder")}
            className="min-w-0 flex-1 rounded-l-xl border border-line bg-surface px-3 py-2 text-sm text-ink placeholder:text-muted focus:outline-2 focus:outline-accent"
          />
          <button
            type="submit"
            className="rounded-r-xl bg-accent px-3 py-2 text-white hover:bg-accent-strong"
            aria-label={t("nav.search")}
          >
            <Search size={18} aria-hidden />
          </button>
        </form>
        <button
          type="button"
          onClick={toggle}
          aria-label={dark ? t("nav.themeToLight") : t("nav.themeToDark")}
          aria-pressed={dark}
          className="rounded-lg p-2 text-muted hover:bg-accent-soft hover:text-ink"
        >
          {dark ? <Sun size={20} aria-hidden /> : <Moon size={20} aria-hidden />}
        </button>
        <label className="sr-only" htmlFor="language">
          {t("nav.language")}
        </label>
        <select
          id="language"
          value={i18n.language}
          onChange={(event) => setLanguage(event.target.value as Language)}
          className="rounded-lg border border-line bg-card px-2 py-1.5 text-sm text-ink"
        >
          <option value="en">EN</option>
          <option value="es">ES</option>
        </select>
      </div>
    </header>
  );
}
