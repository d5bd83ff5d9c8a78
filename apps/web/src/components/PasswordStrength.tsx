import { useEffect, useState } from "react";
import {
  judgePassword,
  loadPasswordEstimator,
  PASSWORD_MIN_SCORE,
  type PasswordOwner,
  type PasswordVerdict,
} from "@voltio/domain/password-strength";
import { ACCOUNT_MESSAGES } from "@voltio/domain/account-messages";
import { useTranslation } from "@/i18n";
import { useDebouncedValue } from "./use-debounced-value";

/**
 * Starts loading the strength estimator's dictionaries (a chunk of their own, a few hundred kB compressed)
 * when a new-password box is first focused, so the meter answers by the time the first characters are typed
 * and the pages without a password box never load them.
 */
export function preloadPasswordStrength() {
  void loadPasswordEstimator().catch(() => undefined);
}

const LEVELS = ["veryWeak", "veryWeak", "weak", "good", "strong"] as const;
const BAR_COLOURS = ["bg-sale", "bg-sale", "bg-chart-4", "bg-success", "bg-success"] as const;

/**
 * The verdict on a password, judged a moment after typing stops; null while empty or still loading.
 * The forms call judgePassword themselves on submit, so a quick submit never slips past the meter.
 */
export function usePasswordVerdict(password: string, owner: PasswordOwner): PasswordVerdict | null {
  const settled = useDebouncedValue(password, 150);
  const { firstName, lastName, email } = owner;
  const [verdict, setVerdict] = useState<{ for: string; verdict: PasswordVerdict } | null>(null);
  useEffect(() => {
    if (!settled) return;
    let current = true;
    judgePassword(settled, { firstName, lastName, email }).then(
      (judged) => current && setVerdict({ for: settled, verdict: judged }),
      // Offline before the dictionaries came: no meter; the server still judges the password.
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [settled, firstName, lastName, email]);
  return password && verdict?.for === password ? verdict.verdict : null;
}

/**
 * A new password's strength: four bars and, for screen readers and anyone who doesn't tell the colours
 * apart, the level and the reason in words, announced politely as they change.
 */
export function PasswordStrengthMeter({
  password,
  owner,
  className = "",
}: {
  password: string;
  owner: PasswordOwner;
  className?: string;
}) {
  const { t } = useTranslation();
  const verdict = usePasswordVerdict(password, owner);
  const filled = verdict ? Math.max(verdict.score, 1) : 0;
  const level = verdict ? LEVELS[verdict.score] : undefined;
  return (
    <div className={`mt-1.5 ${className}`}>
      <div className="flex gap-1" aria-hidden>
        {[1, 2, 3, 4].map((bar) => (
          <span
            key={bar}
            className={`h-1.5 flex-1 rounded-full ${verdict && bar <= filled ? BAR_COLOURS[verdict.score] : "bg-line"}`}
          />
        ))}
      </div>
      <p role="status" aria-live="polite" className="mt-1 min-h-5 text-sm text-muted">
        {verdict && level && (
          <>
            <span
              className={
                verdict.score >= PASSWORD_MIN_SCORE ? "font-medium text-success" : "font-medium text-sale"
              }
            >
              {t("passwordStrength.label", { level: t(`passwordStrength.${level}`) })}
            </span>
            {verdict.weakness && <> {t(`accountRules.${verdict.weakness}`)}</>}
          </>
        )}
      </p>
    </div>
  );
}

/**
 * The refusal of a weak password as the domain's message (the forms show it translated, like the server's),
 * or null. Checked before sending, so a weak password costs no request; if the dictionaries can't load, the
 * server's answer decides.
 */
export async function passwordRefusal(password: string, owner: PasswordOwner): Promise<string | null> {
  try {
    const { weakness } = await judgePassword(password, owner);
    return weakness ? ACCOUNT_MESSAGES[weakness] : null;
  } catch {
    return null;
  }
}
