import type { ZxcvbnFactory, ZxcvbnResult } from "@zxcvbn-ts/core";
import { ACCOUNT_MESSAGES } from "./account-messages";
import { PASSWORD_MIN_LENGTH } from "./account";

/**
 * How strong a new password must be (register, change, reset; ASVS 2.1.7): at least PASSWORD_MIN_LENGTH
 * characters and a zxcvbn score of PASSWORD_MIN_SCORE or more, judged offline against its dictionaries of
 * leaked passwords, common words and names, keyboard patterns, and the account's own name and e-mail. The
 * server refuses with the reason's message and the forms show the same verdict as a meter; logins accept
 * any password, so one chosen under an older rule keeps working until it is changed.
 */

/** zxcvbn's "safely unguessable" (about 10^8 guesses or more): 0–2 fall to an online attack. */
export const PASSWORD_MIN_SCORE = 3;

export type PasswordScore = 0 | 1 | 2 | 3 | 4;

/** Why a password was refused, as the key of its message in ACCOUNT_MESSAGES. */
export type PasswordWeakness =
  "passwordTooShort" | "passwordCommon" | "passwordPersonal" | "passwordPattern" | "passwordGuessable";

export interface PasswordVerdict {
  score: PasswordScore;
  /** Null when the password is strong enough. */
  weakness: PasswordWeakness | null;
}

/** The account's own words, which a password must not lean on. */
export interface PasswordOwner {
  firstName?: string | null;
  lastName?: string | null;
  email?: string | null;
}

/** The store's name is as guessable as the shopper's own. */
const SITE_WORDS = ["voltio"];

/** The names, the whole e-mail and its parts ("ana.garcia@example.com": ana, garcia, example). */
export function passwordUserInputs(owner: PasswordOwner): string[] {
  const words = new Set<string>(SITE_WORDS);
  for (const name of [owner.firstName, owner.lastName]) {
    const trimmed = name?.trim().toLowerCase();
    if (!trimmed) continue;
    // "García-López" is typed as garcia, lopez and garcialopez as often as with its accents.
    for (const spelling of [trimmed, trimmed.normalize("NFD").replace(/\p{M}/gu, "")]) {
      words.add(spelling);
      const parts = spelling.split(/[\s'\u2019-]+/);
      words.add(parts.join(""));
      for (const part of parts) if (part.length > 1) words.add(part);
    }
  }
  const email = owner.email?.trim().toLowerCase();
  if (email) {
    words.add(email);
    const [local = "", domain = ""] = email.split("@");
    words.add(local);
    for (const part of [...local.split(/[._+-]+/), ...domain.split(".").slice(0, -1)])
      if (part.length > 1) words.add(part);
  }
  words.delete("");
  return [...words];
}

let estimator: Promise<ZxcvbnFactory> | undefined;

/**
 * The estimator with its dictionaries (a few MB of words): imported on first use, so a web page loads them
 * only once a password box is used and the server only once a password is set. Calling it early (a
 * password box's focus) hides the download.
 */
export function loadPasswordEstimator(): Promise<ZxcvbnFactory> {
  estimator ??= Promise.all([
    import("@zxcvbn-ts/core"),
    import("@zxcvbn-ts/language-common"),
    import("@zxcvbn-ts/language-en"),
  ])
    .then(
      ([core, common, english]) =>
        // Levenshtein matching off: it takes up to a second a password and adds little to the dictionaries.
        new core.ZxcvbnFactory({
          graphs: common.adjacencyGraphs,
          dictionary: { ...common.dictionary, ...english.dictionary },
        }),
    )
    .catch((error: unknown) => {
      // A failed download (offline page) may be retried by the next call.
      estimator = undefined;
      throw error;
    });
  return estimator;
}

const COMMON_WARNINGS = new Set(["topTen", "topHundred", "common", "similarToCommon", "pwned"]);
const PATTERN_WARNINGS = new Set([
  "straightRow",
  "keyPattern",
  "simpleRepeat",
  "extendedRepeat",
  "sequences",
  "recentYears",
  "dates",
]);

/** The reason for a score under the minimum: the account's words first, then leaked lists, then patterns. */
function weaknessOf(result: ZxcvbnResult): PasswordWeakness {
  const dictionaries = result.sequence
    .filter((match) => match.pattern === "dictionary")
    .map((match) => String(match.dictionaryName));
  const warning = result.feedback.warning ?? "";
  if (warning === "userInputs" || dictionaries.includes("userInputs")) return "passwordPersonal";
  if (COMMON_WARNINGS.has(warning) || dictionaries.some((name) => name.startsWith("passwords")))
    return "passwordCommon";
  if (PATTERN_WARNINGS.has(warning)) return "passwordPattern";
  return "passwordGuessable";
}

/** The verdict on a new password for this account. */
export async function judgePassword(password: string, owner: PasswordOwner): Promise<PasswordVerdict> {
  const zxcvbn = await loadPasswordEstimator();
  const result = zxcvbn.check(password, passwordUserInputs(owner));
  if (password.length < PASSWORD_MIN_LENGTH)
    return { score: Math.min(result.score, 1) as PasswordScore, weakness: "passwordTooShort" };
  return { score: result.score, weakness: result.score >= PASSWORD_MIN_SCORE ? null : weaknessOf(result) };
}

/** The English sentence of a refusal, as the API answers it (the web shows its own translation). */
export function passwordWeaknessMessage(weakness: PasswordWeakness): string {
  return ACCOUNT_MESSAGES[weakness];
}
