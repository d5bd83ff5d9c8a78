-- A checkout's holds change what replies show for sale, not the shelf the search index reads: they NOTIFY
-- 'holds', so other processes drop their replies without re-reading every product's stock (issue 22).
CREATE OR REPLACE FUNCTION voltio_notify_holds() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('voltio_changes', 'holds');
  RETURN NULL;
END $$;--> statement-breakpoint
DROP TRIGGER stock_holds_notify ON stock_holds;--> statement-breakpoint
CREATE TRIGGER stock_holds_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON stock_holds FOR EACH STATEMENT EXECUTE FUNCTION voltio_notify_holds();
