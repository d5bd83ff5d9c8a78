import { z } from "zod";
import { PAYMENT_PROVIDERS } from "./payments";
import { ratingSummarySchema } from "./reviews";
import { idSchema, integerInput, lineSchema, numberInput, queryBooleanSchema } from "./http";
import { SALE_DAYS } from "./weekday";
import { SEARCH_MAX_LENGTH } from "./listing";

// What a listing page reads from its query lives without zod in listing.ts (the storefront's first paint).
export {
  SEARCH_MAX_LENGTH,
  listingApiPath,
  listingFilters,
  searchTooLong,
  type ListingFilters,
} from "./listing";

/** Schemas of the catalogue API (docs/product-rules.md §10): the server validates with them, the web client types with them. */

export const PRODUCTS_DEFAULT_LIMIT = 16;
export const PRODUCTS_MAX_LIMIT = 1000;

const money = numberInput(
  z
    .number({ error: "must be a number" })
    .min(0, "must be at least 0")
    .max(10_000_000, "must be at most 10000000"),
);
const searchSchema = lineSchema(SEARCH_MAX_LENGTH);

/** A query parameter given once or repeated (`brand=a&brand=b`): always a list. */
const repeatable = <T extends z.ZodType<string>>(item: T) =>
  z
    .union([item, z.array(item).max(20, "must be repeated at most 20 times")])
    .transform((value) => (Array.isArray(value) ? value : [value]));

const productListQueryObject = z.object({
  search: searchSchema.optional(),
  categoryId: idSchema.optional(),
  offset: integerInput(1, 1_000_000).default(1),
  limit: integerInput(1, PRODUCTS_MAX_LIMIT).default(PRODUCTS_DEFAULT_LIMIT),
  minPrice: money.optional(),
  maxPrice: money.optional(),
  freeShipping: queryBooleanSchema.optional(),
  order: z
    .enum(["ASC", "DESC", "RATING"], { error: "must be ASC, DESC (by price) or RATING (best rated first)" })
    .optional(),
  includeOutOfStock: queryBooleanSchema.optional(),
  // Facet filters (issue 41, docs/product-rules.md §2.11); `spec.<key>`, `spec.<key>.min`, `.max` below.
  brand: repeatable(lineSchema(60)).optional().describe("A brand's slug; repeated: any of them"),
  minRating: integerInput(1, 5).optional().describe("Rated at least this on average"),
  inStock: queryBooleanSchema.optional().describe("true: only what can be bought now"),
  maxStock: integerInput(0).optional().describe("At most this many units (the back office's low stock)"),
  // The contract writes `facets=1`; the storefront writes `true`.
  facets: z
    .enum(["true", "1", "false", "0"], { error: "must be true or 1 (or false or 0)" })
    .transform((value) => value === "true" || value === "1")
    .optional()
    .describe("true or 1: the reply adds the counts per value of each facet, each under every other filter"),
});

export const productListQuerySchema = productListQueryObject
  // Any other parameter is taken and dropped (listingQueryOf), but `spec.` ones, read by the facets.
  .catchall(
    z
      .union([z.string(), z.array(z.string())])
      .describe(
        "`spec.<key>=<value>` (repeated: any of them; a number range as its facet names it, `16..32`) and `spec.<key>.min` / `.max` for numbers",
      ),
  )
  .refine((q) => q.minPrice === undefined || q.maxPrice === undefined || q.minPrice <= q.maxPrice, {
    path: ["maxPrice"],
    message: "maxPrice must be greater than or equal to minPrice",
  });
/**
 * The listing's query as the server reads it: the named parameters, and the `spec.` ones gathered by their
 * parameter name (`{"spec.ram_gb.min": ["16"], "spec.connection": ["Wireless", "Bluetooth"]}`).
 */
export type ProductListQuery = z.infer<typeof productListQueryObject> & { spec?: Record<string, string[]> };

/**
 * The listing's query out of a parsed one: its named parameters and its `spec.` ones; any other parameter
 * of the catch-all is dropped, as unknown parameters always were.
 */
export function listingQueryOf(parsed: Record<string, unknown>): ProductListQuery {
  const named = Object.fromEntries(
    Object.entries(parsed).filter(([key]) => key in productListQueryObject.shape),
  ) as ProductListQuery;
  const spec = Object.entries(parsed)
    .filter(([key]) => key.startsWith("spec."))
    .map(([key, value]) => [key, (Array.isArray(value) ? value : [value]).map(String)] as const)
    .sort(([a], [b]) => (a < b ? -1 : 1));
  return spec.length ? { ...named, spec: Object.fromEntries(spec) } : named;
}

export const saleTermsSchema = z.object({
  id: z.number().int(),
  percentage: z.number().int(),
  day: z.enum(SALE_DAYS),
  productAmount: z.number().int(),
});

