-- Search runs in each process since ADR 0011 (issue 25 point 2): nothing reads products.search_vector or
-- search_words any more, yet every product save and stock update still computed and collected them.
DROP TRIGGER IF EXISTS products_collect_search_words ON products;--> statement-breakpoint
DROP FUNCTION IF EXISTS products_collect_search_words();--> statement-breakpoint
DROP TABLE "search_words" CASCADE;--> statement-breakpoint
DROP INDEX "products_search_idx";--> statement-breakpoint
ALTER TABLE "products" DROP COLUMN "search_vector";
