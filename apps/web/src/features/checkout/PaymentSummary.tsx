import { useState } from "react";
import { Lock } from "lucide-react";
import { useTranslation } from "@/i18n";
import { checkoutTotals, providerItems } from "@voltio/domain/checkout";
import { formatDollars, toDollars } from "@voltio/domain/money";
import { ApiError } from "@/api/client";
import { useSession } from "@/api/session";
import { useStoreInfo } from "@/api/store";
import { MoneySummary } from "@/components/MoneySummary";
import { Button } from "@/components/ui/Button";
import { Card } from "@/components/ui/Card";
import { showToast } from "@/components/ui/toast";
import { useRepairShortage, useStartPayment, type ShortageRepair } from "./api";
import type { Line } from "./checkout-line";
import { rememberChoice } from "./choice";
import { ShippingAddressPicker } from "./ShippingAddressPicker";
import { shortageFix, shortageOf, type Shortage } from "./shortage";
import { ShortageAlert } from "./ShortageAlert";

/** docs/product-rules.md §10.6: the page's address minus its last 9 characters ('/purchase'), where the shopper comes back. */
const baseUrl = () => window.location.href.split(/[?#]/)[0]!.slice(0, -"/purchase".length);

/**
 * The address, the three sums of docs/product-rules.md §1 Checkout and the pay button: POST /{provider}/pay, then off to
 * the provider's page (the sandbox's card page by default). When other shoppers' checkouts hold the units,
 * it says which product and how many are left, and offers to cut the purchase down to that.
 */
export function PaymentSummary({
  lines,
  orderIds,
  bulkOrderIds,
  onAdded,
}: {
  lines: Line[];
  /** What this Pay covers (ADR 0015): sent, so nothing else pending is charged. */
  orderIds: number[];
  bulkOrderIds: number[];
  /** The line that replaced a cut one joins this purchase. */
  onAdded: (orderId: number) => void;
}) {
  const { t } = useTranslation();
  const { user } = useSession();
  const store = useStoreInfo();
  const addresses = user?.directions ?? [];
  const [chosen, setChosen] = useState<number | undefined>(undefined);
  const [paying, setPaying] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [shortage, setShortage] = useState<Shortage | null>(null);
  const pending = lines.map((line) => line.pending);
  const totals = checkoutTotals(pending);
  const directionId = chosen ?? addresses[0]?.id;
  const provider = store.data?.paymentProvider;

  const payment = useStartPayment({
    onSuccess: ({ init_point }) => {
      rememberChoice(window.location.search);
      window.location.assign(init_point);
    },
    onError: (caught) => {
      setPaying(false);
      const short = shortageOf(caught);
      if (short) setShortage(short);
      else setError(caught instanceof ApiError ? caught.message : t("checkout.payFailed"));
    },
  });
  // The toast names the product as the alert did, even once its lines are gone.
  const repair = useRepairShortage<ShortageRepair & { name: string }>({
    onSuccess: (addedId, { cutTo, name }) => {
      if (addedId !== null) onAdded(addedId);
      setShortage(null);
      showToast(
        cutTo !== null
          ? t("checkout.amountChanged", { count: cutTo, title: name })
          : t("checkout.shortRemoved", { title: name }),
      );
    },
    onError: (caught) => {
      setShortage(null);
      setError(caught instanceof ApiError ? caught.message : t("checkout.fixFailed"));
    },
  });

  const pay = () => {
    if (!provider) return;
    setPaying(true);
    setError(null);
    setShortage(null);
    const items = providerItems(pending).map((item) => ({
      title: item.title,
      amount: item.amount,
      price: toDollars(item.unitPriceCents),
    }));
    payment.mutate({
      provider,
      body: { items, baseURL: baseUrl(), directionId, orderIds, bulkOrderIds },
    });
  };

  const fix = (found: Shortage) => {
    const { single, action, room, title } = shortageFix(lines, found);
    setError(null);
    repair.mutate({
      productId: found.productId,
      variantId: found.variantId,
      removeIds: single.map((line) => line.order.id),
      cutTo: action === "cut" ? room : null,
      name: title ?? t("checkout.someProduct"),
    });
  };
  const fixing = repair.isPending;

  return (
    <Card as="aside" size="lg" aria-labelledby="payment-summary" className="flex flex-col gap-4 p-5">
      <h2 id="payment-summary" className="font-semibold text-ink">
        {t("checkout.summary")}
      </h2>
      <ShippingAddressPicker addresses={addresses} value={directionId} onChange={setChosen} />
      <MoneySummary {...totals} testIdPrefix="checkout" />
      {error && (
        <p role="alert" className="text-sm font-semibold text-sale">
          {error}
        </p>
      )}
      {shortage && (
        <ShortageAlert lines={lines} shortage={shortage} busy={fixing} onFix={() => fix(shortage)} />
      )}
      <Button
        size="xl"
        onClick={pay}
        disabled={paying || fixing || !provider || directionId === undefined || lines.length === 0}
        aria-busy={paying}
      >
        <Lock size={18} aria-hidden />
        {t("checkout.pay", { total: formatDollars(toDollars(totals.totalCents)) })}
      </Button>
      {provider && <p className="text-center text-xs text-muted">{t(`checkout.provider.${provider}`)}</p>}
    </Card>
  );
}
