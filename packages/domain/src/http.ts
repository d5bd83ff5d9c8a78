import { z } from "zod";

/**
 * The building blocks every API schema shares (docs/product-rules.md §10): ids, numbers typed into forms, text, and the
 * error reply. Clients send form values as they are typed, so a number may arrive as the canonical string
 * "31.50" or "7" — but never as "0x10", "1e3", " 7" or "", which JavaScript's Number() would quietly accept.
 */

/** PostgreSQL's integer: ids and counts beyond it can't be stored, so they are refused as input. */
export const INT4_MAX = 2_147_483_647;

const CANONICAL_NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?$/;

/** A canonical decimal string becomes its number; anything else is left for the number schema to refuse. */
const fromCanonicalString = (value: unknown) =>
  typeof value === "string" && CANONICAL_NUMBER.test(value) && value.length <= 20 ? Number(value) : value;

/** A number, or its canonical decimal string ("31.50", "7"). */
export const numberInput = <T extends z.ZodType<number>>(schema: T) =>
  z.preprocess(fromCanonicalString, schema);

const NUMBER_EXPECTED = { error: "must be a number" };

/** A whole number from `min` to `max` (at most INT4_MAX), as a number or its decimal string. */
export const integerInput = (min: number, max = INT4_MAX) =>
  numberInput(
    z
      .number(NUMBER_EXPECTED)
      .int("must be a whole number")
      .min(min, `must be at least ${min}`)
      .max(max, `must be at most ${max}`),
  );

/** A record id: a positive integer that fits the database's integer column. */
export const idSchema = integerInput(1);

export const idParamSchema = z.object({ id: idSchema });

/** `true` or `false`, as a query string carries them. */
export const queryBooleanSchema = z
  .enum(["true", "false"], { error: "must be true or false" })
  .transform((value) => value === "true");

/** Control characters (a NUL byte can't even be stored in PostgreSQL text) have no place in a name or a search. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
export const PRINTABLE = /^[^\u0000-\u001f\u007f]*$/;

/** One line of text, trimmed, without control characters, at most `max` characters. */
export const lineSchema = (max: number) =>
  z
    .string({ error: "must be text" })
    .trim()
    .max(max, `must be at most ${max} characters`)
    .regex(PRINTABLE, "must not contain control characters");

/** Every 4xx reply: a message, and the field and reason of each problem with the input. */
export const errorSchema = z.object({
  error: z.string(),
  details: z.array(z.object({ field: z.string(), reason: z.string() })).optional(),
});
export type ErrorReply = z.infer<typeof errorSchema>;

/** docs/product-rules.md §10.7: an expired access token answers 403 with the error's name, which the client refreshes on. */
export const tokenExpiredSchema = z.object({ error: z.object({ name: z.string(), message: z.string() }) });

export const messageReplySchema = z.object({ msg: z.string() });

/** The most rows one page of a back-office list may hold. */
export const PAGE_LIMIT_MAX = 100;

/** `?page=1&limit=20`: a 1-based page of a list the server pages. */
export const pageQuery = (defaultLimit: number) => ({
  page: integerInput(1).default(1),
  limit: integerInput(1, PAGE_LIMIT_MAX).default(defaultLimit),
});

/** What every paged reply says besides its rows. */
export const pageInfoSchema = z.object({
  page: z.number().int(),
  totalPages: z.number().int(),
  total: z.number().int(),
});
export type PageInfo = z.infer<typeof pageInfoSchema>;

export const pageInfo = (page: number, limit: number, total: number): PageInfo => ({
  page,
  totalPages: Math.ceil(total / limit),
  total,
});
