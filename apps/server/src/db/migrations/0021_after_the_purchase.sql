-- Issue 23, after the purchase: tracking on single lines and bulk orders, each purchase's status history
-- (order_events, kept by the triggers at the end), single-use password reset tokens and back-in-stock requests.
CREATE TABLE "order_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" integer,
	"bulk_order_id" integer,
	"checkout_id" integer,
	"status" "order_status" NOT NULL,
	"tracking_number" text,
	"carrier" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "order_events_one_owner" CHECK (("order_events"."order_id" is null) <> ("order_events"."bulk_order_id" is null))
);
--> statement-breakpoint
CREATE TABLE "password_reset_tokens" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "password_reset_tokens_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "stock_alerts" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"notified_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "bulk_orders" ADD COLUMN "tracking_number" text;--> statement-breakpoint
ALTER TABLE "bulk_orders" ADD COLUMN "carrier" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "tracking_number" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "carrier" text;--> statement-breakpoint
ALTER TABLE "order_events" ADD CONSTRAINT "order_events_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_events" ADD CONSTRAINT "order_events_bulk_order_id_bulk_orders_id_fk" FOREIGN KEY ("bulk_order_id") REFERENCES "public"."bulk_orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_events" ADD CONSTRAINT "order_events_checkout_id_checkouts_id_fk" FOREIGN KEY ("checkout_id") REFERENCES "public"."checkouts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "password_reset_tokens" ADD CONSTRAINT "password_reset_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_alerts" ADD CONSTRAINT "stock_alerts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_alerts" ADD CONSTRAINT "stock_alerts_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "order_events_order_idx" ON "order_events" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "order_events_bulk_order_idx" ON "order_events" USING btree ("bulk_order_id");--> statement-breakpoint
CREATE INDEX "order_events_checkout_idx" ON "order_events" USING btree ("checkout_id");--> statement-breakpoint
CREATE INDEX "password_reset_tokens_user_idx" ON "password_reset_tokens" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "stock_alerts_open_key" ON "stock_alerts" USING btree ("user_id","product_id") WHERE "stock_alerts"."notified_at" is null;--> statement-breakpoint
CREATE INDEX "stock_alerts_product_open_idx" ON "stock_alerts" USING btree ("product_id") WHERE "stock_alerts"."notified_at" is null;--> statement-breakpoint
CREATE INDEX "orders_checkout_idx" ON "orders" USING btree ("checkout_id");--> statement-breakpoint
-- A purchase's history follows every status a paid single line or bulk order reaches, whichever code moved
-- it (settlement, the back office, a refund): rows are written in the changing transaction. Lines inside a
-- bulk order follow their bulk order, whose events stand for them; pending is not part of a history.
CREATE FUNCTION order_events_changed(old_row record, new_status order_status, new_tracking text, new_carrier text)
  RETURNS boolean AS $$
BEGIN
  IF new_status IN ('inWishList', 'inCart', 'pending') THEN
    RETURN false;
  END IF;
  RETURN old_row IS NULL OR old_row.status IS DISTINCT FROM new_status
    OR old_row.tracking_number IS DISTINCT FROM new_tracking OR old_row.carrier IS DISTINCT FROM new_carrier;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
-- A purchase written already paid (the demo seed, an import) was paid on its purchase date.
CREATE FUNCTION order_events_paid_on(new_status order_status, purchase_date timestamptz) RETURNS timestamptz AS $$
  SELECT CASE WHEN new_status = 'finished' THEN coalesce(purchase_date, now()) ELSE purchase_date END;
$$ LANGUAGE sql;
--> statement-breakpoint
CREATE FUNCTION orders_record_event() RETURNS trigger AS $$
BEGIN
  IF NEW.bulk_order_id IS NOT NULL
     OR NOT order_events_changed(CASE WHEN TG_OP = 'UPDATE' THEN OLD END, NEW.status, NEW.tracking_number, NEW.carrier) THEN
    RETURN NULL;
  END IF;
  IF TG_OP = 'INSERT' AND order_events_paid_on(NEW.status, NEW.server_purchase_date) IS NOT NULL THEN
    INSERT INTO order_events (order_id, checkout_id, status, created_at)
    VALUES (NEW.id, NEW.checkout_id, 'finished', order_events_paid_on(NEW.status, NEW.server_purchase_date));
  END IF;
  IF TG_OP = 'UPDATE' OR NEW.status <> 'finished' THEN
    INSERT INTO order_events (order_id, checkout_id, status, tracking_number, carrier)
    VALUES (NEW.id, NEW.checkout_id, NEW.status, NEW.tracking_number, NEW.carrier);
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE FUNCTION bulk_orders_record_event() RETURNS trigger AS $$
BEGIN
  IF NOT order_events_changed(CASE WHEN TG_OP = 'UPDATE' THEN OLD END, NEW.status, NEW.tracking_number, NEW.carrier) THEN
    RETURN NULL;
  END IF;
  IF TG_OP = 'INSERT' AND order_events_paid_on(NEW.status, NEW.server_purchase_date) IS NOT NULL THEN
    INSERT INTO order_events (bulk_order_id, checkout_id, status, created_at)
    VALUES (NEW.id, NEW.checkout_id, 'finished', order_events_paid_on(NEW.status, NEW.server_purchase_date));
  END IF;
  IF TG_OP = 'UPDATE' OR NEW.status <> 'finished' THEN
    INSERT INTO order_events (bulk_order_id, checkout_id, status, tracking_number, carrier)
    VALUES (NEW.id, NEW.checkout_id, NEW.status, NEW.tracking_number, NEW.carrier);
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER orders_events AFTER INSERT OR UPDATE OF status, tracking_number, carrier ON orders
  FOR EACH ROW EXECUTE FUNCTION orders_record_event();
--> statement-breakpoint
CREATE TRIGGER bulk_orders_events AFTER INSERT OR UPDATE OF status, tracking_number, carrier ON bulk_orders
  FOR EACH ROW EXECUTE FUNCTION bulk_orders_record_event();
--> statement-breakpoint
-- Purchases made before the history existed: paid when their purchase date says, and where they are now.
INSERT INTO order_events (order_id, checkout_id, status, created_at)
  SELECT id, checkout_id, 'finished', server_purchase_date FROM orders
  WHERE bulk_order_id IS NULL AND server_purchase_date IS NOT NULL AND status NOT IN ('inWishList', 'inCart', 'pending');
--> statement-breakpoint
INSERT INTO order_events (order_id, checkout_id, status, created_at)
  SELECT id, checkout_id, status, greatest(updated_at, server_purchase_date) FROM orders
  WHERE bulk_order_id IS NULL AND server_purchase_date IS NOT NULL AND status NOT IN ('inWishList', 'inCart', 'pending', 'finished');
--> statement-breakpoint
INSERT INTO order_events (bulk_order_id, checkout_id, status, created_at)
  SELECT id, checkout_id, 'finished', server_purchase_date FROM bulk_orders
  WHERE server_purchase_date IS NOT NULL AND status <> 'pending';
--> statement-breakpoint
INSERT INTO order_events (bulk_order_id, checkout_id, status, created_at)
  SELECT id, checkout_id, status, greatest(updated_at, server_purchase_date) FROM bulk_orders
  WHERE server_purchase_date IS NOT NULL AND status NOT IN ('pending', 'finished');
