import { useRef, useState, type KeyboardEvent } from "react";
import { Link } from "react-router";
import { useTranslation } from "@/i18n";
import { ArrowRight, Package } from "lucide-react";
import { Card } from "@/components/ui/Card";
import { focusRingClass } from "@/components/ui/focus-ring";
import { OrderedProductTile } from "./OrderedProductTile";
import { useOrderList, type OverviewList } from "./orders";

/** The tabs and the paths they link to: docs/product-rules.md §1 uses the tab's label as the path. */
const TABS: { list: OverviewList; label: "wishlist" | "cart" | "purchases"; path: string }[] = [
  { list: "inWishList", label: "wishlist", path: "/Wishlist" },
  { list: "inCart", label: "cart", path: "/Cart" },
  { list: "purchases", label: "purchases", path: "/Purchases" },
];
const SHOWN = 4;

/** 'Overview' (docs/product-rules.md §1): Wishlist, Cart and Purchases, each with its first 4 items and 'Go to {tab}'. */
export function Overview() {
  const { t } = useTranslation();
  const [active, setActive] = useState(0);
  const tabs = useRef<(HTMLButtonElement | null)[]>([]);

  // Arrow keys move between tabs (WAI-ARIA tabs pattern).
  const onKey = (event: KeyboardEvent) => {
    const step = event.key === "ArrowRight" ? 1 : event.key === "ArrowLeft" ? -1 : 0;
    if (!step) return;
    event.preventDefault();
    const next = (active + step + TABS.length) % TABS.length;
    setActive(next);
    tabs.current[next]?.focus();
  };

  return (
    <Card as="section" size="lg" raised aria-labelledby="overview" className="p-6">
      <div className="mb-5 flex flex-wrap items-center justify-between gap-3">
        <h2 id="overview" className="text-lg font-semibold text-ink">
          {t("overview.title")}
        </h2>
        <div
          role="tablist"
          aria-labelledby="overview"
          onKeyDown={onKey}
          className="flex rounded-xl bg-surface p-1"
        >
          {TABS.map((tab, index) => (
            <button
              key={tab.list}
              ref={(element) => {
                tabs.current[index] = element;
              }}
              type="button"
              role="tab"
              id={`overview-tab-${tab.label}`}
              aria-selected={active === index}
              aria-controls={`overview-panel-${tab.label}`}
              tabIndex={active === index ? 0 : -1}
              onClick={() => setActive(index)}
              className="rounded-lg px-3 py-1.5 text-sm font-medium text-muted transition aria-selected:bg-card aria-selected:text-ink aria-selected:shadow-sm focus-visible:outline-2 focus-visible:outline-accent"
            >
              {t(`overview.${tab.label}`)}
            </button>
          ))}
        </div>
      </div>
      {TABS.map((tab, index) => (active === index ? <TabPanel key={tab.list} {...tab} /> : null))}
    </Card>
  );
}

function TabPanel({ list, label, path }: (typeof TABS)[number]) {
  const { t } = useTranslation();
  const { data, isPending, isError } = useOrderList(list);
  const name = t(`overview.${label}`);
  const items = (data ?? []).slice(0, SHOWN);
  return (
    <div
      role="tabpanel"
      id={`overview-panel-${label}`}
      aria-labelledby={`overview-tab-${label}`}
      tabIndex={0}
    >
      {isPending ? (
        <ul aria-busy className="grid grid-cols-2 gap-3 md:grid-cols-4">
          {Array.from({ length: SHOWN }, (_, index) => (
            <li key={index} className="h-40 animate-pulse rounded-2xl bg-surface" />
          ))}
        </ul>
      ) : items.length === 0 || isError ? (
        <p className="flex flex-col items-center gap-3 rounded-2xl bg-surface py-10 text-center font-medium text-muted">
          <Package size={36} aria-hidden className="text-line" />
          {t("overview.empty", { tab: name })}
        </p>
      ) : (
        <ul className="grid grid-cols-2 gap-3 md:grid-cols-4">
          {items.map((product) => (
            <li key={`${product.id}-${product.orders?.[0]?.id ?? ""}`}>
              <OrderedProductTile product={product} price={product.price} layout="stacked" />
            </li>
          ))}
        </ul>
      )}
      <Link
        to={path}
        className={`mt-4 inline-flex items-center gap-1 rounded-lg text-sm font-semibold text-accent-strong hover:underline ${focusRingClass}`}
      >
        {t("overview.goTo", { tab: name })}
        <ArrowRight size={16} aria-hidden />
      </Link>
    </div>
  );
}
