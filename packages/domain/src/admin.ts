import { z } from "zod";
import { INT4_MAX, PRINTABLE, idSchema, numberInput } from "./http";
import { storedDescription } from "./description";
import { SALE_DAYS, normalizeSaleDay } from "./weekday";

/**
 * What the back office sends (docs/product-rules.md §1 Admin create/edit product, Admin discounts; §9 Validation rules):
 * the same schemas validate the admin forms in the browser and the admin routes on the server,
 * with the SPEC's own messages.
 */

export const PRODUCT_MESSAGES = {
  title: "enter the title please",
  name: "enter the name please",
  price: "enter the price please",
  shippingCost: "enter the shipping Cost please",
  description: "enter the description please",
  images: "enter the images please",
  stock: "enter the stock please",
  categories: "enter the categories please",
  negative: "The value cannot be negative",
} as const;

/** The picture a product gets when none is given (docs/product-rules.md §9). */
export const DEFAULT_PRODUCT_IMAGE = "/illustrations/placeholder.svg";

const requiredText = (message: string, max: number) =>
  z
    .string({ error: message })
    .trim()
    .min(1, message)
    .max(max, `must be at most ${max} characters`)
    .regex(PRINTABLE, "must not contain control characters");

/** A money amount as typed: "31.50" or 31.5, required, not negative, at most 2 decimals. */
export const moneyInput = (required: string) =>
  numberInput(
    z
      .number({ error: required })
      .min(0, PRODUCT_MESSAGES.negative)
      .max(10_000_000, "must be at most 10000000")
      .refine(
        (value) => Math.round(value * 100) === Number((value * 100).toFixed(6)),
        "must have at most 2 decimals",
      ),
  );

/** A path with a `.` or `..` segment: it could climb out of the folder it names. */
const climbs = (path: string) => path.split("/").some((segment) => segment === "." || segment === "..");

/**
 * An image address: http(s), or a picture this store serves (/uploads/…, /illustrations/…, with the
 * `?label=` the demo pictures carry), so a product or sale sent back unchanged by an edit form passes.
 */
