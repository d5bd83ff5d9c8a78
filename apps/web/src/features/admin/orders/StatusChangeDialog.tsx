import { useId, useState, type FormEvent } from "react";
import * as Dialog from "@radix-ui/react-dialog";
import type { AdminOrderStatus } from "@voltio/domain/admin-orders";
import { CARRIER_MAX, DEFAULT_TRACKING_URL_TEMPLATES, TRACKING_NUMBER_MAX } from "@voltio/domain/purchase";
import { useTranslation } from "@/i18n";
import { Button, buttonClass } from "@/components/ui/Button";
import { Modal } from "@/components/ui/Modal";
import { Field } from "../Field";
import { filterFieldClass } from "../Filters";
import type { Tracking } from "./api";

/** A status change the admin asked for, waiting for their confirmation. */
export interface AskedChange {
  order: string;
  status: AdminOrderStatus;
}

/**
 * Every status change is confirmed first: the buyer is e-mailed, stock and money may move.
 * Shipping (onDelivery) also asks for the parcel's tracking number and carrier, both optional.
 */
export function StatusChangeDialog({
  asked,
  onCancel,
  onAccept,
}: {
  asked: AskedChange | null;
  onCancel: () => void;
  onAccept: (tracking: Tracking) => void;
}) {
  const { t } = useTranslation();
  const numberId = useId();
  const carrierId = useId();
  const carriersId = useId();
  const [trackingNumber, setTrackingNumber] = useState("");
  const [carrier, setCarrier] = useState("");
  const shipping = asked?.status === "onDelivery";
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onAccept({
      trackingNumber: trackingNumber.trim() || undefined,
      carrier: carrier.trim() || undefined,
    });
    setTrackingNumber("");
    setCarrier("");
  };
  return (
    <Modal
      open={asked !== null}
      onOpenChange={(open) => {
        if (!open) onCancel();
      }}
      role="alertdialog"
      title={
        asked
          ? t("orderAdmin.confirmTitle", {
              order: asked.order,
              status: t(`admin.orders.statuses.${asked.status}`),
            })
          : ""
      }
      description={asked ? t(`orderAdmin.confirmHint.${asked.status}`) : undefined}
      className="p-6"
    >
      <form onSubmit={submit} className="mt-4 flex flex-col gap-3">
        {shipping && (
          <>
            <Field id={numberId} label={t("orderAdmin.trackingNumber")} hint={t("orderAdmin.optional")}>
              <input
                id={numberId}
                value={trackingNumber}
                onChange={(event) => setTrackingNumber(event.target.value)}
                maxLength={TRACKING_NUMBER_MAX}
                autoComplete="off"
                aria-describedby={`${numberId}-hint`}
                className={filterFieldClass}
              />
            </Field>
            <Field id={carrierId} label={t("orderAdmin.carrier")} hint={t("orderAdmin.carrierHint")}>
              <input
                id={carrierId}
                value={carrier}
                onChange={(event) => setCarrier(event.target.value)}
                maxLength={CARRIER_MAX}
                list={carriersId}
                autoComplete="off"
                aria-describedby={`${carrierId}-hint`}
                className={filterFieldClass}
              />
              <datalist id={carriersId}>
                {Object.keys(DEFAULT_TRACKING_URL_TEMPLATES).map((name) => (
                  <option key={name} value={name} />
                ))}
              </datalist>
            </Field>
          </>
        )}
        <div className="mt-3 flex justify-center gap-3">
          <Dialog.Close className={buttonClass({ variant: "secondary", className: "min-w-24" })}>
            {t("confirm.cancel")}
          </Dialog.Close>
          <Button type="submit" className="min-w-24">
            {t("confirm.accept")}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
