-- Single orders and bulk orders take their ids from one sequence, so no id names a purchase of each kind:
-- SPEC's client moves a single order by PUT /order/:id and a bulk order by PUT /order/bulk/:id, and a call sent
-- to the wrong kind's address now finds nothing instead of moving another purchase. The sequence starts past
-- every id either table holds (ids given before this may still coincide).
WITH taken AS (
  SELECT greatest(
    (SELECT coalesce(max("id"), 0) FROM "orders"),
    (SELECT coalesce(max("id"), 0) FROM "bulk_orders"),
    (SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM "orders_id_seq")
  ) AS last_id
)
SELECT setval('"orders_id_seq"', greatest(last_id, 1), last_id > 0) FROM taken;--> statement-breakpoint
ALTER TABLE "bulk_orders" ALTER COLUMN "id" SET DEFAULT nextval('"orders_id_seq"');--> statement-breakpoint
DROP SEQUENCE "bulk_orders_id_seq";
