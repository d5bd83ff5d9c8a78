-- Search ranks by where a word was found (issue 14): title (A), name (B), description (C) in one vector.
ALTER TABLE "products" DROP COLUMN "title_vector";--> statement-breakpoint
ALTER TABLE "products" DROP COLUMN "search_vector";--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "search_vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('simple'::regconfig, title), 'A') || setweight(to_tsvector('simple'::regconfig, name), 'B') || setweight(to_tsvector('simple'::regconfig, description), 'C')) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "products_search_idx" ON "products" USING gin ("search_vector");
