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
  /** 'How many?': the productAmount when requiresMore (default 1, SPEC.md §3). */
  howMany: string;
  day: SaleDayName;
  image: string;
  categories: Chosen[];
  products: Chosen[];
}

/** The fields a message can stand beside: the schema's keys. */
export type SaleField =
  "description" | "percentage" | "productAmount" | "day" | "image" | "categories" | "products";
export type FieldErrors = Partial<Record<SaleField, string>>;

const FIELDS: readonly SaleField[] = [
  "description",
  "percentage",
  "productAmount",
  "day",
  "image",
  "categories",
  "products",
];

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

/** The field a message of the schema or of the server ('products.0', 'image') belongs to. */
export function fieldOf(path: string): SaleField | undefined {
  const head = path.split(/[.[]/)[0];
  return FIELDS.find((field) => field === head);
}

export type Checked = { ok: true; body: SaleBody } | { ok: false; errors: FieldErrors };

/**
 * The draft read by the same schema the server validates with (packages/domain/src/admin.ts): the first
 * failed rule of each field, or what POST/PUT /sale carry. 'No' sends productAmount 0.
 */
export function checkDraft(draft: SaleDraft): Checked {
  const parsed = saleInputSchema.safeParse({
    description: draft.description,
    percentage: draft.percentage,
    day: draft.day,
    productAmount: draft.requiresMore ? draft.howMany.trim() : 0,
    image: draft.image,
    categories: draft.categories.map(({ id }) => id),
    products: draft.products.map(({ id }) => id),
  });
  if (parsed.success) return { ok: true, body: { ...parsed.data, day: draft.day } };
  const errors: FieldErrors = {};
  for (const issue of parsed.error.issues) {
    const field = fieldOf(issue.path.map(String).join("."));
    // An empty 'How many?' is no number at all: zod's own wording says so less plainly.
    const message =
      field === "productAmount" && issue.code === "invalid_type" ? "must be a whole number" : issue.message;
    if (field && !errors[field]) errors[field] = message;
  }
  return { ok: false, errors };
}

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
