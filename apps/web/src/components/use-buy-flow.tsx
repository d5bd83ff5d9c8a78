import { useEffect, useRef, useState } from "react";
import { useNavigate } from "react-router";
import { useTranslation } from "@/i18n";
import { ApiError } from "@/api/client";
import { usePlaceOrder, type BuyTarget } from "@/api/orders";
import { useSession } from "@/api/session";
import { tokens } from "@/api/tokens";
import { LazyNoticeDialog } from "./LazyNoticeDialog";
import { PURCHASE_REDIRECT_MS } from "./timings";
import { showToast } from "./ui/toast";

type Notice = "login" | "address" | null;

/**
 * The buy flow of docs/product-rules.md §8, one for Buy now, Buy and Buy All: no tokens or no user → the login dialog; a
 * shopper without a saved address → the address dialog; otherwise the line(s) become pending (one cart line
 * moves, several make one bulk order, Buy now adds a pending line), the order lists read again and the
 * shopper lands on /purchase 1 second later: with ?orders={id} after a Buy now, so it pays that line only. Admins can't buy: `blocked` disables their buttons.
 */
export function useBuyFlow() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { user, isAdmin, pending } = useSession();
  const [notice, setNotice] = useState<Notice>(null);
  const [busy, setBusy] = useState(false);
  const redirect = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // A shopper who leaves during the second's wait stays where they went.
  useEffect(() => () => clearTimeout(redirect.current), []);

  const placeOrder = usePlaceOrder({
    onSuccess: (orderId) => {
      showToast(t("buy.placed"));
      // Where checkout opens: a Buy now (or a wishlist card's Buy) pays that line only unless the shopper
      // adds the rest there (ADR 0015); Buy All, everything waiting to be paid.
      const checkout = orderId === null ? "/purchase" : `/purchase?orders=${orderId}`;
      // Stays busy until the page changes: a second click must not buy twice, and the cart keeps its lines
      // shown (busy) until then instead of the emptied list.
      redirect.current = setTimeout(() => void navigate(checkout), PURCHASE_REDIRECT_MS);
    },
    onError: (error) => {
      setBusy(false);
      showToast(error instanceof ApiError ? error.message : t("buy.failed"), "error");
    },
  });

  const buy = (target: BuyTarget) => {
    if (busy) return;
    // docs/product-rules.md §8: no access and no refresh token means a guest, whatever else is stored.
    if (!tokens.present() || !user) return setNotice("login");
    if (isAdmin) return;
    if (user.directions.length === 0) return setNotice("address");
    setBusy(true);
    placeOrder.mutate(target);
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
    buy,
    busy,
    /** Admins can't buy; while a stored login is checked the answer isn't known yet (a moment's wait). */
    blocked: isAdmin || pending,
    dialogs,
  };
}
