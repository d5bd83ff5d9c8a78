import { z } from "zod";
import { pageInfoSchema, pageQuery } from "./http";

/**
 * The newsletter and the store's social networks (docs/product-rules.md §1 Admin newsletter 'Edit Newsletter', §9
 * Newsletter, §7 POST /emails and POST /networks).
 */

export const NEWSLETTER_MESSAGES = {
  subject: "Subject is required",
  message: "Message is required",
  sent: "Email sent !",
  networksSent: "Networks sent!",
  noReceivers: "must list at least one e-mail address, or All",
} as const;

/** The receivers picker's option that stands for every subscribed user. */
export const ALL_RECEIVERS = "All";

export const NEWSLETTER_TITLE_MAX = 200;
export const NEWSLETTER_MESSAGE_MAX = 20_000;
/** Typed receivers one send may list (the subscribed users of 'All' are not counted here). */
export const NEWSLETTER_RECEIVERS_MAX = 10_000;

/** docs/product-rules.md §9: 'a standard e-mail pattern'. */
const EMAIL_PATTERN = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:"]{2,}$/;

export interface Receivers {
  /** 'All' was chosen: every subscribed user. */
  all: boolean;
  /** Typed addresses: valid, lower-cased, each once. */
  addresses: string[];
  /** What was left out: empty or not an e-mail (docs/product-rules.md §9: silently ignored by the picker). */
  ignored: string[];
}

/** docs/product-rules.md §9: a typed receiver must be an e-mail; empty or invalid ones are ignored; deduplicated. */
export function parseReceivers(receivers: readonly string[]): Receivers {
  const addresses = new Set<string>();
  const ignored: string[] = [];
  let all = false;
  for (const receiver of receivers) {
    const value = receiver.trim();
    if (value.toLowerCase() === ALL_RECEIVERS.toLowerCase()) all = true;
    else if (value.length <= 254 && EMAIL_PATTERN.test(value)) addresses.add(value.toLowerCase());
    else ignored.push(receiver);
  }
  return { all, addresses: [...addresses], ignored };
}

const requiredText = (message: string, max: number) =>
  z
    .string({ error: message })
    .trim()
    .min(1, message)
    .max(max, `must be at most ${max} characters`)
    // eslint-disable-next-line no-control-regex -- NUL can't be stored; tabs and line breaks are text
    .refine((text) => !/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(text), {
      message: "must not contain control characters",
    });

/** POST /emails (admin). */
export const newsletterInputSchema = z.object({
  title: requiredText(NEWSLETTER_MESSAGES.subject, NEWSLETTER_TITLE_MAX).refine(
    (title) => !/[\r\n\t]/.test(title),
    "must be one line",
  ),
  message: requiredText(NEWSLETTER_MESSAGES.message, NEWSLETTER_MESSAGE_MAX),
  receivers: z
    .array(z.string({ error: "must be a list of e-mail addresses" }).max(1000), {
      error: "must be a list of e-mail addresses",
    })
    .max(NEWSLETTER_RECEIVERS_MAX, `must list at most ${NEWSLETTER_RECEIVERS_MAX} receivers`),
});
export type NewsletterInput = z.infer<typeof newsletterInputSchema>;

/** Delivery of one newsletter: its messages by state. */
export const deliverySchema = z.object({
  queued: z.number().int(),
  sent: z.number().int(),
  failed: z.number().int(),
});
export type Delivery = z.infer<typeof deliverySchema>;

/** POST /emails' reply: queued, not yet delivered (the mail worker sends them). */
export const newsletterSendReplySchema = z.object({
  msg: z.string(),
  id: z.number().int(),
  /** Messages queued: one per receiver. */
  queued: z.number().int(),
  /** Receivers left out: not an e-mail, or unsubscribed. */
  ignored: z.array(z.string()),
  skipped: z.number().int().describe("Typed addresses that unsubscribed from the newsletter"),
});
export type NewsletterSendReply = z.infer<typeof newsletterSendReplySchema>;

/** GET /emails (admin): the newsletters sent, newest first, each with its delivery. */
export const newsletterListQuerySchema = z.object(pageQuery(10));
export const newsletterSummarySchema = z.object({
  id: z.number().int(),
  title: z.string(),
  message: z.string(),
  createdAt: z.string(),
  sentBy: z.object({ id: z.number().int(), firstName: z.string(), lastName: z.string() }).nullable(),
  delivery: deliverySchema,
});
export type NewsletterSummary = z.infer<typeof newsletterSummarySchema>;
export const newsletterPageSchema = pageInfoSchema.extend({
  newsletters: z.array(newsletterSummarySchema),
  /** How many users 'All' reaches now. */
  subscribers: z.number().int(),
});
export type NewsletterPage = z.infer<typeof newsletterPageSchema>;

export const NETWORKS = ["facebook", "twitter", "instagram"] as const;
export type Network = (typeof NETWORKS)[number];

/** A network's link: empty (hidden from the footer) or an http(s) address. */
const networkLink = z
  .string({ error: "must be an http(s) address or empty" })
  .trim()
  .max(500, "must be at most 500 characters")
  .refine(
    (value) => value === "" || /^https?:\/\/[^\s/$.?#][^\s]*$/i.test(value),
    "must be an http(s) address or empty",
  );

/** POST /networks (admin): a network left out keeps its link; an empty one is hidden. */
export const networksInputSchema = z.object({
  facebook: networkLink.optional(),
  twitter: networkLink.optional(),
  instagram: networkLink.optional(),
});
export type NetworksInput = z.infer<typeof networksInputSchema>;
