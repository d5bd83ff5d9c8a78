import { useEffect, useRef, useState } from "react";
import { useNavigate } from "react-router";
import { useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "@/i18n";
import { ApiError } from "@/api/client";
import { addPendingOrder, buyCartLines, moveOrder, refreshOrders } from "@/api/orders";
import { useSession } from "@/api/session";
import { tokens } from "@/api/tokens";
import { LazyNoticeDialog } from "./LazyNoticeDialog";
import { PURCHASE_REDIRECT_MS } from "./timings";
import { showToast } from "./ui/toast";

/**
 * What is being bought: one unit of a product (Buy now), a wishlist line (Buy on its card: the line itself
 * becomes the purchase and leaves the wishlist), or the cart's lines (Buy All).
 */
export type BuyTarget =
  { productId: number } | { wishlistOrderId: number } | { cartOrderIds: readonly number[] };

type Notice = "login" | "address" | null;

/**
 * The buy flow of SPEC.md §4, one for Buy now, Buy and Buy All: no tokens or no user → the login dialog; a
 * shopper without a saved address → the address dialog; otherwise the line(s) become pending (one cart line
 * moves, several make one bulk order, Buy now adds a pending line), the order lists read again and the
 * shopper lands on /purchase 1 second later: with ?orders={id} after a Buy now, so it pays that line only. Admins can't buy: `blocked` disables their buttons.
 */
export function useBuyFlow() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const client = useQueryClient();
  const { user, isAdmin, pending } = useSession();
  const [notice, setNotice] = useState<Notice>(null);
  const [busy, setBusy] = useState(false);
  const redirect = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // A shopper who leaves during the second's wait stays where they went.
  useEffect(() => () => clearTimeout(redirect.current), []);

  const buy = async (target: BuyTarget) => {
    if (busy) return;
    // SPEC.md §4: no access and no refresh token means a guest, whatever else is stored.
    if (!tokens.present() || !user) return setNotice("login");
    if (isAdmin) return;
    if (user.directions.length === 0) return setNotice("address");
    setBusy(true);
    // Where checkout opens: a Buy now (or a wishlist card's Buy) pays that line only unless the shopper adds
    // the rest there (ADR 0015); Buy All, everything waiting to be paid.
    let checkout = "/purchase";
    try {
      // The shopper's own clock and zone, as their device shows it: what the purchase history headings read.
      const date = new Date().toString();
      if ("productId" in target)
        checkout = `/purchase?orders=${(await addPendingOrder(target.productId, date)).id}`;
      else if ("wishlistOrderId" in target)
        checkout = `/purchase?orders=${(await moveOrder(target.wishlistOrderId, "pending", date)).order?.id ?? target.wishlistOrderId}`;
      else await buyCartLines(target.cartOrderIds, date);
    } catch (error) {
      setBusy(false);
      showToast(error instanceof ApiError ? error.message : t("buy.failed"), "error");
      await refreshOrders(client);
      return;
    }
    showToast(t("buy.placed"));
    // Stays busy until the page changes: a second click must not buy twice, and the cart keeps its lines
    // shown (busy) until then instead of the emptied list.
    redirect.current = setTimeout(() => void navigate(checkout), PURCHASE_REDIRECT_MS);
    await refreshOrders(client);
  };

  const dialogs = (
    <>
      <LazyNoticeDialog
        open={notice === "login"}
        onOpenChange={(open) => !open && setNotice(null)}
        message={t("modals.mustLogIn")}
        action={{ to: "/login", label: t("modals.login") }}
      />
      <LazyNoticeDialog
        open={notice === "address"}
        onOpenChange={(open) => !open && setNotice(null)}
        message={t("modals.needAddress")}
        action={{ to: "/user", label: t("modals.registerAddress") }}
      />
    </>
  );

  return {
    buy: (target: BuyTarget) => void buy(target),
    busy,
    /** Admins can't buy; while a stored login is checked the answer isn't known yet (a moment's wait). */
    blocked: isAdmin || pending,
    dialogs,
  };
}
