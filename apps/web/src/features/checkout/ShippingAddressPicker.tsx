import { useId } from "react";
import { Link } from "react-router";
import { useTranslation } from "@/i18n";
import type { Address } from "@voltio/domain/account";
import { focusRingClass } from "@/components/ui/focus-ring";
import { textLinkClass } from "@/components/ui/text-link";

/** Where the purchase ships: one of the shopper's addresses by city, or a link to add one. */
export function ShippingAddressPicker({
  addresses,
  value,
  onChange,
}: {
  addresses: Address[];
  value: number | undefined;
  onChange: (addressId: number) => void;
}) {
  const { t } = useTranslation();
  const selectId = useId();
  if (addresses.length === 0)
    return (
      <Link to="/user" className={`self-start text-sm font-semibold text-accent-strong ${textLinkClass}`}>
        {t("modals.registerAddress")}
      </Link>
    );
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={selectId} className="text-xs text-muted">
        {t("cart.shipTo")}
      </label>
      <select
        id={selectId}
        value={value}
        onChange={(event) => onChange(Number(event.target.value))}
        className={`h-11 rounded-xl border border-line bg-card px-3 text-sm text-ink ${focusRingClass}`}
      >
        {addresses.map((address) => (
          <option key={address.id} value={address.id}>
            {address.city}
          </option>
        ))}
      </select>
    </div>
  );
}
