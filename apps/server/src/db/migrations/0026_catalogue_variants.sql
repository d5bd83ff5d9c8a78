-- Issue 41, a tech store's catalogue: brands, typed specifications per category, and variants. Every product
-- gets one default variant holding its price and stock (SKU P<id>); order lines, stock holds and back-in-stock
-- requests now name their variant, filled in with that default variant: nothing existing changes meaning.
CREATE TYPE "public"."attribute_type" AS ENUM('number', 'text', 'enum');
--> statement-breakpoint
CREATE TYPE "public"."better_when" AS ENUM('higher', 'lower');
--> statement-breakpoint
CREATE TABLE "attributes" (
	"id" serial PRIMARY KEY NOT NULL,
	"category_id" integer NOT NULL,
	"key" text NOT NULL,
	"label" text NOT NULL,
	"type" "attribute_type" NOT NULL,
	"unit" text DEFAULT '' NOT NULL,
	"enum_values" text[] DEFAULT '{}'::text[] NOT NULL,
	"filterable" boolean DEFAULT true NOT NULL,
	"better_when" "better_when",
	"position" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "attributes_category_key" UNIQUE("category_id","key")
);
--> statement-breakpoint
CREATE TABLE "brands" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"slug" text NOT NULL,
	"logo" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "brands_slug_key" UNIQUE("slug")
);
--> statement-breakpoint
CREATE TABLE "product_specs" (
	"product_id" integer NOT NULL,
	"attribute_id" integer NOT NULL,
	"number_value" double precision,
	"text_value" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "product_specs_product_id_attribute_id_pk" PRIMARY KEY("product_id","attribute_id"),
	CONSTRAINT "product_specs_one_value" CHECK (("product_specs"."number_value" is null) <> ("product_specs"."text_value" is null))
);
--> statement-breakpoint
CREATE TABLE "product_variants" (
	"id" serial PRIMARY KEY NOT NULL,
	"product_id" integer NOT NULL,
	"sku" text NOT NULL,
	"options" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"price_cents" integer NOT NULL,
	"stock" integer DEFAULT 0 NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"sale_eligible" boolean DEFAULT true NOT NULL,
	"retired_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "product_variants_sku_key" UNIQUE("sku"),
	CONSTRAINT "product_variants_id_product_key" UNIQUE("id","product_id"),
	CONSTRAINT "product_variants_price_cents" CHECK ("product_variants"."price_cents" >= 0),
	CONSTRAINT "product_variants_stock" CHECK ("product_variants"."stock" >= 0)
);
--> statement-breakpoint
ALTER TABLE "product_images" ADD COLUMN "variant_id" integer;
--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "brand_id" integer;
--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "options" jsonb DEFAULT '[]'::jsonb NOT NULL;
--> statement-breakpoint
INSERT INTO "product_variants" ("product_id", "sku", "price_cents", "stock", "created_at", "updated_at")
SELECT "id", 'P' || "id", "price_cents", "stock", "created_at", "updated_at" FROM "products" ORDER BY "id";
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "variant_id" integer;
--> statement-breakpoint
UPDATE "orders" t SET "variant_id" = v."id" FROM "product_variants" v WHERE v."product_id" = t."product_id";
--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "variant_id" SET NOT NULL;
--> statement-breakpoint
ALTER TABLE "stock_alerts" ADD COLUMN "variant_id" integer;
--> statement-breakpoint
UPDATE "stock_alerts" t SET "variant_id" = v."id" FROM "product_variants" v WHERE v."product_id" = t."product_id";
--> statement-breakpoint
ALTER TABLE "stock_alerts" ALTER COLUMN "variant_id" SET NOT NULL;
--> statement-breakpoint
ALTER TABLE "stock_holds" ADD COLUMN "variant_id" integer;
--> statement-breakpoint
UPDATE "stock_holds" t SET "variant_id" = v."id" FROM "product_variants" v WHERE v."product_id" = t."product_id";
--> statement-breakpoint
ALTER TABLE "stock_holds" ALTER COLUMN "variant_id" SET NOT NULL;
--> statement-breakpoint
DROP INDEX "orders_user_product_list_key";
--> statement-breakpoint
DROP INDEX "stock_alerts_open_key";
--> statement-breakpoint
ALTER TABLE "attributes" ADD CONSTRAINT "attributes_category_id_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."categories"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "product_specs" ADD CONSTRAINT "product_specs_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "product_specs" ADD CONSTRAINT "product_specs_attribute_id_attributes_id_fk" FOREIGN KEY ("attribute_id") REFERENCES "public"."attributes"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "product_variants" ADD CONSTRAINT "product_variants_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "brands_name_lower_key" ON "brands" USING btree (lower("name"));
--> statement-breakpoint
CREATE INDEX "product_specs_number_idx" ON "product_specs" USING btree ("attribute_id","number_value","product_id");
--> statement-breakpoint
CREATE INDEX "product_specs_text_idx" ON "product_specs" USING btree ("attribute_id","text_value","product_id");
--> statement-breakpoint
CREATE UNIQUE INDEX "product_variants_live_options_key" ON "product_variants" USING btree ("product_id","options") WHERE "product_variants"."retired_at" is null;
--> statement-breakpoint
CREATE INDEX "product_variants_product_idx" ON "product_variants" USING btree ("product_id","position");
--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_variant_fk" FOREIGN KEY ("variant_id","product_id") REFERENCES "public"."product_variants"("id","product_id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "product_images" ADD CONSTRAINT "product_images_variant_id_product_variants_id_fk" FOREIGN KEY ("variant_id") REFERENCES "public"."product_variants"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_brand_id_brands_id_fk" FOREIGN KEY ("brand_id") REFERENCES "public"."brands"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "stock_alerts" ADD CONSTRAINT "stock_alerts_variant_fk" FOREIGN KEY ("variant_id","product_id") REFERENCES "public"."product_variants"("id","product_id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "stock_holds" ADD CONSTRAINT "stock_holds_variant_fk" FOREIGN KEY ("variant_id","product_id") REFERENCES "public"."product_variants"("id","product_id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "orders_user_variant_list_key" ON "orders" USING btree ("user_id","variant_id","status") WHERE "orders"."status" in ('inWishList', 'inCart');
--> statement-breakpoint
CREATE INDEX "orders_variant_idx" ON "orders" USING btree ("variant_id");
--> statement-breakpoint
CREATE INDEX "product_images_variant_idx" ON "product_images" USING btree ("variant_id");
--> statement-breakpoint
CREATE INDEX "products_brand_idx" ON "products" USING btree ("brand_id");
--> statement-breakpoint
CREATE INDEX "stock_holds_variant_idx" ON "stock_holds" USING btree ("variant_id","expires_at");
--> statement-breakpoint
CREATE UNIQUE INDEX "stock_alerts_open_key" ON "stock_alerts" USING btree ("user_id","variant_id") WHERE "stock_alerts"."notified_at" is null;
--> statement-breakpoint
-- SPEC's calls name products, not variants: a line, hold or request that names none gets the product's
-- default variant (its first live one), so clients and code written before variants keep working.
CREATE FUNCTION fill_default_variant() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.variant_id IS NULL THEN
    SELECT v.id INTO NEW.variant_id FROM product_variants v
    WHERE v.product_id = NEW.product_id
    ORDER BY v.retired_at IS NOT NULL, v.position, v.id LIMIT 1;
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER orders_default_variant BEFORE INSERT ON orders FOR EACH ROW EXECUTE FUNCTION fill_default_variant();
--> statement-breakpoint
CREATE TRIGGER stock_holds_default_variant BEFORE INSERT ON stock_holds FOR EACH ROW EXECUTE FUNCTION fill_default_variant();
--> statement-breakpoint
CREATE TRIGGER stock_alerts_default_variant BEFORE INSERT ON stock_alerts FOR EACH ROW EXECUTE FUNCTION fill_default_variant();
--> statement-breakpoint
-- A new product is sold one way until it is given options: its default variant carries its price and stock.
CREATE FUNCTION product_default_variant() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO product_variants (product_id, sku, price_cents, stock)
  SELECT n.id, 'P' || n.id, n.price_cents, n.stock FROM new_rows n;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER products_default_variant AFTER INSERT ON products REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION product_default_variant();
--> statement-breakpoint
-- A write of a product's price or stock (SPEC's product form, code and tests of before) is its variant's when
-- it is sold one way. Not when the write comes from the variants' own trigger below (pg_trigger_depth).
CREATE FUNCTION product_single_variant_follows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF pg_trigger_depth() > 1 OR NEW.options <> '[]'::jsonb THEN
    RETURN NULL;
  END IF;
  UPDATE product_variants SET price_cents = NEW.price_cents, stock = NEW.stock
  WHERE product_id = NEW.id AND retired_at IS NULL
    AND (price_cents, stock) IS DISTINCT FROM (NEW.price_cents, NEW.stock);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER products_single_variant AFTER UPDATE OF price_cents, stock ON products FOR EACH ROW
  WHEN ((OLD.price_cents, OLD.stock) IS DISTINCT FROM (NEW.price_cents, NEW.stock))
  EXECUTE FUNCTION product_single_variant_follows();
