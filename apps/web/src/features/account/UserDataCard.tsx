import { useState } from "react";
import { useTranslation } from "@/i18n";
import { MapPin, Pencil } from "lucide-react";
import { registerSchema, type User, type UserUpdate } from "@voltio/domain/account";
import { Card } from "@/components/ui/Card";
import { IconButton } from "@/components/ui/IconButton";
import { useUpdateUser } from "@/api/session-mutations";
import { failureText } from "@/components/form";
import { showToast } from "@/components/ui/toast";
import { AddressesDialog } from "./AddressesDialog";
import { EditableField } from "./EditableField";
import { EmailRow } from "./EmailRow";
import { PasswordRow } from "./PasswordRow";

// Each row is a form of one field, checked by the register form's rule for it.
const FIRST_NAME = registerSchema.pick({ firstName: true });
const LAST_NAME = registerSchema.pick({ lastName: true });

/** 'User Data' (docs/product-rules.md §1): first name, last name, e-mail, password (not for Google users), addresses. */
export function UserDataCard({ user }: { user: User }) {
  const { t } = useTranslation();
  const updateUser = useUpdateUser();
  const [addressesOpen, setAddressesOpen] = useState(false);

  const save = async (change: UserUpdate): Promise<boolean> => {
    try {
      await updateUser.mutateAsync(change);
      showToast(t("profile.updated"));
      return true;
    } catch (error) {
      showToast(failureText(t, error), "error");
      return false;
    }
  };

  const first = user.directions[0];
  return (
    <Card as="section" size="lg" raised aria-labelledby="user-data" className="p-6">
      <h2 id="user-data" className="mb-5 text-lg font-semibold text-ink">
        {t("profile.userData")}
      </h2>
      <div className="flex flex-col gap-4">
        <div className="grid gap-4 xl:grid-cols-2">
          <EditableField
            label={t("auth.firstName")}
            value={user.firstName}
            name="firstName"
            schema={FIRST_NAME}
            autoComplete="given-name"
            save={(firstName) => save({ firstName })}
          />
          <EditableField
            label={t("auth.lastName")}
            value={user.lastName}
            name="lastName"
            schema={LAST_NAME}
            autoComplete="family-name"
            save={(lastName) => save({ lastName })}
          />
        </div>
        <EmailRow user={user} />
        {!user.googleUser && <PasswordRow />}
        <div className="flex items-end gap-2">
          <div className="min-w-0 flex-1">
            <p className="mb-1.5 text-sm font-medium text-ink">{t("profile.addresses")}</p>
            <p className="flex h-11 items-center gap-2 truncate rounded-xl border border-line bg-surface px-3 text-muted">
              <MapPin size={18} aria-hidden className="shrink-0" />
              <span className="truncate">
                {first
                  ? t("profile.addressSummary", {
                      count: user.directions.length,
                      first: `${first.street} ${first.streetNumber}, ${first.city}`,
                    })
                  : t("addresses.empty")}
              </span>
            </p>
          </div>
          <IconButton
            variant="outline"
            shape="square"
            size="lg"
            onClick={() => setAddressesOpen(true)}
            label={t("profile.edit", { field: t("addresses.title") })}
            icon={<Pencil size={18} aria-hidden />}
          />
        </div>
      </div>
      <AddressesDialog open={addressesOpen} onOpenChange={setAddressesOpen} addresses={user.directions} />
    </Card>
  );
}
