import { useState } from "react";
import { useNavigate } from "react-router";
import { useTranslation } from "@/i18n";
import { Zap } from "lucide-react";
import { useSession } from "@/api/session";
import { tokens } from "@/api/tokens";
import { LazyNoticeDialog } from "@/components/LazyNoticeDialog";
import { Button } from "@/components/ui/Button";

type Notice = "login" | "address" | null;

/**
 * Buy (SPEC.md §4): disabled 'No Stock' without stock; guests get the login dialog; a signed-in shopper
 * without a saved address gets the address dialog; admins can't buy. Otherwise the shopper goes on to
 * checkout, where the purchase itself happens.
 */
export function BuyButton({ stock }: { stock: number }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { user, pending, isAdmin } = useSession();
  const [notice, setNotice] = useState<Notice>(null);
  const noStock = !(stock > 0);

  const buy = () => {
    // SPEC.md §4: no access and no refresh token means a guest, whatever else is stored.
    if (!tokens.present() || !user) setNotice("login");
    else if (user.directions.length === 0) setNotice("address");
    else void navigate("/purchase");
  };

  return (
    <>
      <Button
        size="xl"
        // While a stored login is being checked the answer isn't known yet: a moment's wait, not a wrong dialog.
        disabled={noStock || isAdmin || pending}
        onClick={buy}
        title={isAdmin ? t("product.adminsCantBuy") : undefined}
        // Out of stock reads as unavailable, not as a faded call to action.
        className="w-full disabled:bg-line disabled:text-muted disabled:shadow-none"
      >
        {!noStock && <Zap size={18} aria-hidden fill="currentColor" />}
        {noStock ? t("buttons.noStock") : t("buttons.buyNow")}
      </Button>
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
}
