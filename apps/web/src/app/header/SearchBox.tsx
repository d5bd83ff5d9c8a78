import { useId, useState, type FormEvent, type KeyboardEvent } from "react";
import { useLocation, useNavigate } from "react-router";
import { useTranslation } from "@/i18n";
import { Search } from "lucide-react";
import { priceToday } from "@voltio/domain/pricing";
import { useCategorySuggestions, useProductSuggestions } from "@/api/catalog";
import { useStoreInfo } from "@/api/store";
import { useDebouncedValue } from "@/components/use-debounced-value";
import { usd } from "@/components/ui/usd";
import { SEARCH_DEBOUNCE_MS } from "@/components/timings";
import { categoryListingPath } from "@/components/paths";
import { focusRingClass } from "@/components/ui/focus-ring";
import { Thumbnail } from "@/components/ui/Thumbnail";

/** docs/product-rules.md §9, §12: the dropdown has content only once the text is longer than 2 characters. */
export function suggestsFor(text: string): boolean {
  return text.trim().length > 2;
}

/** The dropdown is a preview; Enter opens the full result list. */
const SUGGESTED_PRODUCTS = 6;
const SUGGESTED_CATEGORIES = 4;

type Option =
  | { kind: "category"; id: number; name: string }
  | { kind: "product"; id: number; title: string; image: string | undefined; price: string };

/**
 * The header search as an ARIA 1.2 combobox: the input owns a listbox of 'Category: …' entries and
 * products; arrow keys move through them, Enter picks one (or searches the text), Escape closes.
 */
export function SearchBox() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const listboxId = useId();
  // On the results page the box shows what was searched, server-rendered too; it follows the URL.
  const location = useLocation();
  const searched =
    location.pathname === "/products" ? (new URLSearchParams(location.search).get("search") ?? "") : "";
  const [text, setText] = useState(searched);
  const [shownFor, setShownFor] = useState(searched);
  if (shownFor !== searched) {
    setShownFor(searched);
    setText(searched);
  }
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const query = useDebouncedValue(text.trim(), SEARCH_DEBOUNCE_MS);
  const enabled = suggestsFor(query);
  const { data: store } = useStoreInfo();

  const categories = useCategorySuggestions(query, { withProducts: true, enabled, staleTime: 60_000 });
  const products = useProductSuggestions(
    { search: query, limit: SUGGESTED_PRODUCTS, offset: 1 },
    { enabled, staleTime: 60_000 },
  );

  const options: Option[] = enabled
    ? [
        ...(categories.data ?? [])
          .slice(0, SUGGESTED_CATEGORIES)
          .map((category): Option => ({ kind: "category", id: category.id, name: category.name })),
        ...(products.data?.products ?? []).map((product): Option => ({
          kind: "product",
          id: product.id,
          title: product.title,
          image: product.images[0]?.url,
          price: usd(priceToday(product, products.data?.globalSales ?? [], store?.today).unitCents),
        })),
      ]
    : [];
  const waiting =
    suggestsFor(text) && (query !== text.trim() || categories.isFetching || products.isFetching);
  const expanded = open && suggestsFor(text);
  const activeOption = expanded && active >= 0 && active < options.length ? active : -1;
  const optionId = (index: number) => `${listboxId}-option-${index}`;

  const close = () => {
    setOpen(false);
    setActive(-1);
  };

  const choose = (option: Option) => {
    close();
    setText("");
    if (option.kind === "category") void navigate(categoryListingPath(option.id));
    else void navigate(`/product/${option.id}`);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (activeOption >= 0) {
      choose(options[activeOption]!);
      return;
    }
    const search = text.trim();
    // docs/product-rules.md §9: an empty submit is ignored.
    if (!search) return;
    close();
    void navigate(`/products?search=${encodeURIComponent(search)}&offset=1`);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      if (!suggestsFor(text)) return;
      event.preventDefault();
      setOpen(true);
      if (options.length === 0) return;
      const step = event.key === "ArrowDown" ? 1 : -1;
      setActive((current) =>
        current < 0
          ? step === 1
            ? 0
            : options.length - 1
          : (current + step + options.length) % options.length,
      );
    } else if (event.key === "Escape") {
      if (expanded) {
        event.preventDefault();
        close();
      } else if (text) {
        event.preventDefault();
        setText("");
      }
    }
  };

  return (
    // Below md the box shares its row with Categories: the dropdown spans the whole header instead (its
    // positioned ancestor), so a phone reads the titles rather than their first letters.
    <form role="search" onSubmit={submit} className="flex min-w-0 flex-1 items-center md:relative">
      <label htmlFor={`${listboxId}-input`} className="sr-only">
        {t("nav.search")}
      </label>
      <input
        id={`${listboxId}-input`}
        type="text"
        role="combobox"
        autoComplete="off"
        spellCheck={false}
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={listboxId}
        aria-activedescendant={activeOption >= 0 ? optionId(activeOption) : undefined}
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          setOpen(true);
          setActive(-1);
        }}
        onFocus={() => setOpen(true)}
        onBlur={close}
        onKeyDown={onKeyDown}
        placeholder={t("nav.searchPlaceholder")}
        enterKeyHint="search"
        className="h-11 min-w-0 flex-1 rounded-l-xl border border-r-0 border-line bg-surface px-4 text-sm text-ink placeholder:text-muted focus:border-accent focus:outline-2 focus:-outline-offset-1 focus:outline-accent"
      />
      <button
        type="submit"
        className={`grid h-11 w-12 shrink-0 place-items-center rounded-r-xl bg-accent text-on-accent transition hover:bg-accent-strong ${focusRingClass}`}
        aria-label={t("nav.searchSubmit")}
      >
        <Search size={18} aria-hidden />
      </button>
      <div
        hidden={!expanded}
        className="absolute inset-x-3 top-full z-50 mt-2 overflow-hidden rounded-2xl border border-line bg-card shadow-xl md:inset-x-0"
      >
        <ul
          id={listboxId}
          role="listbox"
          aria-label={t("nav.suggestions")}
          className="max-h-[70vh] overflow-y-auto py-2"
        >
          {options.map((option, index) => (
            <li
              key={`${option.kind}-${option.id}`}
              id={optionId(index)}
              role="option"
              aria-selected={index === activeOption}
              // Keeps the focus in the input, so the click picks the option instead of closing the list.
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => choose(option)}
              onMouseMove={() => setActive(index)}
              className={`flex cursor-pointer items-center gap-3 px-4 py-2 text-sm ${
                index === activeOption ? "bg-accent-soft text-ink" : "text-ink"
              }`}
            >
              {option.kind === "category" ? (
                <span>
                  <span className="font-medium text-accent-strong">{t("nav.categoryPrefix")}</span>{" "}
                  {option.name}
                </span>
              ) : (
                <>
                  <Thumbnail src={option.image} width={48} height={36} className="h-10 w-12" />
                  <span className="line-clamp-2 flex-1">{option.title}</span>
                  <span className="shrink-0 font-semibold tabular-nums">{option.price}</span>
                </>
              )}
            </li>
          ))}
        </ul>
        {options.length === 0 && (
          <p role="status" className="px-4 pb-3 text-sm text-muted">
            {waiting ? t("nav.searching") : t("catalog.noResults")}
          </p>
        )}
      </div>
    </form>
  );
}
