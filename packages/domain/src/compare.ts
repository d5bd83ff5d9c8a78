import { z } from "zod";
import { brandRefSchema, productImageSchema } from "./catalog";
import { INT4_MAX } from "./http";
import { ratingSummarySchema } from "./reviews";
import { ATTRIBUTE_TYPES, BETTER_WHEN } from "./specs";

/**
 * Compare (issue 41, docs/product-rules.md §2.11): up to MAX_COMPARED products of one category, their
 * specifications side by side, the rows that differ and the best value of each row where the attribute
 * says whether higher or lower is better.
 */
export const MAX_COMPARED = 4;

/** `?ids=1,2,3`: distinct product ids, 2 to MAX_COMPARED of them. */
export const compareQuerySchema = z.object({
  ids: z
    .string({ error: "must be a comma list of product ids" })
    .max(100)
    .transform((text) => text.split(",").map((id) => id.trim()))
    .pipe(
      z
        .array(
          z
            .string()
            .regex(/^[1-9]\d{0,9}$/, "must be product ids")
            .transform(Number)
            .refine((id) => id <= INT4_MAX, "must be product ids"),
        )
        .min(1, "must name a product")
        .max(MAX_COMPARED, `must name at most ${MAX_COMPARED} products`)
        .refine((ids) => new Set(ids).size === ids.length, "must not name a product twice"),
    ),
});

export const compareReplySchema = z.object({
  category: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  attributes: z.array(
    z.object({
      key: z.string(),
      label: z.string(),
      unit: z.string(),
      type: z.enum(ATTRIBUTE_TYPES),
      betterWhen: z.enum(BETTER_WHEN).nullable(),
    }),
  ),
  products: z.array(
    z.object({
      id: z.number().int(),
      title: z.string(),
      price: z.number(),
      images: z.array(productImageSchema),
      brand: brandRefSchema.nullable(),
      rating: ratingSummarySchema,
      specs: z.record(z.string(), z.union([z.number(), z.string(), z.null()])),
    }),
  ),
  best: z
    .record(z.string(), z.array(z.number().int()))
    .describe("Per attribute key: the products with its best value"),
  differs: z.array(z.string()).describe("The attribute keys whose values differ"),
});
export type CompareReply = z.infer<typeof compareReplySchema>;
