import { useState } from "react";
import { Minus, Plus, ShoppingCart } from "lucide-react";
import type { Product, Variant } from "@voltio/domain/catalog";
import { variantName } from "@voltio/domain/variants";
import { addToGuestList, removeFromGuestList, useGuestList } from "@/api/guest-lists";
import { ApiError } from "@/api/client";
import { LIST_STATUSES_KEY, useAddOrder, useOrders, useRemoveOrder } from "@/api/orders";
import { useSession } from "@/api/session";
import { Button } from "@/components/ui/Button";
import { focusRingClass } from "@/components/ui/focus-ring";
import { showToast } from "@/components/ui/toast";
import { useTranslation } from "@/i18n";
import { clampQuantity } from "./quantity";

export const stepClass = `grid h-11 w-11 place-items-center text-ink transition hover:text-accent-strong disabled:cursor-not-allowed disabled:text-muted ${focusRingClass}`;

/**
 * The chosen variant into the cart, with a quantity (issue 41): a signed-in shopper's line on the server
 * (POST /order with the variantId), a guest's in the stored cart as a line of its own. Like the SPEC's cart
 * button it toggles (docs/product-rules.md §3.2): the variant in the cart reads 'Added to the cart' and a
 * press takes it out. Sold out, the button is disabled and the page offers the back-in-stock request
 * instead. Admins can't buy (docs/product-rules.md §1).
 */
export function VariantAddToCart({ product, variant }: { product: Product; variant: Variant }) {
  const { t } = useTranslation();
  const { user, isAdmin } = useSession();
  const add = useAddOrder();
  const remove = useRemoveOrder();
  const onServer = Boolean(user) && !isAdmin;
  const { data: ordered } = useOrders(LIST_STATUSES_KEY, { enabled: onServer });
  const guestCart = useGuestList("inCart");
  const serverLine = ordered
    ?.find((entry) => entry.id === product.id)
    ?.orders.find((line) => line.status === "inCart" && line.variantId === variant.id);
  const inCart = onServer
    ? Boolean(serverLine)
    : guestCart.some((line) => line.productId === product.id && line.variantId === variant.id);
  const [wanted, setWanted] = useState(1);
  const soldOut = variant.stock <= 0;
  // Moving to a variant with less stock keeps the quantity within it.
  const quantity = clampQuantity(wanted, variant.stock);
  if (isAdmin) return null;

  const toggle = async () => {
    if (!onServer && inCart) {
      removeFromGuestList("inCart", product.id, variant.id);
      showToast(t("toasts.removedFromCart"));
      return;
    }
    if (!onServer) {
      addToGuestList("inCart", product, quantity, {
        id: variant.id,
        price: variant.price,
        stock: variant.stock,
        images: variant.images,
        name: variantName(product.title, product.options, variant.options),
      });
      showToast(t("toasts.addedToCart"));
      return;
    }
    try {
      if (serverLine) await remove.mutateAsync(serverLine.id);
      else
        await add.mutateAsync({
          status: "inCart",
          productId: product.id,
          variantId: variant.id,
          amount: quantity,
        });
      showToast(t(serverLine ? "toasts.removedFromCart" : "toasts.addedToCart"));
    } catch (error) {
      showToast(error instanceof ApiError ? error.message : t("toasts.listFailed"), "error");
    }
  };

  return (
    <div className="flex flex-wrap items-end gap-3">
      <div>
        <span id="variant-quantity-label" className="mb-1 block text-xs font-medium text-muted">
          {t("variants.quantity")}
        </span>
        <div
          role="group"
          aria-labelledby="variant-quantity-label"
          className="inline-flex items-center rounded-xl border border-line bg-card"
        >
          <button
            type="button"
            aria-label={t("variants.decrease")}
            disabled={soldOut || quantity <= 1}
            onClick={() => setWanted(quantity - 1)}
            className={`${stepClass} rounded-l-xl`}
          >
            <Minus size={16} aria-hidden />
          </button>
          <input
            type="number"
            inputMode="numeric"
            aria-labelledby="variant-quantity-label"
            min={1}
            max={Math.max(1, variant.stock)}
            value={quantity}
            disabled={soldOut}
            onChange={(event) => setWanted(Number(event.target.value))}
            className="h-11 w-14 border-x border-line bg-transparent text-center text-sm text-ink tabular-nums [appearance:textfield] focus:outline-2 focus:-outline-offset-2 focus:outline-accent disabled:text-muted [&::-webkit-inner-spin-button]:appearance-none"
          />
          <button
            type="button"
            aria-label={t("variants.increase")}
            disabled={soldOut || quantity >= variant.stock}
            onClick={() => setWanted(quantity + 1)}
            className={`${stepClass} rounded-r-xl`}
          >
            <Plus size={16} aria-hidden />
          </button>
        </div>
      </div>
      <Button
        size="xl"
        variant={inCart ? "secondary" : "primary"}
        aria-pressed={soldOut ? undefined : inCart}
        disabled={(soldOut && !inCart) || add.isPending || remove.isPending}
        onClick={() => void toggle()}
        className="min-w-48 flex-1 disabled:bg-line disabled:text-muted disabled:shadow-none"
      >
        <ShoppingCart size={18} aria-hidden />
        {inCart ? t("buttons.addedToCart") : soldOut ? t("variants.soldOut") : t("buttons.addToCart")}
      </Button>
    </div>
  );
}
