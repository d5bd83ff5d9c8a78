import { useTranslation } from "@/i18n";
import { Heart, ShoppingCart } from "lucide-react";
import type { Product } from "@voltio/domain/catalog";
import { toggleInGuestList, useGuestList, type GuestListName } from "@/api/guest-lists";
import { useSession } from "@/api/session";
import { showToast } from "./ui/toast";

type Snapshot = Parameters<typeof toggleInGuestList>[1];

interface ListToggleButtonProps {
  list: GuestListName;
  product: Snapshot & Pick<Product, "title">;
  /** icon: a round button over a card; full: icon and text, for the product page. */
  variant?: "icon" | "full";
  className?: string;
}

/** The heart and cart buttons: add or remove, with the SPEC's toasts (SPEC.md §4). Admins have no lists (§1). */
export function ListToggleButton({ list, product, variant = "icon", className = "" }: ListToggleButtonProps) {
  const { t } = useTranslation();
  const lines = useGuestList(list);
  const inList = lines.some((line) => line.productId === product.id);
  const cart = list === "inCart";
  const Icon = cart ? ShoppingCart : Heart;
  const { isAdmin } = useSession();

  const toggle = () => {
    const added = toggleInGuestList(list, product);
    if (cart) showToast(added ? t("toasts.addedToCart") : t("toasts.removedFromCart"));
    else showToast(added ? t("toasts.addedToWishlist") : t("toasts.removedFromWishlist"));
  };

  if (isAdmin) return null;

  if (variant === "full") {
    const text = cart
      ? inList
        ? t("buttons.addedToCart")
        : t("buttons.addToCart")
      : inList
        ? t("buttons.inWishlist")
        : t("buttons.addToWishlist");
    return (
      <button
        type="button"
        onClick={toggle}
        aria-pressed={inList}
        className={`inline-flex items-center justify-center gap-2 rounded-xl border px-4 py-3 text-sm font-semibold transition focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent ${
          inList
            ? "border-accent bg-accent-soft text-accent-strong"
            : "border-line bg-card text-ink hover:border-accent hover:text-accent-strong"
        } ${className}`}
      >
        <Icon size={18} aria-hidden fill={inList && !cart ? "currentColor" : "none"} />
        {text}
      </button>
    );
  }

  const label = cart
    ? t(inList ? "buttons.removeFromCartNamed" : "buttons.addToCartNamed", { title: product.title })
    : t(inList ? "buttons.removeFromWishlistNamed" : "buttons.addToWishlistNamed", { title: product.title });
  return (
    <button
      type="button"
      onClick={toggle}
      aria-label={label}
      title={label}
      className={`grid h-9 w-9 place-items-center rounded-full border shadow-sm transition sm:h-10 sm:w-10 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent ${
        inList
          ? cart
            ? "border-accent bg-accent text-on-accent"
            : "border-sale/30 bg-card text-sale"
          : "border-line bg-card/95 text-muted hover:border-accent hover:text-accent-strong"
      } ${className}`}
    >
      <Icon size={18} aria-hidden fill={inList && !cart ? "currentColor" : "none"} />
    </button>
  );
}
