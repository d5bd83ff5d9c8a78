import { Link, Navigate } from "react-router";
import { ShoppingCart, Truck, X, Zap } from "lucide-react";
import { useTranslation } from "@/i18n";
import { ApiError } from "@/api/client";
import { moveGuestLineToCart, removeFromGuestList } from "@/api/guest-lists";
import { useListLines, type ListLine } from "@/api/list-lines";
import { useMoveToCart, useRemoveListLine } from "@/api/orders";
import { useSession } from "@/api/session";
import { usePageTitle } from "@/components/page-title";
import { useBuyFlow } from "@/components/use-buy-flow";
import { Button, buttonClass } from "@/components/ui/Button";
import { Card } from "@/components/ui/Card";
import { DiscountBadge } from "@/components/ui/DiscountBadge";
import { IconButton } from "@/components/ui/IconButton";
import { PriceTag } from "@/components/ui/PriceTag";
import { ProductTileSkeleton } from "@/components/ui/Skeleton";
import { showToast } from "@/components/ui/toast";
import { dollarsText } from "./cart-summary";
import { ListIllustration } from "./ListIllustration";
import { LoadError } from "@/components/LoadError";
import { textLinkClass } from "@/components/ui/text-link";

/**
 * /wishlist (docs/product-rules.md §1 Wishlist): a card per wished product with Buy and Add to cart. A signed-in shopper's
 * list is on the server; a guest's in the browser. Admins have no wishlist: they go home.
 */
export function WishlistPage() {
  const { t } = useTranslation();
  usePageTitle(t("titles.page", { page: t("wishlist.title") }));
  const { isAdmin } = useSession();
  const { lines, isPending, isError, refetch } = useListLines("inWishList");
  const { buy, busy, blocked, dialogs } = useBuyFlow();
  const remove = useRemoveListLine();
  const moveToCart = useMoveToCart();
  const refused = (error: unknown) =>
    showToast(error instanceof ApiError ? error.message : t("toasts.listFailed"), "error");

  const onRemove = (line: ListLine) => {
    if (line.orderId === null) {
      removeFromGuestList("inWishList", line.productId, line.variantId);
      showToast(t("wishlist.deleted"));
      return;
    }
    remove.mutate(line.orderId, { onSuccess: () => showToast(t("wishlist.deleted")), onError: refused });
  };

  // docs/product-rules.md §8: moving from the wishlist to the cart adds one unit to the cart; the wishlist line goes.
  const onAddToCart = (line: ListLine) => {
    if (line.orderId === null) {
      moveGuestLineToCart(line.productId, line.variantId);
      showToast(t("toasts.addedToCart"));
      return;
    }
    moveToCart.mutate(line.orderId, {
      onSuccess: () => showToast(t("toasts.addedToCart")),
      onError: refused,
    });
  };

  if (isAdmin) return <Navigate to="/" replace />;

  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-bold tracking-tight text-ink">{t("wishlist.title")}</h1>
      {isError ? (
        <LoadError onRetry={() => void refetch()} className="py-16" />
      ) : isPending ? (
        <div role="status" aria-busy="true" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          <span className="sr-only">{t("common.loading")}</span>
          <ProductTileSkeleton />
          <ProductTileSkeleton />
          <ProductTileSkeleton />
        </div>
      ) : lines.length === 0 ? (
        <Card size="lg" className="flex flex-col items-center gap-4 px-6 py-14 text-center">
          <ListIllustration kind="wishlist" label={t("wishlist.emptyPicture")} />
          <p className="text-xl font-semibold text-ink">{t("nav.wishlistEmpty")}</p>
          <Link to="/products?offset=1" className={buttonClass()}>
            {t("cart.keepShopping")}
          </Link>
        </Card>
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {lines.map((line) => (
            <li key={line.orderId ?? line.productId}>
              <WishlistCard
                line={line}
                onRemove={onRemove}
                onAddToCart={onAddToCart}
                onBuy={() =>
                  buy(
                    line.orderId === null ? { productId: line.productId } : { wishlistOrderId: line.orderId },
                  )
                }
                buyDisabled={blocked || busy}
              />
            </li>
          ))}
        </ul>
      )}
      {dialogs}
    </div>
  );
}

interface WishlistCardProps {
  line: ListLine;
  onRemove: (line: ListLine) => void;
  onAddToCart: (line: ListLine) => void;
  onBuy: () => void;
  buyDisabled: boolean;
}

function WishlistCard({ line, onRemove, onAddToCart, onBuy, buyDisabled }: WishlistCardProps) {
  const { t } = useTranslation();
  const productPath = `/product/${line.productId}`;
  const noStock = !(line.stock > 0);
  return (
    <Card as="article" raised className="flex h-full flex-col overflow-hidden">
      <div className="relative aspect-[4/3] bg-accent-soft">
        <Link to={productPath} tabIndex={-1} aria-hidden className="block h-full w-full">
          {line.image && (
            <img
              src={line.image}
              alt=""
              width={400}
              height={300}
              loading="lazy"
              className="h-full w-full object-contain"
            />
          )}
        </Link>
        <IconButton
          label={t("buttons.removeFromWishlistNamed", { title: line.title })}
          icon={<X size={18} aria-hidden />}
          variant="floating"
          size="sm"
          onClick={() => onRemove(line)}
          className="absolute top-2 right-2"
        />
      </div>
      <div className="flex flex-1 flex-col gap-2 p-4">
        <h2 className="line-clamp-2 text-sm leading-5 font-medium text-ink sm:text-base">
          <Link to={productPath} className={textLinkClass}>
            {line.title}
          </Link>
        </h2>
        <p className="line-clamp-3 text-sm text-muted">{line.description}</p>
        <p className="flex items-center gap-1 text-xs text-muted">
          {line.shippingCents === 0 ? (
            <span className="inline-flex items-center gap-1 font-medium text-success">
              <Truck size={14} aria-hidden />
              {t("catalog.freeShipping")}
            </span>
          ) : (
            t("catalog.shipping", { cost: dollarsText(line.shippingCents) })
          )}
        </p>
        {/* By the price, not on the picture: a long badge wraps without covering it. */}
        <div className="mt-auto flex flex-col items-start gap-1.5 pt-1">
          {line.price?.sale && <DiscountBadge sale={line.price.sale} />}
          {line.price ? <PriceTag price={line.price} /> : "…"}
        </div>
        <div className="grid grid-cols-2 gap-2 pt-2">
          <Button
            size="md"
            disabled={noStock || buyDisabled}
            onClick={onBuy}
            className="disabled:bg-line disabled:text-muted disabled:shadow-none"
          >
            {!noStock && <Zap size={16} aria-hidden fill="currentColor" />}
            {noStock ? t("buttons.noStock") : t("wishlist.buy")}
          </Button>
          <Button size="md" variant="secondary" disabled={noStock} onClick={() => onAddToCart(line)}>
            <ShoppingCart size={16} aria-hidden />
            {t("buttons.addToCart")}
          </Button>
        </div>
      </div>
    </Card>
  );
}

export default WishlistPage;
