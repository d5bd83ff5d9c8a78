import { useId, useState, type InputHTMLAttributes } from "react";
import { useTranslation } from "@/i18n";
import { Eye, EyeOff } from "lucide-react";
import { accountMessageKey } from "@voltio/domain/account-messages";

interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, "placeholder"> {
  label: string;
  placeholder?: string;
  /** The failed rule, as the domain's message: shown translated in the placeholder with a red border. */
  error?: string;
  /**
   * Also show the failed rule under the box: for forms that keep what was typed, where
   * the placeholder is hidden by the text.
   */
  showRule?: boolean;
}

/**
 * A form box per docs/product-rules.md §9: a failing field gets a red border and its placeholder shows the failed rule.
 * The label stays visible and the rule is also the field's description, for screen readers.
 */
export function TextField({
  label,
  placeholder,
  error,
  showRule = false,
  type = "text",
  className,
  id: givenId,
  ...input
}: TextFieldProps) {
  const { t } = useTranslation();
  const generatedId = useId();
  const id = givenId ?? generatedId;
  const [visible, setVisible] = useState(false);
  const rule = error ? ruleText(t, error) : undefined;
  const password = type === "password";
  return (
    <div className={className}>
      <label htmlFor={id} className="mb-1.5 block text-sm font-medium text-ink">
        {label}
      </label>
      <div className="relative">
        <input
          id={id}
          type={password && visible ? "text" : type}
          placeholder={rule ?? placeholder}
          aria-invalid={rule ? true : undefined}
          aria-describedby={rule ? `${id}-rule` : undefined}
          className={`h-11 w-full rounded-xl border bg-card px-3 text-ink shadow-sm transition placeholder:text-muted focus-visible:outline-2 focus-visible:outline-offset-1 disabled:cursor-not-allowed disabled:bg-surface disabled:text-muted ${password ? "pr-11" : ""} ${
            rule
              ? "border-sale placeholder:text-sale focus-visible:outline-sale"
              : "border-line focus-visible:outline-accent"
          }`}
          {...input}
        />
        {password && (
          <button
            type="button"
            onClick={() => setVisible((shown) => !shown)}
            aria-label={visible ? t("auth.hidePassword") : t("auth.showPassword")}
            aria-pressed={visible}
            disabled={input.disabled}
            className="absolute inset-y-0 right-0 grid w-11 place-items-center rounded-r-xl text-muted hover:text-ink focus-visible:outline-2 focus-visible:outline-accent disabled:opacity-50"
          >
            {visible ? <EyeOff size={18} aria-hidden /> : <Eye size={18} aria-hidden />}
          </button>
        )}
      </div>
      {rule && (
        <span id={`${id}-rule`} className={showRule ? "mt-1 block text-sm text-sale" : "sr-only"}>
          {rule}
        </span>
      )}
    </div>
  );
}

/** A rule message of the domain package in the shopper's language. */
export function ruleText(t: (key: string) => string, message: string): string {
  const key = accountMessageKey(message);
  return key ? t(`accountRules.${key}`) : message;
}
