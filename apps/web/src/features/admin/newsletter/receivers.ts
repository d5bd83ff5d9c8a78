import { ALL_RECEIVERS, NEWSLETTER_MESSAGES, parseReceivers } from "@voltio/domain/newsletter";

/**
 * The picker's chips after some typed text: docs/product-rules.md §9's rule (packages/domain parseReceivers) decides —
 * what is not an e-mail is dropped without a word, each address shows once, 'All' is one chip, first.
 */
export function addTyped(current: readonly string[], typed: string): string[] {
  const pieces = typed.split(/[\s,;]+/).filter(Boolean);
  const { all, addresses } = parseReceivers([...current, ...pieces]);
  return all ? [ALL_RECEIVERS, ...addresses] : addresses;
}

export const hasAll = (receivers: readonly string[]) => receivers.includes(ALL_RECEIVERS);

/** The domain's messages that have their own text in each language; a server reason otherwise shows as is. */
const RULE_KEYS: Record<string, string> = {
  [NEWSLETTER_MESSAGES.subject]: "admin.newsletter.rules.subject",
  [NEWSLETTER_MESSAGES.message]: "admin.newsletter.rules.message",
  [NEWSLETTER_MESSAGES.noReceivers]: "admin.newsletter.rules.noReceivers",
  "must be one line": "admin.newsletter.rules.oneLine",
  "must be an http(s) address or empty": "admin.newsletter.networks.invalidUrl",
};

export const ruleText = (t: (key: string) => string, message: string) =>
  RULE_KEYS[message] ? t(RULE_KEYS[message]) : message;
