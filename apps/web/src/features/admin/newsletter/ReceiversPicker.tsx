import { useId, type KeyboardEvent, type RefObject } from "react";
import { Plus, Users, X } from "lucide-react";
import { useTranslation } from "@/i18n";
import { ALL_RECEIVERS } from "@voltio/domain/newsletter";
import { Button } from "@/components/ui/Button";
import { IconButton } from "@/components/ui/IconButton";
import { Field } from "../Field";
import { addTyped, hasAll } from "./receivers";

interface ReceiversPickerProps {
  value: string[];
  onChange: (receivers: string[]) => void;
  /** What is typed and not yet a chip: the form adds it when Send is pressed, too. */
  draft: string;
  onDraftChange: (draft: string) => void;
  /** How many users 'All' reaches now (GET /emails), when known. */
  subscribers: number | undefined;
  error?: string;
  inputRef?: RefObject<HTMLInputElement | null>;
}

/**
 * docs/product-rules.md §1, §9: the receivers picker. An address becomes a chip on Enter, a comma or Add; what is not an
 * e-mail is silently left out and an address already chosen is not added twice; 'All' is one chip that
 * stands for every subscribed user.
 */
export function ReceiversPicker({
  value,
  onChange,
  draft,
  onDraftChange,
  subscribers,
  error,
  inputRef,
}: ReceiversPickerProps) {
  const { t } = useTranslation();
  const id = useId();
  const all = hasAll(value);

  const commit = (text: string) => {
    onChange(addTyped(value, text));
    onDraftChange("");
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "Enter" || event.key === ",") {
      // Enter would send the whole form: here it only adds the address.
      event.preventDefault();
      commit(draft);
    } else if (event.key === "Backspace" && draft === "" && value.length > 0) {
      onChange(value.slice(0, -1));
    }
  };

  const chipLabel = (receiver: string) =>
    receiver === ALL_RECEIVERS ? t("admin.newsletter.allChip") : receiver;
  const describedBy = [error ? `${id}-input-error` : `${id}-input-hint`, `${id}-count`].join(" ");

  return (
    <fieldset
      className="flex min-w-0 flex-col gap-2"
      aria-describedby={error ? `${id}-input-error` : undefined}
    >
      <legend className="mb-1 text-sm font-medium text-ink">{t("admin.newsletter.receivers")}</legend>
      <label className="inline-flex min-h-11 w-fit cursor-pointer items-center gap-3 rounded-xl border border-line bg-surface px-3 text-sm font-medium text-ink has-[:checked]:border-accent has-[:checked]:bg-accent-soft has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-accent">
        <input
          type="checkbox"
          checked={all}
          onChange={(event) =>
            onChange(
              event.target.checked
                ? [ALL_RECEIVERS, ...value]
                : value.filter((receiver) => receiver !== ALL_RECEIVERS),
            )
          }
          className="h-4 w-4 accent-accent"
        />
        <Users size={16} aria-hidden className="text-accent-strong" />
        {subscribers === undefined
          ? t("admin.newsletter.allSubscribers")
          : t("admin.newsletter.allSubscribersCount", { count: subscribers })}
      </label>

      <Field
        small
        id={`${id}-input`}
        label={t("admin.newsletter.addAddress")}
        hint={error ? undefined : t("admin.newsletter.addHint")}
        error={error}
      >
        <div className="flex gap-2">
          <input
            ref={inputRef}
            id={`${id}-input`}
            type="email"
            inputMode="email"
            value={draft}
            onChange={(event) => {
              // A pasted list, or a comma typed on a phone keyboard that sends no key event.
              const text = event.target.value;
              if (/[,;\n]/.test(text)) commit(text);
              else onDraftChange(text);
            }}
            onKeyDown={onKeyDown}
            placeholder="name@example.com"
            autoComplete="off"
            aria-invalid={error ? true : undefined}
            aria-describedby={describedBy}
            className={`h-11 min-w-0 flex-1 rounded-xl border bg-surface px-3 text-sm text-ink placeholder:text-muted focus:outline-2 focus:-outline-offset-1 ${error ? "border-sale focus:outline-sale" : "border-line focus:border-accent focus:outline-accent"}`}
          />
          <Button variant="secondary" size="lg" className="text-sm" onClick={() => commit(draft)}>
            <Plus size={16} aria-hidden />
            {t("admin.newsletter.add")}
          </Button>
        </div>
      </Field>

      <p id={`${id}-count`} className="sr-only" aria-live="polite">
        {t("admin.newsletter.chosen", { count: value.length })}
      </p>
      {value.length > 0 && (
        <ul aria-label={t("admin.newsletter.chosenList")} className="flex flex-wrap gap-2">
          {value.map((receiver) => (
            <li
              key={receiver}
              className={`inline-flex max-w-full items-center gap-1 rounded-full border pr-0.5 pl-3 text-sm ${receiver === ALL_RECEIVERS ? "border-accent bg-accent-soft font-semibold text-accent-strong" : "border-line bg-surface text-ink"}`}
            >
              <span className="truncate">{chipLabel(receiver)}</span>
              <IconButton
                label={t("admin.newsletter.remove", { receiver: chipLabel(receiver) })}
                icon={<X size={14} aria-hidden />}
                size="sm"
                onClick={() => onChange(value.filter((chosen) => chosen !== receiver))}
              />
            </li>
          ))}
        </ul>
      )}
    </fieldset>
  );
}
