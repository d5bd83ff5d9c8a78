-- Issue 12, the back office: the dashboard's order statistics (day and month summaries kept by triggers on
-- orders and bulk_orders, and the store time zone they count days in), categories unique by name whatever its
-- case (found or created by name), and an index for the dashboard's latest shoppers.
CREATE TABLE "order_stats_daily" (
	"day" date NOT NULL,
	"status" "order_status" NOT NULL,
	"orders" integer DEFAULT 0 NOT NULL,
	"units" integer DEFAULT 0 NOT NULL,
	"sales_cents" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "order_stats_daily_day_status_pk" PRIMARY KEY("day","status")
);
--> statement-breakpoint
CREATE TABLE "product_stats_daily" (
	"day" date NOT NULL,
	"product_id" integer NOT NULL,
	"units" integer DEFAULT 0 NOT NULL,
	"sales_cents" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "product_stats_daily_day_product_id_pk" PRIMARY KEY("day","product_id")
);
--> statement-breakpoint
CREATE TABLE "product_stats_monthly" (
	"month" date NOT NULL,
	"product_id" integer NOT NULL,
	"units" integer DEFAULT 0 NOT NULL,
	"sales_cents" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "product_stats_monthly_month_product_id_pk" PRIMARY KEY("month","product_id")
);
--> statement-breakpoint
CREATE TABLE "store_settings" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"time_zone" text DEFAULT 'UTC' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "store_settings_single_row" CHECK ("store_settings"."id" = 1)
);
--> statement-breakpoint
ALTER TABLE "categories" DROP CONSTRAINT "categories_name_unique";--> statement-breakpoint
ALTER TABLE "product_stats_daily" ADD CONSTRAINT "product_stats_daily_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_stats_monthly" ADD CONSTRAINT "product_stats_monthly_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "categories_name_lower_key" ON "categories" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "users_latest_shoppers_idx" ON "users" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "users"."rol" = 'user' and "users"."deleted_at" is null;
--> statement-breakpoint
INSERT INTO "store_settings" ("id") VALUES (1);
--> statement-breakpoint
-- The dashboard's summaries (order_stats_daily, product_stats_daily, product_stats_monthly) follow every
-- change to orders and bulk_orders in the changing transaction, through the statement triggers below. Lines
-- count on the day of their purchase date in the store's time zone; a bulk order counts as one purchase and
-- its lines add their units and sales. Removed rows are taken away (sign -1) and added rows added (+1), in
-- key order, so two transactions touching the same days lock their rows in the same order.
CREATE FUNCTION order_stats_apply(removed orders[], added orders[]) RETURNS void AS $$
  WITH line AS (
    SELECT (l.server_purchase_date AT TIME ZONE s.time_zone)::date AS day, l.status, l.product_id,
      CASE WHEN l.bulk_order_id IS NULL THEN c.sign ELSE 0 END AS purchases,
      c.sign * l.amount AS units,
      c.sign * coalesce(l.line_total_cents, 0)::bigint AS sales_cents
    FROM (SELECT -1 AS sign, removed AS lines UNION ALL SELECT 1, added) AS c
    CROSS JOIN LATERAL unnest(c.lines) AS l
    CROSS JOIN store_settings AS s
    WHERE l.server_purchase_date IS NOT NULL
  ), by_status AS (
    INSERT INTO order_stats_daily AS d (day, status, orders, units, sales_cents)
    SELECT day, status, sum(purchases), sum(units), sum(sales_cents) FROM line
    GROUP BY day, status
    HAVING sum(purchases) <> 0 OR sum(units) <> 0 OR sum(sales_cents) <> 0
    ORDER BY day, status
    ON CONFLICT (day, status) DO UPDATE SET orders = d.orders + excluded.orders,
      units = d.units + excluded.units, sales_cents = d.sales_cents + excluded.sales_cents, updated_at = now()
  ), paid AS (
    SELECT * FROM line WHERE status IN ('finished', 'preparing', 'onDelivery', 'delivered')
  ), by_product_day AS (
    INSERT INTO product_stats_daily AS p (day, product_id, units, sales_cents)
    SELECT day, product_id, sum(units), sum(sales_cents) FROM paid
    GROUP BY day, product_id
    HAVING sum(units) <> 0 OR sum(sales_cents) <> 0
    ORDER BY day, product_id
    ON CONFLICT (day, product_id) DO UPDATE SET units = p.units + excluded.units,
      sales_cents = p.sales_cents + excluded.sales_cents, updated_at = now()
  )
  INSERT INTO product_stats_monthly AS m (month, product_id, units, sales_cents)
  SELECT date_trunc('month', day)::date, product_id, sum(units), sum(sales_cents) FROM paid
  GROUP BY 1, 2
  HAVING sum(units) <> 0 OR sum(sales_cents) <> 0
  ORDER BY 1, 2
  ON CONFLICT (month, product_id) DO UPDATE SET units = m.units + excluded.units,
    sales_cents = m.sales_cents + excluded.sales_cents, updated_at = now();
