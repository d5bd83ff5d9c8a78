/** docs/product-rules.md §12: the admin list starts at limit 8, offset 1. */
export const ADMIN_LIMIT = 8;

/** The low-stock filter's choices (GET /products maxStock=): sold out, then a few thresholds. */
export const LOW_STOCK_CHOICES = [0, 5, 10, 20] as const;

const positive = (value: string | null, fallback: number) => {
  const number = Number(value);
  return Number.isInteger(number) && number > 0 ? number : fallback;
};

/** GET /products takes brand slugs of up to 60 characters. */
const MAX_SLUG = 60;

export interface AdminListFilters {
  search?: string;
  categoryId?: number;
  brand?: string;
  maxStock?: number;
  limit: number;
  offset: number;
  includeOutOfStock: true;
}

/**
 * /admin/products' filters from its URL (issue 41 point 8 adds brand and low stock): what GET /products is
 * asked, every product out of stock included. A malformed value is dropped, not sent to be refused.
 */
export function adminListFilters(params: URLSearchParams): AdminListFilters {
  const brand = params.get("brand")?.trim();
  const maxStock = params.get("maxStock");
  const stock = maxStock === null || maxStock.trim() === "" ? NaN : Number(maxStock);
  return {
    search: params.get("search") ?? undefined,
    categoryId: positive(params.get("categoryId"), 0) || undefined,
    brand: brand && brand.length <= MAX_SLUG ? brand : undefined,
    maxStock: Number.isInteger(stock) && stock >= 0 ? stock : undefined,
    limit: positive(params.get("limit"), ADMIN_LIMIT),
    offset: positive(params.get("offset"), 1),
    includeOutOfStock: true,
  };
}
