import { useState } from "react";
import { useTranslation } from "@/i18n";
import { Heart, ShoppingCart } from "lucide-react";
import type { Product } from "@voltio/domain/catalog";
import { toggleInGuestList, useGuestList, type GuestListName } from "@/api/guest-lists";
import { ApiError } from "@/api/client";
import { LIST_STATUSES_KEY, lineOf, useAddOrder, useOrders, useRemoveOrder } from "@/api/orders";
import { useSession } from "@/api/session";
import { focusRingClass } from "./ui/focus-ring";
import { showToast } from "./ui/toast";

type Snapshot = Parameters<typeof toggleInGuestList>[1];

interface ListToggleButtonProps {
  list: GuestListName;
  product: Snapshot & Pick<Product, "title">;
  /** icon: a round button over a card; full: icon and text, for the product page. */
  variant?: "icon" | "full";
  className?: string;
}

/** The heart and cart buttons: add or remove, with the SPEC's toasts (docs/product-rules.md §8). Admins have no lists (§1). */
export function ListToggleButton({ list, product, variant = "icon", className = "" }: ListToggleButtonProps) {
  const { t } = useTranslation();
  const { user, isAdmin } = useSession();
  // Signed-in shoppers' lists live on the server; guests keep theirs in the browser.
  const onServer = Boolean(user) && !isAdmin;
  const guestLines = useGuestList(list);
  const { data: ordered } = useOrders(LIST_STATUSES_KEY, { enabled: onServer });
  const serverProduct = ordered?.find((entry) => entry.id === product.id);
  const serverLine = serverProduct && lineOf(serverProduct, list);
  const add = useAddOrder();
  const remove = useRemoveOrder();
  /** While the server works on a click the button already shows its outcome; a refusal rolls it back. */
  const [optimistic, setOptimistic] = useState<boolean | null>(null);
  const inList =
    optimistic ?? (onServer ? Boolean(serverLine) : guestLines.some((line) => line.productId === product.id));
  const cart = list === "inCart";
  const Icon = cart ? ShoppingCart : Heart;

  const toastDone = (added: boolean) => {
    if (cart) showToast(added ? t("toasts.addedToCart") : t("toasts.removedFromCart"));
    else showToast(added ? t("toasts.addedToWishlist") : t("toasts.removedFromWishlist"));
  };

  const toggleOnServer = async () => {
    if (optimistic !== null) return;
    const adding = !serverLine;
    setOptimistic(adding);
    try {
      if (serverLine) await remove.mutateAsync(serverLine.id);
      else await add.mutateAsync({ status: list, productId: product.id });
      toastDone(adding);
    } catch (error) {
      showToast(error instanceof ApiError ? error.message : t("toasts.listFailed"), "error");
    } finally {
      setOptimistic(null);
    }
  };

  const toggle = () => {
    if (onServer) void toggleOnServer();
    else toastDone(toggleInGuestList(list, product));
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
        className={`inline-flex items-center justify-center gap-2 rounded-xl border px-4 py-3 text-sm font-semibold transition ${focusRingClass} ${
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
      className={`grid h-9 w-9 place-items-center rounded-full border shadow-sm transition sm:h-10 sm:w-10 ${focusRingClass} ${
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
