import { useTranslation } from "@/i18n";
import { Zap } from "lucide-react";
import { useSession } from "@/api/session";
import { useBuyFlow } from "@/components/use-buy-flow";
import { Button } from "@/components/ui/Button";

/**
 * Buy now (docs/product-rules.md §1 Buttons, §8 Buy flow): disabled 'No Stock' without stock; admins can't buy. A click
 * runs the shared buy flow: login or address dialog, or one unit becomes a pending purchase and the shopper
 * goes to /purchase.
 */
export function BuyButton({
  productId,
  stock,
  variantId,
}: {
  productId: number;
  stock: number;
  /** The variant chosen (issue 41); none: the product's default one. */
  variantId?: number;
}) {
  const { t } = useTranslation();
  const { buy, busy, blocked, dialogs } = useBuyFlow();
  const { isAdmin } = useSession();
  const noStock = !(stock > 0);

  return (
    <>
      <Button
        size="xl"
        disabled={noStock || blocked || busy}
        onClick={() => buy(variantId === undefined ? { productId } : { productId, variantId })}
        title={isAdmin ? t("product.adminsCantBuy") : undefined}
        // Out of stock reads as unavailable, not as a faded call to action.
        className="w-full disabled:bg-line disabled:text-muted disabled:shadow-none"
      >
        {!noStock && <Zap size={18} aria-hidden fill="currentColor" />}
        {noStock ? t("buttons.noStock") : t("buttons.buyNow")}
      </Button>
      {dialogs}
    </>
  );
}