const isImageAddress = (value: string) =>
  /^https?:\/\/[^\s]+$/i.test(value) ||
  (/^\/(uploads|illustrations)\/[\w./-]+(\?[\w.%!~*'()=&-]*)?$/.test(value) && !climbs(value.split("?")[0]!));

/**
 * A picture file on the admin's own site given as a path, such as the fallback SPEC's client bundles
 * (/static/media/no-image.1234abcd.png, or static/media/no-image.png): plain segments only, so no scheme, no
 * host (`//…`), no backslash, no percent-encoding and no `..`.
 */
const SITE_PATH =
  /^\/?[\w~@+,=-][\w.~@+,=-]*(\/[\w.~@+,=-]+)*\.(png|jpe?g|gif|webp|avif|svg|bmp|ico)(\?[\w.%~=&+-]*)?$/i;
const isSitePath = (value: string) => SITE_PATH.test(value) && !climbs(value.split("?")[0]!);

export const imageUrlSchema = z
  .string({ error: "must be an image address" })
  .trim()
  .max(2000, "must be at most 2000 characters")
  .refine(
    (value) => isImageAddress(value) || isSitePath(value),
    "must be an http(s) address or an uploaded image",
  )
  // From the site's root: a relative path would resolve against whichever page shows the picture.
  .transform((value) => (isSitePath(value) && !value.startsWith("/") ? `/${value}` : value));

/**
 * A client written against docs/product-rules.md sends back what GET gave it: a picture as `{url, altText}`, a category
 * as `{id, name}`, a sale's product or category as the object it picked. Each is taken as the plain value
 * it carries (the same rules apply to it); anything else in the object is ignored.
 */
const orObjectOf = <Value extends z.ZodType>(key: string, value: Value) =>
  z.union([
    value,
    z.object({ [key]: value }).transform((object) => (object as Record<string, z.output<Value>>)[key]!),
  ]);

/**
 * Specifications as GET /products/:id gave them (`[{key, label, value, unit}]`: a client sends back what it
 * read) become the `{key: value}` the form sends; anything else is left for the schema to refuse.
 */
const specsAsRecord = (value: unknown) =>
  Array.isArray(value) &&
  value.every(
    (spec) =>
      typeof spec === "object" && spec !== null && typeof (spec as { key?: unknown }).key === "string",
  )
    ? Object.fromEntries(
        value.map((spec: { key: string; value?: unknown }) => [spec.key, spec.value ?? null]),
      )
    : value;

/** POST /products and PUT /products/:id (admin): categories are names, found or created. */
export const productInputSchema = z.object({
  title: requiredText(PRODUCT_MESSAGES.title, 300),
  name: requiredText(PRODUCT_MESSAGES.name, 500),
  price: moneyInput(PRODUCT_MESSAGES.price),
  shippingCost: moneyInput(PRODUCT_MESSAGES.shippingCost),
  description: z
    .string({ error: PRODUCT_MESSAGES.description })
    .trim()
    .min(1, PRODUCT_MESSAGES.description)
    .max(10_000, "must be at most 10000 characters")
    .transform(storedDescription),
  stock: numberInput(
    z
      .number({ error: PRODUCT_MESSAGES.stock })
      .int("must be a whole number")
      .min(0, PRODUCT_MESSAGES.negative)
      .max(INT4_MAX, `must be at most ${INT4_MAX}`),
  ),
  /**
   * The stock the edit form loaded: the edit is the change from it, refused (409, with the stock now) when
   * sales or holds moved it meanwhile. Without it, the stock sent is taken as what is for sale now.
   */
  stockBefore: numberInput(
    z
      .number({ error: "must be a number" })
      .int("must be a whole number")
      .min(0, "must be at least 0")
      .max(INT4_MAX, `must be at most ${INT4_MAX}`),
  ).optional(),
  /** Empty: the default picture (docs/product-rules.md §9). */
  images: z
    .array(orObjectOf("url", imageUrlSchema), { error: PRODUCT_MESSAGES.images })
    .max(20, "must list at most 20 images")
    .default([]),
  categories: z
    .array(orObjectOf("name", requiredText(PRODUCT_MESSAGES.categories, 100)), {
      error: PRODUCT_MESSAGES.categories,
    })
    .min(1, PRODUCT_MESSAGES.categories)
    .max(20, "must list at most 20 categories"),
  /** Issue 41: absent keeps the product's brand; null takes it away. */
  brandId: idSchema.nullable().optional(),
  /**
   * Issue 41: values of the product's categories' attributes by key, checked against each attribute's type
   * (`specs.<key>`); null removes one. Absent keeps the product's specifications.
   */
  specs: z
    .preprocess(
      specsAsRecord,
      z.record(
        z.string().regex(/^[a-z][a-z0-9_]{0,39}$/, "must be an attribute key"),
        z.union([z.string().max(200), z.number(), z.null()], { error: "must be a number, a text or null" }),
      ),
    )
    .optional(),
});
export type ProductInput = z.infer<typeof productInputSchema>;

export const SALE_MESSAGES = {
  descriptionRequired: "Description required",
  descriptionInvalid: "Invalid description",
  percentageRequired: "Percentage required",
  percentageInvalid: "Invalid percentage",
  imageInvalid: "Invalid link image",
  missing: "Some fields are missing. Check again",
} as const;

/** docs/product-rules.md §9: letters, digits, underscore, colon, space, ampersand and parentheses. */
const SALE_DESCRIPTION = /^[A-Za-z0-9_: &()]+$/;

/** POST /sale and PUT /sale (admin). `day` takes monday..sunday, mon..sun or all; stored as mon..sun|all. */
export const saleInputSchema = z.object({
  description: z
    .string({ error: SALE_MESSAGES.descriptionRequired })
    .trim()
    .min(1, SALE_MESSAGES.descriptionRequired)
    .max(200, "must be at most 200 characters")
    .regex(SALE_DESCRIPTION, SALE_MESSAGES.descriptionInvalid),
  percentage: z
    .union([z.number(), z.string()], { error: SALE_MESSAGES.percentageRequired })
    .transform((value) => String(value).trim())
    .refine((value) => value.length > 0, SALE_MESSAGES.percentageRequired)
    .refine((value) => /^\d{1,3}$/.test(value), SALE_MESSAGES.percentageInvalid)
    .transform(Number)
    .refine((value) => value >= 1 && value <= 100, "must be from 1 to 100"),
  day: z
    .string({ error: `must be one of monday..sunday, ${SALE_DAYS.join(", ")}` })
    .transform((value, context) => {
      const day = normalizeSaleDay(value);
      if (!day) {
        context.addIssue({ code: "custom", message: "must be monday..sunday, mon..sun or all" });
        return z.NEVER;
      }
      return day;
    })
    .default("all"),
  productAmount: numberInput(
    z
      .number({ error: "must be a number" })
      .int("must be a whole number")
      .min(0, "must be at least 0")
      .max(1000, "must be at most 1000"),
  ).default(0),
  image: z
    .string({ error: SALE_MESSAGES.imageInvalid })
    .trim()
    .max(2000, "must be at most 2000 characters")
    .refine((value) => value === "" || isImageAddress(value), SALE_MESSAGES.imageInvalid)
    .default(""),
  categories: z.array(orObjectOf("id", idSchema)).max(1000).default([]),
  products: z.array(orObjectOf("id", idSchema)).max(1000).default([]),
});
export type SaleInput = z.infer<typeof saleInputSchema>;
export const saleUpdateSchema = saleInputSchema.extend({ id: idSchema });
export const saleDeleteQuerySchema = z.object({ saleId: idSchema });

/** The longest period the dashboard shows at once: a leap year, both ends included. */
export const STATS_MAX_DAYS = 366;
export const STATS_DEFAULT_DAYS = 30;

/** A calendar date as YYYY-MM-DD ("2026-02-30" is refused, not rolled over to March). */
const dateOnly = z
  .string({ error: "must be a date such as 2026-11-24" })
  .regex(/^\d{4}-\d{2}-\d{2}$/, { message: "must be a date such as 2026-11-24", abort: true })
  .refine((value) => {
    const day = new Date(`${value}T00:00:00Z`);
    // Year 0 exists in JavaScript's calendar, not in PostgreSQL's.
    return !Number.isNaN(day.getTime()) && day.toISOString().startsWith(value) && !value.startsWith("0000");
  }, "must be a date that exists");

/**
 * GET /stats?from&to (admin): days of the store's time zone, both included and both optional (`to` is
 * today, `from` the start of the STATS_DEFAULT_DAYS ending on `to`); at most STATS_MAX_DAYS days.
 */
export const statsQuerySchema = z.object({ from: dateOnly.optional(), to: dateOnly.optional() });
export type StatsQuery = z.infer<typeof statsQuerySchema>;

/** The dashboard's figures (docs/product-rules.md §1 Admin dashboard), aggregated in SQL. Money in US dollars. */
export const statsReplySchema = z.object({
  from: z.string(),
  to: z.string(),
  /** The 'ventas' line: paid orders per day. */
  salesByDay: z.array(z.object({ date: z.string(), sales: z.number(), orders: z.number().int() })),
  ordersByStatus: z.array(z.object({ status: z.string(), count: z.number().int() })),
  topProducts: z.array(
    z.object({ productId: z.number().int(), title: z.string(), units: z.number().int(), sales: z.number() }),
  ),
  latestUsers: z.array(
    z.object({
      id: z.number().int(),
      firstName: z.string(),
      lastName: z.string(),
      email: z.string(),
      createdAt: z.string(),
    }),
  ),
});
export type StatsReply = z.infer<typeof statsReplySchema>;
