import { DEFAULT_PRODUCT_IMAGE, PRODUCT_MESSAGES } from "@voltio/domain/admin";
import type { Product } from "@voltio/domain/catalog";

/** The form as typed: numbers stay text until the schema reads them (it takes "31.50" and "7"). */
export interface ProductDraft {
  title: string;
  name: string;
  price: string;
  shippingCost: string;
  description: string;
  stock: string;
  images: string[];
  categories: string[];
}

export const EMPTY_DRAFT: ProductDraft = {
  title: "",
  name: "",
  price: "",
  shippingCost: "",
  description: "",
  stock: "",
  images: [],
  categories: [],
};

export const draftOf = (product: Product): ProductDraft => ({
  title: product.title,
  name: product.name,
  price: product.price.toFixed(2),
  shippingCost: product.shippingCost.toFixed(2),
  description: product.description,
  stock: String(product.stock),
  images: product.images.map((image) => image.url),
  categories: product.categories.map((category) => category.name),
});

/** What the live preview shows: the draft as the storefront's product card would draw it. */
export const previewOf = (draft: ProductDraft, id: number): Product => ({
  id,
  title: draft.title || "…",
  name: draft.name,
  price: Number(draft.price) || 0,
  shippingCost: Number(draft.shippingCost) || 0,
  stock: Number(draft.stock) || 0,
  description: draft.description,
  images: (draft.images.length ? draft.images : [DEFAULT_PRODUCT_IMAGE]).map((url) => ({ url, altText: "" })),
  categories: draft.categories.map((name, index) => ({ id: -index - 1, name })),
  sales: { productSales: [], categorySales: [] },
  rating: { average: 0, count: 0 },
  brand: null,
  specs: [],
  options: [],
  variants: [],
});

/** Why a submit was refused, as its dialog says it: fields left empty, amounts below zero, other rules. */
export type Refusal = "missing" | "negative" | "invalid";

const REQUIRED_MESSAGES = new Set<string>(
  Object.entries(PRODUCT_MESSAGES)
    .filter(([key]) => key !== "negative")
    .map(([, message]) => message),
);

/** The reasons behind the fields' messages, in the order the dialog reads them (docs/product-rules.md §9). */
export function refusalsOf(messages: readonly string[]): Refusal[] {
  const reasons = new Set<Refusal>();
  for (const message of messages) {
    if (REQUIRED_MESSAGES.has(message)) reasons.add("missing");
    else if (message === PRODUCT_MESSAGES.negative) reasons.add("negative");
    else reasons.add("invalid");
  }
  return (["missing", "negative", "invalid"] as const).filter((reason) => reasons.has(reason));
}
