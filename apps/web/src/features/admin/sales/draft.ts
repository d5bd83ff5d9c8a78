import type { FieldErrors as FormErrors, Resolver } from "react-hook-form";
import { SALE_MESSAGES, saleInputSchema } from "@voltio/domain/admin";
import type { Sale } from "@voltio/domain/catalog";
import { SALE_DAY_NAMES, type SaleDay } from "@voltio/domain/weekday";
import type { SaleBody, SaleDayName } from "./api";

/** A category or a product chosen in a binder. A product preselected by ?p= learns its name from the list. */
export interface Chosen {
  id: number;
  name?: string;
}

/** The sales form as typed: text stays text until the shared schema reads it. */
export interface SaleDraft {
  /** The sale being edited, or null when creating one. */
  id: number | null;
  description: string;
  percentage: string;
  requiresMore: boolean;
  /** 'How many?': the productAmount when requiresMore (default 1, docs/product-rules.md §13). */
  howMany: string;
  day: SaleDayName;
  image: string;
  categories: Chosen[];
  products: Chosen[];
}

/** The fields a message can stand beside: the draft's names ('How many?' is the schema's productAmount). */
export type SaleField =
  "description" | "percentage" | "howMany" | "day" | "image" | "categories" | "products";
export type FieldErrors = Partial<Record<SaleField, string>>;

/** The schema's (and the server's) key of each field, in the draft's name. */
const FIELDS: Record<string, SaleField> = {
  description: "description",
  percentage: "percentage",
  productAmount: "howMany",
  day: "day",
  image: "image",
  categories: "categories",
  products: "products",
};

export const emptyDraft = (products: Chosen[] = []): SaleDraft => ({
  id: null,
  description: "",
  percentage: "",
  requiresMore: false,
  howMany: "1",
  day: "all",
  image: "",
  categories: [],
  products,
});

/** The stored day ('mon') as the form's name ('monday'). */
export const dayName = (day: SaleDay): SaleDayName =>
  day === "all" ? "all" : (SALE_DAY_NAMES.find((name) => name.startsWith(day)) ?? "all");

/** A sale from GET /sale, loaded into the form to be edited. */
export const draftOf = (sale: Sale): SaleDraft => ({
  id: sale.id,
  description: sale.description,
  percentage: String(sale.percentage),
  requiresMore: sale.productAmount > 0,
  howMany: String(sale.productAmount > 0 ? sale.productAmount : 1),
  day: dayName(sale.day),
  image: sale.image,
  categories: sale.categories.map(({ id, name }) => ({ id, name })),
  products: sale.products.map(({ id, title }) => ({ id, name: title })),
});

/** The draft's field a message of the schema or of the server ('products.0', 'productAmount') belongs to. */
export function fieldOf(path: string): SaleField | undefined {
  const head = path.split(/[.[]/)[0] ?? "";
  return Object.hasOwn(FIELDS, head) ? FIELDS[head] : undefined;
}

/** The draft as the schema's input: 'No' sends productAmount 0, the binders send their ids. */
const inputOf = (draft: SaleDraft) => ({
  description: draft.description,
  percentage: draft.percentage,
  day: draft.day,
  productAmount: draft.requiresMore ? draft.howMany.trim() : 0,
  image: draft.image,
  categories: draft.categories.map(({ id }) => id),
  products: draft.products.map(({ id }) => id),
});

/**
 * react-hook-form's resolver for the draft: the same schema the server validates with
 * (packages/domain/src/admin.ts) reads the draft's input, and the first failed rule of each field is
 * filed under the draft's name, so the messages stand beside the fields the admin typed in. The values
 * are what POST/PUT /sale carry.
 */
export const saleResolver: Resolver<SaleDraft, unknown, SaleBody> = (draft) => {
  const parsed = saleInputSchema.safeParse(inputOf(draft));
  if (parsed.success) return { values: { ...parsed.data, day: draft.day }, errors: {} };
  const errors: FormErrors<SaleDraft> = {};
  for (const issue of parsed.error.issues) {
    const field = fieldOf(issue.path.map(String).join("."));
    if (!field || errors[field]) continue;
    // An empty 'How many?' is no number at all: zod's own wording says so less plainly.
    const message =
      field === "howMany" && issue.code === "invalid_type" ? "must be a whole number" : issue.message;
    errors[field] = { type: issue.code, message };
  }
  return { values: {}, errors };
};

/** Messages of the schema the screen knows how to say in the admin's language. */
const RULE_KEYS: Record<string, string> = {
  ...Object.fromEntries(Object.entries(SALE_MESSAGES).map(([key, message]) => [message, key])),
  "must be from 1 to 100": "percentageRange",
  "must be a whole number": "wholeNumber",
  "must be at most 200 characters": "descriptionTooLong",
};

/** A rule's message in the admin's language; a message the screen doesn't know is shown as it came. */
export function ruleText(t: (key: string) => string, message: string): string {
  const key = RULE_KEYS[message];
  return key ? t(`admin.sales.rules.${key}`) : message;
}

/** ?p={productId}: a product id, or null when the parameter is missing or not an id. */
export function preselectedProduct(value: string | null): number | null {
  if (!value || !/^[1-9]\d{0,9}$/.test(value)) return null;
  const id = Number(value);
  return id <= 2_147_483_647 ? id : null;
}
