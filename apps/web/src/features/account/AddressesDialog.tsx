import { useState } from "react";
import { useTranslation } from "@/i18n";
import { ArrowLeft, ChevronDown, MapPin, Plus, Trash2 } from "lucide-react";
import type { Address, AddressValues } from "@voltio/domain/account";
import { useUpdateUser } from "@/api/session-mutations";
import { Button } from "@/components/ui/Button";
import { Modal } from "@/components/ui/Modal";
import { showToast } from "@/components/ui/toast";
import { focusRingClass } from "@/components/ui/focus-ring";
import { AddressForm } from "./AddressForm";
import { useAddAddress, useDeleteAddress } from "./api";

/**
 * The 'Adresses' modal (docs/product-rules.md §1): each address shows city, street and number and expands to be edited or
 * deleted ('DeleteAdress'); 'New Adress' opens the new-address form and 'Return' goes back.
 */
export function AddressesDialog({
  open,
  onOpenChange,
  addresses,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  addresses: Address[];
}) {
  const { t } = useTranslation();
  const [adding, setAdding] = useState(false);
  const [expanded, setExpanded] = useState<number | null>(null);
  const addAddress = useAddAddress();
  const deleteAddress = useDeleteAddress();
  const updateUser = useUpdateUser();

  const create = async (values: AddressValues) => {
    try {
      await addAddress.mutateAsync(values);
      setAdding(false);
    } catch (error) {
      // docs/product-rules.md §10.7: address add failures are only logged.
      console.error("The address could not be added", error);
    }
  };

  const edit = async (id: number, values: AddressValues) => {
    try {
      await updateUser.mutateAsync({ direction: { id, ...values } });
    } catch (error) {
      console.error("The address could not be updated", error);
    }
    // docs/product-rules.md §9: the edit always alerts 'Updated data'.
    showToast(t("profile.updated"));
  };

  const remove = async (id: number) => {
    try {
      await deleteAddress.mutateAsync(id);
      setExpanded(null);
    } catch (error) {
      console.error("The address could not be deleted", error);
    }
  };

  return (
    <Modal
      open={open}
      onOpenChange={(next) => {
        onOpenChange(next);
        if (!next) {
          setAdding(false);
          setExpanded(null);
        }
      }}
      layout="panel"
      size="lg"
      title={adding ? t("addresses.newAddress") : t("addresses.title")}
      closeLabel={t("common.close")}
      headerStart={
        adding && (
          <Button variant="ghost" size="sm" onClick={() => setAdding(false)}>
            <ArrowLeft size={16} aria-hidden />
            {t("addresses.return")}
          </Button>
        )
      }
      className="px-5 py-4"
    >
      {adding ? (
        <AddressForm idPrefix="new-address" submitLabel={t("addresses.save")} onSubmit={create} />
      ) : (
        <>
          {addresses.length === 0 ? (
            <p className="flex flex-col items-center gap-3 py-8 text-center text-muted">
              <MapPin size={36} aria-hidden className="text-line" />
              {t("addresses.empty")}
            </p>
          ) : (
            <ul className="flex flex-col gap-2">
              {addresses.map((address) => {
                const isOpen = expanded === address.id;
                const panel = `address-${address.id}`;
                return (
                  <li key={address.id} className="rounded-2xl border border-line">
                    <button
                      type="button"
                      aria-expanded={isOpen}
                      aria-controls={panel}
                      onClick={() => setExpanded(isOpen ? null : address.id)}
                      className="flex w-full items-center gap-3 rounded-2xl px-4 py-3 text-left hover:bg-surface focus-visible:outline-2 focus-visible:outline-accent"
                    >
                      <MapPin size={18} aria-hidden className="shrink-0 text-accent" />
                      <span className="min-w-0 flex-1">
                        <span className="block truncate font-medium text-ink">{address.city}</span>
                        <span className="block truncate text-sm text-muted">
                          {address.street} {address.streetNumber}
                        </span>
                      </span>
                      <ChevronDown
                        size={18}
                        aria-hidden
                        className={`shrink-0 text-muted transition ${isOpen ? "rotate-180" : ""}`}
                      />
                    </button>
                    {isOpen && (
                      <div id={panel} className="border-t border-line px-4 py-4">
                        <AddressForm
                          idPrefix={panel}
                          initial={address}
                          submitLabel={t("addresses.saveChanges")}
                          onSubmit={(values) => edit(address.id, values)}
                        />
                        <Button
                          variant="danger"
                          size="md"
                          onClick={() => void remove(address.id)}
                          className="mt-3 w-full"
                        >
                          <Trash2 size={16} aria-hidden />
                          {t("addresses.delete")}
                        </Button>
                      </div>
                    )}
                  </li>
                );
              })}
            </ul>
          )}
          <button
            type="button"
            onClick={() => setAdding(true)}
            className={`mt-4 inline-flex h-11 w-full items-center justify-center gap-2 rounded-xl border border-dashed border-accent text-sm font-semibold text-accent-strong hover:bg-accent-soft ${focusRingClass}`}
          >
            <Plus size={18} aria-hidden />
            {t("addresses.newAddress")}
          </button>
        </>
      )}
    </Modal>
  );
}
