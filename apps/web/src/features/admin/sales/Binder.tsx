import { useId, useMemo, useState } from "react";
import { Search, X } from "lucide-react";
import { useTranslation } from "@/i18n";
import { IconButton } from "@/components/ui/IconButton";
import type { Chosen } from "./draft";

/** A long list is cut here: typing in the search box narrows it. */
const SHOWN = 100;

const normalized = (text: string) => text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();

interface BinderProps {
  /** The fieldset's legend: 'Categories', 'Products'. */
  legend: string;
  searchLabel: string;
  options: { id: number; name: string }[] | undefined;
  chosen: Chosen[];
  onChange: (chosen: Chosen[]) => void;
  error?: string;
  /** The options failed to load. */
  failed?: boolean;
  onRetry?: () => void;
}

/**
 * A binder (docs/product-rules.md §1 Admin discounts): a search box over the options, each one a checkbox, and what is
 * chosen shown above as chips that a button removes. A checkbox list, so a keyboard and a screen reader
 * use it the way they use any form: Tab to the list, Space to choose.
 */
export function Binder({
  legend,
  searchLabel,
  options,
  chosen,
  onChange,
  error,
  failed,
  onRetry,
}: BinderProps) {
  const { t } = useTranslation();
  const id = useId();
  const [search, setSearch] = useState("");
  const names = useMemo(() => new Map((options ?? []).map((option) => [option.id, option.name])), [options]);
  const chosenIds = new Set(chosen.map((item) => item.id));
  const matches = useMemo(() => {
    const wanted = normalized(search.trim());
    return (options ?? []).filter((option) => !wanted || normalized(option.name).includes(wanted));
  }, [options, search]);
  const shown = matches.slice(0, SHOWN);
  const nameOf = (item: Chosen) => item.name ?? names.get(item.id) ?? `#${item.id}`;

  const toggle = (option: { id: number; name: string }, on: boolean) =>
    onChange(on ? [...chosen, option] : chosen.filter((item) => item.id !== option.id));

  return (
    <fieldset
      className="flex min-w-0 flex-col gap-3 rounded-2xl border border-line p-4"
      aria-describedby={error ? `${id}-error` : undefined}
    >
      <legend className="px-1 text-sm font-medium text-ink">
        {legend}
        <span className="ml-2 text-xs font-normal text-muted">
          {t("admin.sales.form.chosenCount", { count: chosen.length })}
        </span>
      </legend>
      {chosen.length > 0 && (
        <ul className="flex flex-wrap gap-2" aria-label={t("admin.sales.form.chosen", { legend })}>
          {chosen.map((item) => (
            <li
              key={item.id}
              className="flex max-w-full items-center gap-1 rounded-full bg-accent-soft py-0.5 pr-0.5 pl-3 text-sm text-accent-strong"
            >
              <span className="truncate">{nameOf(item)}</span>
              <IconButton
                label={t("admin.sales.form.remove", { name: nameOf(item) })}
                icon={<X size={14} aria-hidden />}
                size="sm"
                className="h-7! w-7!"
                onClick={() => onChange(chosen.filter((other) => other.id !== item.id))}
              />
            </li>
          ))}
        </ul>
      )}
      <div className="relative">
        <label htmlFor={`${id}-search`} className="sr-only">
          {searchLabel}
        </label>
        <Search
          size={16}
          aria-hidden
          className="pointer-events-none absolute top-1/2 left-3 -translate-y-1/2 text-muted"
        />
        <input
          id={`${id}-search`}
          type="search"
          value={search}
          onChange={(event) => setSearch(event.target.value)}
          placeholder={searchLabel}
          autoComplete="off"
          className="h-10 w-full rounded-xl border border-line bg-surface pr-3 pl-9 text-sm text-ink placeholder:text-muted focus:border-accent focus:outline-2 focus:-outline-offset-1 focus:outline-accent"
        />
      </div>
      {failed ? (
        <div role="alert" className="flex flex-wrap items-center gap-2 text-sm text-sale">
          {t("common.loadError")}
          {onRetry && (
            <button
              type="button"
              onClick={onRetry}
              className="rounded font-semibold underline focus-visible:outline-2 focus-visible:outline-accent"
            >
              {t("common.retry")}
            </button>
          )}
        </div>
      ) : !options ? (
        <p role="status" className="text-sm text-muted">
          {t("common.loading")}
        </p>
      ) : shown.length === 0 ? (
        <p className="text-sm text-muted">{t("admin.sales.form.noMatches", { search: search.trim() })}</p>
      ) : (
        <ul
          aria-label={t("admin.sales.form.options", { legend })}
          className="max-h-60 overflow-y-auto rounded-xl border border-line bg-surface p-1"
        >
          {shown.map((option) => (
            <li key={option.id}>
              <label className="flex min-h-10 cursor-pointer items-center gap-3 rounded-lg px-2 py-1.5 text-sm text-ink hover:bg-accent-soft has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-accent">
                <input
                  type="checkbox"
                  checked={chosenIds.has(option.id)}
                  onChange={(event) => toggle(option, event.target.checked)}
                  className="h-4 w-4 shrink-0 accent-accent focus-visible:outline-none"
                />
                <span className="min-w-0">{option.name}</span>
              </label>
            </li>
          ))}
        </ul>
      )}
      {matches.length > shown.length && (
        <p className="text-xs text-muted">
          {t("admin.sales.form.more", { shown: shown.length, total: matches.length })}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="text-xs font-semibold text-sale">
          {error}
        </p>
      )}
    </fieldset>
  );
}
