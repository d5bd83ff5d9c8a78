import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useTranslation } from "@/i18n";
import { addressInputSchema, type AddressInput, type AddressValues } from "@voltio/domain/account";
import { ACCOUNT_MESSAGES } from "@voltio/domain/account-messages";
import { TextField } from "@/components/TextField";
import { Button } from "@/components/ui/Button";
import { showToast } from "@/components/ui/toast";

const FIELDS = [
  { name: "city", autoComplete: "address-level2", required: true },
  { name: "street", autoComplete: "address-line1", required: true },
  { name: "streetNumber", autoComplete: "off", required: true, inputMode: "numeric" as const },
  { name: "floor", autoComplete: "off", required: false },
  { name: "unit", autoComplete: "off", required: false },
  { name: "postalCode", autoComplete: "postal-code", required: true },
] as const;

/**
 * The address form (docs/product-rules.md §9): city, street, streetNumber and postalCode are required, else the alert
 * 'Complete the required fields'; floor and unit are optional; streetNumber becomes a number.
 */
export function AddressForm({
  initial,
  submitLabel,
  onSubmit,
  idPrefix,
}: {
  initial?: Partial<AddressInput>;
  submitLabel: string;
  onSubmit: (values: AddressValues) => Promise<void>;
  idPrefix: string;
}) {
  const { t } = useTranslation();
  const form = useForm<AddressInput, unknown, AddressValues>({
    resolver: zodResolver(addressInputSchema),
    defaultValues: {
      city: initial?.city ?? "",
      street: initial?.street ?? "",
      streetNumber: initial?.streetNumber === undefined ? "" : String(initial.streetNumber),
      floor: initial?.floor ?? "",
      unit: initial?.unit ?? "",
      postalCode: initial?.postalCode ?? "",
    },
    reValidateMode: "onSubmit",
  });
  const { errors, isSubmitting } = form.formState;

  const submit = form.handleSubmit(
    (values) => onSubmit(values),
    (invalid) => {
      // One alert for the whole form, the failed boxes marked in red.
      const messages = Object.values(invalid).map((error) => error?.message);
      showToast(
        t(
          messages.includes(ACCOUNT_MESSAGES.completeRequired)
            ? "accountRules.completeRequired"
            : "accountRules.streetNumberInvalid",
        ),
        "error",
      );
    },
  );

  return (
    <form
      onSubmit={(event) => void submit(event)}
      noValidate
      className="grid grid-cols-2 gap-3"
      aria-label={submitLabel}
    >
      {FIELDS.map(({ name, autoComplete, required, ...rest }) => (
        <TextField
          key={name}
          id={`${idPrefix}-${name}`}
          className={name === "city" || name === "street" ? "col-span-2 sm:col-span-1" : ""}
          label={
            required ? `${t(`addresses.${name}`)} *` : `${t(`addresses.${name}`)} ${t("addresses.optional")}`
          }
          autoComplete={autoComplete}
          aria-required={required || undefined}
          error={
            errors[name]
              ? errors[name].message === ACCOUNT_MESSAGES.completeRequired
                ? t("addresses.required")
                : t("addresses.wholeNumber")
              : undefined
          }
          {...rest}
          {...form.register(name, { onChange: () => form.clearErrors(name) })}
        />
      ))}
      <Button type="submit" disabled={isSubmitting} className="col-span-2 mt-1 w-full">
        {submitLabel}
      </Button>
    </form>
  );
}
