ALTER TABLE "products" ADD COLUMN "rating_sum" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "rating_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE "products" SET "rating_sum" = r.sum, "rating_count" = r.count
FROM (SELECT "product_id", sum("rating")::int AS sum, count(*)::int AS count FROM "comments" GROUP BY "product_id") AS r
WHERE "products"."id" = r."product_id";