--> statement-breakpoint
-- Listings read the product alone: its stock is its live variants' sum, its price their lowest ("from $X").
-- Lock order (inventory/stock.ts): a transaction that writes variants locks their products first.
CREATE FUNCTION product_variants_sum_up() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF pg_trigger_depth() > 1 THEN
    RETURN NULL;
  END IF;
  UPDATE products p SET stock = s.stock, price_cents = coalesce(s.price, p.price_cents)
  FROM (
    SELECT ids.id, coalesce(sum(v.stock), 0)::int AS stock, min(v.price_cents) AS price
    FROM (SELECT product_id AS id FROM changed_rows GROUP BY product_id) ids
    LEFT JOIN product_variants v ON v.product_id = ids.id AND v.retired_at IS NULL
    GROUP BY ids.id
  ) s
  WHERE p.id = s.id AND (p.stock, p.price_cents) IS DISTINCT FROM (s.stock, coalesce(s.price, p.price_cents));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER product_variants_sum_up_insert AFTER INSERT ON product_variants REFERENCING NEW TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION product_variants_sum_up();
--> statement-breakpoint
CREATE TRIGGER product_variants_sum_up_update AFTER UPDATE ON product_variants REFERENCING NEW TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION product_variants_sum_up();
--> statement-breakpoint
CREATE TRIGGER product_variants_sum_up_delete AFTER DELETE ON product_variants REFERENCING OLD TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION product_variants_sum_up();
--> statement-breakpoint
-- Every process learns of them (db/changes.ts): variants, specs name their products; brands and attributes,
-- rarely changed, drop every copy.
-- A variant's price or stock alone ('stock': replies, not the search index), or what it is ('products').
CREATE FUNCTION voltio_notify_variants() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM voltio_notify_ids('products', (SELECT array_agg(DISTINCT product_id) FROM new_rows), 'products');
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM voltio_notify_ids('products', (SELECT array_agg(DISTINCT product_id) FROM old_rows), 'products');
  ELSE
    PERFORM voltio_notify_ids('products', (
      SELECT array_agg(DISTINCT n.product_id) FROM new_rows n JOIN old_rows o USING (id)
      WHERE (o.sku, o.options, o.position, o.sale_eligible, o.retired_at)
        IS DISTINCT FROM (n.sku, n.options, n.position, n.sale_eligible, n.retired_at)
    ), 'products');
    PERFORM voltio_notify_ids('stock', (
      SELECT array_agg(DISTINCT n.product_id) FROM new_rows n JOIN old_rows o USING (id)
      WHERE (o.sku, o.options, o.position, o.sale_eligible, o.retired_at)
        IS NOT DISTINCT FROM (n.sku, n.options, n.position, n.sale_eligible, n.retired_at)
    ), 'stock');
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER product_variants_notify_insert AFTER INSERT ON product_variants REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION voltio_notify_variants();
--> statement-breakpoint
CREATE TRIGGER product_variants_notify_update AFTER UPDATE ON product_variants REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION voltio_notify_variants();
--> statement-breakpoint
CREATE TRIGGER product_variants_notify_delete AFTER DELETE ON product_variants REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION voltio_notify_variants();
--> statement-breakpoint
CREATE TRIGGER product_variants_notify_truncate AFTER TRUNCATE ON product_variants FOR EACH STATEMENT EXECUTE FUNCTION voltio_notify('catalog');
--> statement-breakpoint
CREATE TRIGGER product_specs_notify_insert AFTER INSERT ON product_specs REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION voltio_notify_product_rows('products');
--> statement-breakpoint
CREATE TRIGGER product_specs_notify_update AFTER UPDATE ON product_specs REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION voltio_notify_product_rows('products');
--> statement-breakpoint
CREATE TRIGGER product_specs_notify_delete AFTER DELETE ON product_specs REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION voltio_notify_product_rows('products');
--> statement-breakpoint
CREATE TRIGGER product_specs_notify_truncate AFTER TRUNCATE ON product_specs FOR EACH STATEMENT EXECUTE FUNCTION voltio_notify('catalog');
--> statement-breakpoint
CREATE TRIGGER brands_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON brands FOR EACH STATEMENT EXECUTE FUNCTION voltio_notify('catalog');
--> statement-breakpoint
CREATE TRIGGER attributes_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON attributes FOR EACH STATEMENT EXECUTE FUNCTION voltio_notify('catalog');
