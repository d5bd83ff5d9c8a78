import { z } from "zod";
import { imageUrlSchema, moneyInput } from "./admin";
import { INT4_MAX, idSchema, integerInput, lineSchema, numberInput } from "./http";
import { ATTRIBUTE_KEY, ATTRIBUTE_TYPES, BETTER_WHEN } from "./specs";
import { MAX_OPTIONS, MAX_OPTION_VALUES } from "./variants";

/**
 * The API's shapes of what describes products (issue 41, docs/product-rules.md §2.10, §7.3.1): brands,
 * the attributes each category's products are specified by, and a product's options and variants.
 */

const requiredLine = (max: number) => lineSchema(max).min(1, "must not be empty");

export const brandSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  slug: z.string(),
  logo: z.string().nullable(),
  productCount: z.number().int().describe("Products of the brand for sale"),
});
export type Brand = z.infer<typeof brandSchema>;

export const brandInputSchema = z.object({
  name: requiredLine(100),
  slug: lineSchema(60)
    .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, "must be lowercase letters, digits and single hyphens")
    .optional()
    .describe("Its name in URLs (`brand=logitech`); without it, made from the name"),
  // A picture as products take them (http(s) or an uploaded image); empty or null: no logo.
  logo: z
    .preprocess((value) => (value === "" ? null : value), imageUrlSchema.nullable())
    .optional()
    .describe("An http(s) address or an uploaded image (/uploads/…); null or empty: none"),
});
export type BrandInput = z.infer<typeof brandInputSchema>;

export const attributeSchema = z.object({
  id: z.number().int(),
  categoryId: z.number().int(),
  key: z.string(),
  label: z.string(),
  type: z.enum(ATTRIBUTE_TYPES),
  unit: z.string().nullable(),
  enumValues: z.array(z.string()),
  filterable: z.boolean(),
  betterWhen: z.enum(BETTER_WHEN).nullable(),
  position: z.number().int(),
});
export type Attribute = z.infer<typeof attributeSchema>;

export const attributeInputSchema = z
  .object({
    categoryId: idSchema,
    key: z
      .string({ error: "must be text" })
      .regex(ATTRIBUTE_KEY, "must start with a letter: lowercase letters, digits and _, at most 40"),
    label: requiredLine(100),
    type: z.enum(ATTRIBUTE_TYPES, { error: "must be number, text or enum" }),
    unit: lineSchema(20).nullable().optional(),
    enumValues: z
      .array(requiredLine(100), { error: "must be a list of values" })
      .max(50, "must list at most 50 values")
      .refine((values) => new Set(values.map((value) => value.toLowerCase())).size === values.length, {
        error: "must not repeat a value",
      })
      .default([]),
    filterable: z.boolean({ error: "must be true or false" }).default(true),
    betterWhen: z.enum(BETTER_WHEN, { error: "must be higher, lower or null" }).nullable().default(null),
    position: integerInput(0, 10_000).default(0),
  })
  .superRefine((input, context) => {
    if (input.type === "enum" && input.enumValues.length === 0)
      context.addIssue({ code: "custom", path: ["enumValues"], message: "an enum needs at least one value" });
    if (input.type !== "enum" && input.enumValues.length > 0)
      context.addIssue({ code: "custom", path: ["enumValues"], message: "only an enum has values" });
    if (input.type !== "number" && input.betterWhen !== null)
      context.addIssue({
        code: "custom",
        path: ["betterWhen"],
        message: "only a number is better higher or lower",
      });
  });
export type AttributeInput = z.infer<typeof attributeInputSchema>;

export const attributeListQuerySchema = z.object({ categoryId: idSchema.optional() });

/** PUT /products/:id/variants: the options, and every live variant (those not listed are retired). */
export const variantsInputSchema = z.object({
  options: z
    .array(
      z.object({
        name: requiredLine(40),
        values: z.array(requiredLine(60)).min(1, "needs at least one value").max(MAX_OPTION_VALUES),
      }),
    )
    .max(MAX_OPTIONS, `must list at most ${MAX_OPTIONS} options`),
  variants: z
    .array(
      z.object({
        id: idSchema.optional().describe("A variant the product has; without it, a new one"),
        sku: requiredLine(64),
        options: z.record(z.string(), z.string()).default({}),
        price: moneyInput("must be a price"),
        stock: numberInput(
          z
            .number({ error: "must be a number" })
            .int("must be a whole number")
            .min(0, "must be at least 0")
            .max(INT4_MAX),
        ),
        saleEligible: z.boolean({ error: "must be true or false" }).default(true),
        images: z
          .array(
            // As GET gives them ({url, altText}) or as addresses.
            z.union([imageUrlSchema, z.object({ url: imageUrlSchema }).transform(({ url }) => url)]),
            { error: "must be a list of image addresses" },
          )
          .max(20, "must list at most 20 images")
          .optional()
          .describe("Its own pictures (replacing those it had); absent: it keeps them; []: none"),
      }),
    )
    .min(1, "needs at least one variant")
    .max(200, "must list at most 200 variants"),
});
export type VariantsInput = z.infer<typeof variantsInputSchema>;

export const variantParamsSchema = z.object({ id: idSchema, variantId: idSchema });
