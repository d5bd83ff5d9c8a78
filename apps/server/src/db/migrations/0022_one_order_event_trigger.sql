-- Migration 0021 wrote the purchase history's trigger twice, once per table, alike but for the column the
-- event points at. One function now serves both tables; what it records is unchanged.
CREATE FUNCTION record_order_event() RETURNS trigger AS $$
DECLARE
  bulk boolean := TG_TABLE_NAME = 'bulk_orders';
  paid_on timestamptz := order_events_paid_on(NEW.status, NEW.server_purchase_date);
BEGIN
  -- Lines inside a bulk order follow their bulk order, whose events stand for them. (Nested: a bulk order's
  -- row has no bulk_order_id to read.)
  IF NOT bulk THEN
    IF NEW.bulk_order_id IS NOT NULL THEN
      RETURN NULL;
    END IF;
  END IF;
  IF NOT order_events_changed(CASE WHEN TG_OP = 'UPDATE' THEN OLD END, NEW.status, NEW.tracking_number, NEW.carrier) THEN
    RETURN NULL;
  END IF;
  IF TG_OP = 'INSERT' AND paid_on IS NOT NULL THEN
    INSERT INTO order_events (order_id, bulk_order_id, checkout_id, status, created_at)
    VALUES (CASE WHEN NOT bulk THEN NEW.id END, CASE WHEN bulk THEN NEW.id END, NEW.checkout_id, 'finished', paid_on);
  END IF;
  IF TG_OP = 'UPDATE' OR NEW.status <> 'finished' THEN
    INSERT INTO order_events (order_id, bulk_order_id, checkout_id, status, tracking_number, carrier)
    VALUES (CASE WHEN NOT bulk THEN NEW.id END, CASE WHEN bulk THEN NEW.id END, NEW.checkout_id, NEW.status,
            NEW.tracking_number, NEW.carrier);
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
DROP TRIGGER orders_events ON orders;
--> statement-breakpoint
DROP TRIGGER bulk_orders_events ON bulk_orders;
--> statement-breakpoint
CREATE TRIGGER orders_events AFTER INSERT OR UPDATE OF status, tracking_number, carrier ON orders
  FOR EACH ROW EXECUTE FUNCTION record_order_event();
--> statement-breakpoint
CREATE TRIGGER bulk_orders_events AFTER INSERT OR UPDATE OF status, tracking_number, carrier ON bulk_orders
  FOR EACH ROW EXECUTE FUNCTION record_order_event();
--> statement-breakpoint
DROP FUNCTION orders_record_event();
--> statement-breakpoint
DROP FUNCTION bulk_orders_record_event();