$$ LANGUAGE sql;
--> statement-breakpoint
CREATE FUNCTION bulk_order_stats_apply(removed bulk_orders[], added bulk_orders[]) RETURNS void AS $$
  INSERT INTO order_stats_daily AS d (day, status, orders)
  SELECT (b.server_purchase_date AT TIME ZONE s.time_zone)::date, b.status, sum(c.sign)
  FROM (SELECT -1 AS sign, removed AS bulks UNION ALL SELECT 1, added) AS c
  CROSS JOIN LATERAL unnest(c.bulks) AS b
  CROSS JOIN store_settings AS s
  WHERE b.server_purchase_date IS NOT NULL
  GROUP BY 1, 2
  HAVING sum(c.sign) <> 0
  ORDER BY 1, 2
  ON CONFLICT (day, status) DO UPDATE SET orders = d.orders + excluded.orders, updated_at = now();
$$ LANGUAGE sql;
--> statement-breakpoint
-- Only rows with a purchase date, and on UPDATE only rows whose counted columns changed: a cart's amount,
-- a flag or an address moves no figure and touches no summary row.
CREATE FUNCTION orders_count_in_stats() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM order_stats_apply('{}', array_agg(n::orders)) FROM new_rows n
    WHERE n.server_purchase_date IS NOT NULL HAVING count(*) > 0;
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM order_stats_apply(array_agg(o::orders), '{}') FROM old_rows o
    WHERE o.server_purchase_date IS NOT NULL HAVING count(*) > 0;
  ELSE
    PERFORM order_stats_apply(array_agg(o::orders), array_agg(n::orders)) FROM old_rows o JOIN new_rows n USING (id)
    WHERE (o.server_purchase_date IS NOT NULL OR n.server_purchase_date IS NOT NULL)
      AND (o.server_purchase_date, o.status, o.product_id, o.amount, o.line_total_cents, o.bulk_order_id)
        IS DISTINCT FROM (n.server_purchase_date, n.status, n.product_id, n.amount, n.line_total_cents, n.bulk_order_id)
    HAVING count(*) > 0;
  END IF;
  RETURN NULL;
END
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE FUNCTION bulk_orders_count_in_stats() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM bulk_order_stats_apply('{}', array_agg(n::bulk_orders)) FROM new_rows n
    WHERE n.server_purchase_date IS NOT NULL HAVING count(*) > 0;
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM bulk_order_stats_apply(array_agg(o::bulk_orders), '{}') FROM old_rows o
    WHERE o.server_purchase_date IS NOT NULL HAVING count(*) > 0;
  ELSE
    PERFORM bulk_order_stats_apply(array_agg(o::bulk_orders), array_agg(n::bulk_orders)) FROM old_rows o JOIN new_rows n USING (id)
    WHERE (o.server_purchase_date IS NOT NULL OR n.server_purchase_date IS NOT NULL)
      AND (o.server_purchase_date, o.status) IS DISTINCT FROM (n.server_purchase_date, n.status)
    HAVING count(*) > 0;
  END IF;
  RETURN NULL;
END
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER orders_stats_insert AFTER INSERT ON orders
REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION orders_count_in_stats();
--> statement-breakpoint
CREATE TRIGGER orders_stats_update AFTER UPDATE ON orders
REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION orders_count_in_stats();
--> statement-breakpoint
CREATE TRIGGER orders_stats_delete AFTER DELETE ON orders
REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION orders_count_in_stats();
--> statement-breakpoint
CREATE TRIGGER bulk_orders_stats_insert AFTER INSERT ON bulk_orders
REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION bulk_orders_count_in_stats();
--> statement-breakpoint
CREATE TRIGGER bulk_orders_stats_update AFTER UPDATE ON bulk_orders
REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION bulk_orders_count_in_stats();
--> statement-breakpoint
CREATE TRIGGER bulk_orders_stats_delete AFTER DELETE ON bulk_orders
REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION bulk_orders_count_in_stats();
--> statement-breakpoint
-- The summaries from scratch: after this migration, and when STORE_TIMEZONE changes (days move). A month of
-- purchases at a time, so the arrays stay small whatever the store's size.
CREATE FUNCTION rebuild_order_stats() RETURNS void AS $$
DECLARE
  month timestamptz;
BEGIN
  DELETE FROM order_stats_daily;
  DELETE FROM product_stats_daily;
  DELETE FROM product_stats_monthly;
  FOR month IN
    SELECT DISTINCT date_trunc('month', server_purchase_date) FROM orders WHERE server_purchase_date IS NOT NULL
    UNION
    SELECT DISTINCT date_trunc('month', server_purchase_date) FROM bulk_orders WHERE server_purchase_date IS NOT NULL
  LOOP
    PERFORM order_stats_apply('{}', array_agg(o)) FROM orders o
    WHERE o.server_purchase_date >= month AND o.server_purchase_date < month + interval '1 month'
    HAVING count(*) > 0;
    PERFORM bulk_order_stats_apply('{}', array_agg(b)) FROM bulk_orders b
    WHERE b.server_purchase_date >= month AND b.server_purchase_date < month + interval '1 month'
    HAVING count(*) > 0;
  END LOOP;
END
$$ LANGUAGE plpgsql;
--> statement-breakpoint
SELECT rebuild_order_stats();
