-- Changes reach every process (issue 22 point 1): a write to what processes keep copies of NOTIFYs channel
-- voltio_changes from its own transaction, whoever makes it (the app, a CLI, SQL by hand). 'catalog': products,
-- their pictures and categories, categories, sales, networks, store settings; 'stock': a product's stock or
-- ratings, or a checkout's holds. PostgreSQL sends one notification per distinct payload per transaction.
CREATE OR REPLACE FUNCTION voltio_notify_catalog() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('voltio_changes', 'catalog');
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION voltio_notify_stock() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('voltio_changes', 'stock');
  RETURN NULL;
END $$;--> statement-breakpoint
-- A product's row: only stock or ratings moved (a sale, a review) is 'stock'; anything else is 'catalog'.
CREATE OR REPLACE FUNCTION voltio_notify_product() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND (OLD.title, OLD.name, OLD.price_cents, OLD.shipping_cost_cents, OLD.description, OLD.deleted_at)
    IS NOT DISTINCT FROM (NEW.title, NEW.name, NEW.price_cents, NEW.shipping_cost_cents, NEW.description, NEW.deleted_at) THEN
    PERFORM pg_notify('voltio_changes', 'stock');
  ELSE
    PERFORM pg_notify('voltio_changes', 'catalog');
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER products_notify AFTER INSERT OR UPDATE OR DELETE ON products FOR EACH ROW EXECUTE FUNCTION voltio_notify_product();--> statement-breakpoint
CREATE TRIGGER product_images_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON product_images FOR EACH STATEMENT EXECUTE FUNCTION voltio_notify_catalog();--> statement-breakpoint
CREATE TRIGGER product_categories_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON product_categories FOR EACH STATEMENT EXECUTE FUNCTION voltio_notify_catalog();--> statement-breakpoint
CREATE TRIGGER categories_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON categories FOR EACH STATEMENT EXECUTE FUNCTION voltio_notify_catalog();--> statement-breakpoint
CREATE TRIGGER sales_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON sales FOR EACH STATEMENT EXECUTE FUNCTION voltio_notify_catalog();--> statement-breakpoint
CREATE TRIGGER sale_products_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON sale_products FOR EACH STATEMENT EXECUTE FUNCTION voltio_notify_catalog();--> statement-breakpoint
CREATE TRIGGER sale_categories_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON sale_categories FOR EACH STATEMENT EXECUTE FUNCTION voltio_notify_catalog();--> statement-breakpoint
CREATE TRIGGER networks_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON networks FOR EACH STATEMENT EXECUTE FUNCTION voltio_notify_catalog();--> statement-breakpoint
CREATE TRIGGER store_settings_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON store_settings FOR EACH STATEMENT EXECUTE FUNCTION voltio_notify_catalog();--> statement-breakpoint
CREATE TRIGGER stock_holds_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON stock_holds FOR EACH STATEMENT EXECUTE FUNCTION voltio_notify_stock();
