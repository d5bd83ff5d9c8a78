import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import { Link } from "react-router";
import { useTranslation } from "@/i18n";
import { ChevronDown, LayoutGrid } from "lucide-react";
import { useCategories } from "@/api/catalog";
import { categoryListingPath } from "@/components/paths";
import { Card } from "@/components/ui/Card";
import { focusRingClass } from "@/components/ui/focus-ring";

/**
 * The Categories dropdown as a disclosure of links: a button that shows and hides a list of links to
 * /products?categoryId=…&offset=1. Arrow keys move between the links, Escape closes and returns focus.
 */
export function CategoriesMenu() {
  const { t } = useTranslation();
  const panelId = useId();
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  // A category with nothing for sale leads to an empty page: the menu leaves it out.
  const { data: categories } = useCategories(undefined, { withProducts: true });

  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener("pointerdown", onPointerDown);
    return () => document.removeEventListener("pointerdown", onPointerDown);
  }, [open]);

  const links = () => [...(root.current?.querySelectorAll<HTMLAnchorElement>("[data-menu-link]") ?? [])];

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === "Escape" && open) {
      event.preventDefault();
      setOpen(false);
      button.current?.focus();
      return;
    }
    if (event.key !== "ArrowDown" && event.key !== "ArrowUp") return;
    event.preventDefault();
    if (!open) {
      setOpen(true);
      // The links render on the next frame.
      requestAnimationFrame(() => links()[0]?.focus());
      return;
    }
    const items = links();
    const index = items.indexOf(document.activeElement as HTMLAnchorElement);
    const step = event.key === "ArrowDown" ? 1 : -1;
    items[(index + step + items.length) % items.length]?.focus();
  };

  return (
    <div
      ref={root}
      className="relative"
      onKeyDown={onKeyDown}
      onBlur={(event) => {
        if (!root.current?.contains(event.relatedTarget as Node | null)) setOpen(false);
      }}
    >
      <button
        ref={button}
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((value) => !value)}
        className={`inline-flex h-11 items-center gap-1.5 rounded-xl border border-line bg-card px-2.5 text-sm sm:gap-2 sm:px-3 font-medium text-ink transition hover:border-accent hover:text-accent-strong ${focusRingClass}`}
      >
        <LayoutGrid size={18} aria-hidden />
        <span>{t("nav.categories")}</span>
        <ChevronDown size={16} aria-hidden className={`transition ${open ? "rotate-180" : ""}`} />
      </button>
      <Card
        id={panelId}
        hidden={!open}
        className="absolute top-full left-0 z-50 mt-2 w-[min(36rem,calc(100vw-2rem))] p-3 shadow-xl"
      >
        <ul className="grid grid-cols-1 gap-1 min-[400px]:grid-cols-2 sm:grid-cols-3">
          {(open ? (categories ?? []) : []).map((category) => (
            <li key={category.id}>
              <Link
                data-menu-link
                to={categoryListingPath(category.id)}
                onClick={() => setOpen(false)}
                className="flex items-center gap-3 rounded-xl px-2 py-2 text-sm text-ink hover:bg-accent-soft focus-visible:bg-accent-soft focus-visible:outline-2 focus-visible:outline-accent"
              >
                <img
                  src={category.image}
                  alt=""
                  width={40}
                  height={30}
                  className="h-8 w-10 shrink-0 rounded-md bg-accent-soft object-contain"
                />
                {category.name}
              </Link>
            </li>
          ))}
        </ul>
        <Link
          data-menu-link
          to="/products?offset=1"
          onClick={() => setOpen(false)}
          className="mt-2 block rounded-xl border-t border-line px-2 pt-3 pb-1 text-sm font-semibold text-accent-strong hover:underline focus-visible:outline-2 focus-visible:outline-accent"
        >
          {t("catalog.allProducts")}
        </Link>
      </Card>
    </div>
  );
}
