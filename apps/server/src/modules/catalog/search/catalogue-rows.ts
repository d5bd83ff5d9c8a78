import type { RawQuery } from "../../../db/raw";

/**
 * What the search index reads from the database: the whole catalogue when it is built (search-index.ts), and
 * the products, stock, categories or links a change names when it is updated (live-index.ts).
 */

/** What a search needs to know of one product besides its words: the filters and sorts of the listing. */
export interface FactsRow {
  id: number;
  priceCents: number;
  shippingCostCents: number;
  stock: number;
  ratingSum: number;
  ratingCount: number;
}

export interface TextRow {
  id: number;
  title: string;
  name: string;
  description: string;
}

/** A product as the index reads it: its words and facts, and (for an update) its categories. */
export interface ProductRow extends TextRow, FactsRow {}
export interface ChangedProductRow extends ProductRow {
  categoryIds: number[];
}
export interface CategoryRow {
  id: number;
  name: string;
}
export interface LinkRow {
  productId: number;
  categoryId: number;
}

/** What changed since the index was read or last updated, as the notifications named it (db/changes.ts). */
export interface IndexChanges {
  /** Products whose words, prices, categories or presence changed. */
  products: Set<number>;
  /** Products whose stock or ratings alone changed. */
  stock: Set<number>;
  /** Every product's stock or ratings: more changed at once than a notification names. */
  allStock: boolean;
  /** The categories' names; every product's categories. */
  categories: boolean;
  links: boolean;
}

export const noChanges = (): IndexChanges => ({
  products: new Set(),
  stock: new Set(),
  allStock: false,
  categories: false,
  links: false,
});

export const hasChanges = (changes: IndexChanges) =>
  changes.products.size > 0 ||
  changes.stock.size > 0 ||
  changes.allStock ||
  changes.categories ||
  changes.links;

/** What an update read for its changes. */
export interface ChangedRows {
  products: ChangedProductRow[];
  stock: FactsRow[];
  allStock?: FactsRow[];
  categories?: CategoryRow[];
  links?: LinkRow[];
}

/**
 * The words a product is found by, for `products p`: its title; its brand with its name; and with its
 * description its specifications' values (numbers also as "32gb", as shoppers type them) and its live
 * variants' option values ("white wireless mouse", issue 41).
 */
export const SEARCH_TEXT_COLUMNS = `p.title,
  concat_ws(' ', (select b.name from brands b where b.id = p.brand_id), p.name) as name,
  concat_ws(' ', p.description,
    (select string_agg(coalesce(s.text_value, concat_ws(' ', trim_scale(s.number_value::numeric)::text, a.unit,
        trim_scale(s.number_value::numeric)::text || a.unit)), ' ')
       from product_specs s join attributes a on a.id = s.attribute_id where s.product_id = p.id),
    (select string_agg(o.value, ' ') from product_variants v, jsonb_each_text(v.options) o
       where v.product_id = p.id and v.retired_at is null)) as description`;

export const FACTS_COLUMNS = `price_cents as "priceCents", shipping_cost_cents as "shippingCostCents", stock,
  rating_sum as "ratingSum", rating_count as "ratingCount"`;
export const readCategories = (run: RawQuery) =>
  run<CategoryRow>("search_index_categories", "select id, name from categories", []);
export const readLinks = (run: RawQuery) =>
  run<LinkRow>(
    "search_index_links",
    `select product_id as "productId", category_id as "categoryId" from product_categories`,
    [],
  );
export const readAllFacts = (run: RawQuery) =>
  run<FactsRow>(
    "search_index_facts",
    `select id, ${FACTS_COLUMNS} from products where deleted_at is null`,
    [],
  );

/** Reads what `changes` names: only those products, unless a whole table changed. */
export async function readChanges(run: RawQuery, changes: IndexChanges): Promise<ChangedRows> {
  const [products, stock, allStock, categories, links] = await Promise.all([
    changes.products.size === 0
      ? []
      : run<ChangedProductRow>(
          "search_index_changed_products",
          `select id, ${SEARCH_TEXT_COLUMNS}, ${FACTS_COLUMNS},
             array(select category_id from product_categories c where c.product_id = p.id) as "categoryIds"
           from products p where id = any($1::int[]) and deleted_at is null`,
          [[...changes.products]],
        ),
    changes.stock.size === 0
      ? []
      : run<FactsRow>(
          "search_index_changed_stock",
          `select id, ${FACTS_COLUMNS} from products where id = any($1::int[]) and deleted_at is null`,
          [[...changes.stock]],
        ),
    changes.allStock ? readAllFacts(run) : undefined,
    changes.categories ? readCategories(run) : undefined,
    changes.links ? readLinks(run) : undefined,
  ]);
  return { products, stock, allStock, categories, links };
}