export const productImageSchema = z.object({ url: z.string(), altText: z.string() });
export const categoryRefSchema = z.object({ id: z.number().int(), name: z.string() });

export const brandRefSchema = z.object({ id: z.number().int(), name: z.string(), slug: z.string() });
export type BrandRef = z.infer<typeof brandRefSchema>;
export const specValueSchema = z.object({
  key: z.string(),
  label: z.string(),
  value: z.union([z.number(), z.string()]),
  unit: z.string(),
});
export const productOptionSchema = z.object({ name: z.string(), values: z.array(z.string()) });
export const variantSchema = z.object({
  id: z.number().int(),
  sku: z.string(),
  options: z.record(z.string(), z.string()).describe("{<option name>: <value>}; {} for a default variant"),
  price: z.number().describe("US dollars, 2 decimals"),
  stock: z.number().int().describe("What can be bought now: on the shelf, less other checkouts' holds"),
  images: z.array(productImageSchema).describe("Its own pictures; none: the product's"),
  saleEligible: z.boolean().describe("Whether the product's and its categories' sales discount it"),
});
export type Variant = z.infer<typeof variantSchema>;

export const productSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  name: z.string(),
  price: z.number().describe("US dollars, 2 decimals"),
  shippingCost: z.number().describe("US dollars, 2 decimals"),
  stock: z.number().int(),
  description: z.string(),
  images: z.array(productImageSchema),
  categories: z.array(categoryRefSchema),
  sales: z.object({ productSales: z.array(saleTermsSchema), categorySales: z.array(saleTermsSchema) }),
  rating: ratingSummarySchema,
  brand: brandRefSchema.nullable(),
  specs: z.array(specValueSchema),
  options: z.array(productOptionSchema).describe("Up to 3; none for a product sold one way"),
  variants: z
    .array(variantSchema)
    .describe("Its live variants; one default variant (options {}) for a product without options"),
});
export type Product = z.infer<typeof productSchema>;

/** One value of a facet and how many products the other filters leave with it. */
export const facetValueSchema = z.object({ value: z.string(), label: z.string(), count: z.number().int() });
export type FacetValue = z.infer<typeof facetValueSchema>;
/** A filterable attribute, as the filter panel draws it (numbers: a range within min..max). */
export const facetAttributeSchema = z.object({
  key: z.string(),
  label: z.string(),
  type: z.enum(["number", "text", "enum"]),
  unit: z.string(),
  min: z.number().nullable(),
  max: z.number().nullable(),
});
export type FacetAttribute = z.infer<typeof facetAttributeSchema>;

export const productListSchema = z.object({
  products: z.array(productSchema),
  pages: z.number().int().describe("Same as totalPages, kept for clients written against the SPEC"),
  totalPages: z.number().int(),
  page: z.number().int(),
  total: z.number().int(),
  globalSales: z.array(saleTermsSchema),
  facets: z
    .record(z.string(), z.array(facetValueSchema))
    .optional()
    .describe(
      "With facets=true: brand, rating, availability and each filterable attribute's key (a number with more than 10 values: up to 5 ranges, value `<from>..<to>`)",
    ),
  facetAttributes: z.array(facetAttributeSchema).optional(),
});
export type ProductList = z.infer<typeof productListSchema>;

export const categoryQuerySchema = z.object({
  search: searchSchema.optional(),
  withProducts: queryBooleanSchema
    .optional()
    .describe("true: only categories with a product for sale (the storefront's menus); the admin lists all"),
});
export const categorySchema = z.object({ id: z.number().int(), name: z.string(), image: z.string() });
export type Category = z.infer<typeof categorySchema>;

export const networksSchema = z.object({ facebook: z.string(), twitter: z.string(), instagram: z.string() });
export type Networks = z.infer<typeof networksSchema>;

export const saleQuerySchema = z.object({
  limit: integerInput(1, PRODUCTS_MAX_LIMIT).optional(),
});
export const saleSchema = saleTermsSchema.extend({
  description: z.string(),
  image: z.string(),
  categories: z.array(categoryRefSchema),
  products: z.array(z.object({ id: z.number().int(), title: z.string() })),
});
export type Sale = z.infer<typeof saleSchema>;

/** What the storefront needs to price like the server: the store's weekday decides which sales run. */
export const storeInfoSchema = z.object({
  name: z.string(),
  currency: z.literal("USD"),
  timeZone: z.string(),
  today: z.enum(["sun", "mon", "tue", "wed", "thu", "fri", "sat"]),
  paymentProvider: z.enum(PAYMENT_PROVIDERS),
});
export type StoreInfo = z.infer<typeof storeInfoSchema>;
