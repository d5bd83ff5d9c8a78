import { Suspense, useId, useState } from "react";
import { Link } from "react-router";
import { lazyWithTexts, useTranslation } from "@/i18n";
import type { GuestListName } from "@/api/guest-lists";
import { useListLines } from "@/api/list-lines";
import { focusRingClass } from "@/components/ui/focus-ring";
import { LIST_LINKS } from "./list-links";

// The preview's code and texts come the first time one opens: a page shows without them.
const ListPreviewCard = lazyWithTexts(() => import("./ListPreviewCard"), "shopping");

/**
 * The wishlist or cart icon: a link to the list, with a preview of its first 2 lines while hovered or
 * focused (Escape hides it). On touch screens the link simply opens the list.
 */
export function ListPreview({ list }: { list: GuestListName }) {
  const { t } = useTranslation();
  const previewId = useId();
  const [open, setOpen] = useState(false);
  // Prices only once the preview opens: a closed icon needs the count alone.
  const { lines } = useListLines(list, { priced: open });
  const config = LIST_LINKS[list];
  const items = lines.reduce((sum, line) => sum + (list === "inCart" ? line.amount : 1), 0);

  return (
    <div
      className="relative"
      onMouseEnter={() => setOpen(true)}
      onMouseLeave={() => setOpen(false)}
      onFocus={() => setOpen(true)}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setOpen(false);
      }}
      onKeyDown={(event) => {
        if (event.key === "Escape") setOpen(false);
      }}
    >
      <Link
        to={config.path}
        aria-label={t(config.count, { count: items })}
        aria-describedby={open ? previewId : undefined}
        className={`relative grid h-10 w-9 place-items-center rounded-xl sm:h-11 sm:w-11 text-ink transition hover:bg-accent-soft hover:text-accent-strong ${focusRingClass}`}
      >
        <config.Icon size={22} aria-hidden />
        {items > 0 && (
          <span
            aria-hidden
            className="absolute top-1 right-0.5 grid h-5 min-w-5 place-items-center rounded-full bg-accent px-1 text-[11px] leading-none font-bold text-on-accent"
          >
            {items > 99 ? "99+" : items}
          </span>
        )}
      </Link>
      {open && (
        <Suspense fallback={null}>
          <ListPreviewCard list={list} id={previewId} lines={lines} />
        </Suspense>
      )}
    </div>
  );
}
