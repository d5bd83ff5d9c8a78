-- Incremental search (issue 22 point 2): notifications name the products that changed, so every process
-- updates those products in its search index instead of building it again. Payloads on voltio_changes
-- (db/changes.ts): 'products:1,2' a product's listing fields, pictures or categories; 'stock:1,2' only its
-- stock or ratings; 'products' / 'stock' more than 100 products at once; 'categories' their names; 'links'
-- many products' categories at once; 'reference' sales, networks, store settings; 'holds' (0016).
-- Transition tables carry a statement's rows: one notification per statement, not one per row.
CREATE OR REPLACE FUNCTION voltio_notify_ids(kind text, ids integer[], overflow text) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  IF coalesce(cardinality(ids), 0) = 0 THEN
    RETURN;
  ELSIF cardinality(ids) > 100 THEN
    PERFORM pg_notify('voltio_changes', overflow);
  ELSE
    PERFORM pg_notify('voltio_changes', kind || ':' || array_to_string(ids, ','));
  END IF;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION voltio_notify_products() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM voltio_notify_ids('products', (SELECT array_agg(DISTINCT id) FROM new_rows), 'products');
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM voltio_notify_ids('products', (SELECT array_agg(DISTINCT id) FROM old_rows), 'products');
  ELSE
    -- What the listing shows changed, or only stock and ratings (a sale, a review).
    PERFORM voltio_notify_ids('products', (
      SELECT array_agg(DISTINCT n.id) FROM new_rows n JOIN old_rows o USING (id)
      WHERE (o.title, o.name, o.price_cents, o.shipping_cost_cents, o.description, o.deleted_at)
        IS DISTINCT FROM (n.title, n.name, n.price_cents, n.shipping_cost_cents, n.description, n.deleted_at)
    ), 'products');
    PERFORM voltio_notify_ids('stock', (
      SELECT array_agg(DISTINCT n.id) FROM new_rows n JOIN old_rows o USING (id)
      WHERE (o.title, o.name, o.price_cents, o.shipping_cost_cents, o.description, o.deleted_at)
        IS NOT DISTINCT FROM (n.title, n.name, n.price_cents, n.shipping_cost_cents, n.description, n.deleted_at)
    ), 'stock');
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
-- A product's pictures or categories: TG_ARGV[0] is what to say when more than 100 products changed.
CREATE OR REPLACE FUNCTION voltio_notify_product_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM voltio_notify_ids('products', (SELECT array_agg(DISTINCT product_id) FROM new_rows), TG_ARGV[0]);
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM voltio_notify_ids('products', (SELECT array_agg(DISTINCT product_id) FROM old_rows), TG_ARGV[0]);
  ELSE
    PERFORM voltio_notify_ids('products', (
      SELECT array_agg(DISTINCT product_id) FROM (SELECT product_id FROM new_rows UNION SELECT product_id FROM old_rows) r
    ), TG_ARGV[0]);
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION voltio_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('voltio_changes', TG_ARGV[0]);
  RETURN NULL;
END $$;--> statement-breakpoint
DROP TRIGGER products_notify ON products;--> statement-breakpoint
CREATE TRIGGER products_notify_insert AFTER INSERT ON products REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION voltio_notify_products();--> statement-breakpoint
CREATE TRIGGER products_notify_update AFTER UPDATE ON products REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION voltio_notify_products();--> statement-breakpoint
CREATE TRIGGER products_notify_delete AFTER DELETE ON products REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION voltio_notify_products();--> statement-breakpoint
CREATE TRIGGER products_notify_truncate AFTER TRUNCATE ON products FOR EACH STATEMENT EXECUTE FUNCTION voltio_notify('catalog');--> statement-breakpoint
DROP TRIGGER product_categories_notify ON product_categories;--> statement-breakpoint
CREATE TRIGGER product_categories_notify_insert AFTER INSERT ON product_categories REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION voltio_notify_product_rows('links');--> statement-breakpoint
CREATE TRIGGER product_categories_notify_update AFTER UPDATE ON product_categories REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION voltio_notify_product_rows('links');--> statement-breakpoint
CREATE TRIGGER product_categories_notify_delete AFTER DELETE ON product_categories REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION voltio_notify_product_rows('links');--> statement-breakpoint
CREATE TRIGGER product_categories_notify_truncate AFTER TRUNCATE ON product_categories FOR EACH STATEMENT EXECUTE FUNCTION voltio_notify('links');--> statement-breakpoint
-- Pictures aren't searched: many at once only drop the replies.
DROP TRIGGER product_images_notify ON product_images;--> statement-breakpoint
CREATE TRIGGER product_images_notify_insert AFTER INSERT ON product_images REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION voltio_notify_product_rows('reference');--> statement-breakpoint
CREATE TRIGGER product_images_notify_update AFTER UPDATE ON product_images REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION voltio_notify_product_rows('reference');--> statement-breakpoint
CREATE TRIGGER product_images_notify_delete AFTER DELETE ON product_images REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION voltio_notify_product_rows('reference');--> statement-breakpoint
CREATE TRIGGER product_images_notify_truncate AFTER TRUNCATE ON product_images FOR EACH STATEMENT EXECUTE FUNCTION voltio_notify('reference');--> statement-breakpoint
DROP TRIGGER categories_notify ON categories;--> statement-breakpoint
CREATE TRIGGER categories_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON categories FOR EACH STATEMENT EXECUTE FUNCTION voltio_notify('categories');--> statement-breakpoint
DROP TRIGGER sales_notify ON sales;--> statement-breakpoint
CREATE TRIGGER sales_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON sales FOR EACH STATEMENT EXECUTE FUNCTION voltio_notify('reference');--> statement-breakpoint
DROP TRIGGER sale_products_notify ON sale_products;--> statement-breakpoint
CREATE TRIGGER sale_products_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON sale_products FOR EACH STATEMENT EXECUTE FUNCTION voltio_notify('reference');--> statement-breakpoint
DROP TRIGGER sale_categories_notify ON sale_categories;--> statement-breakpoint
CREATE TRIGGER sale_categories_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON sale_categories FOR EACH STATEMENT EXECUTE FUNCTION voltio_notify('reference');--> statement-breakpoint
DROP TRIGGER networks_notify ON networks;--> statement-breakpoint
CREATE TRIGGER networks_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON networks FOR EACH STATEMENT EXECUTE FUNCTION voltio_notify('reference');--> statement-breakpoint
DROP TRIGGER store_settings_notify ON store_settings;--> statement-breakpoint
CREATE TRIGGER store_settings_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON store_settings FOR EACH STATEMENT EXECUTE FUNCTION voltio_notify('reference');--> statement-breakpoint
DROP FUNCTION voltio_notify_product();--> statement-breakpoint
DROP FUNCTION voltio_notify_catalog();--> statement-breakpoint
DROP FUNCTION voltio_notify_stock();
