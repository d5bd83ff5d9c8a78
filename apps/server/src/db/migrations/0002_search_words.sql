-- Keeps search_words (the catalogue's vocabulary) up to date as products are written. Only plain
-- alphanumeric words are kept: they are what a typo is corrected to.
CREATE OR REPLACE FUNCTION products_collect_search_words() RETURNS trigger AS $$
BEGIN
  INSERT INTO search_words (word)
  SELECT lexeme FROM unnest(tsvector_to_array(NEW.search_vector)) AS lexeme
  WHERE lexeme ~ '^[a-z0-9]{2,40}$'
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER products_collect_search_words
AFTER INSERT OR UPDATE OF title, name, description ON products
FOR EACH ROW EXECUTE FUNCTION products_collect_search_words();
--> statement-breakpoint
INSERT INTO search_words (word)
SELECT DISTINCT lexeme FROM products, unnest(tsvector_to_array(search_vector)) AS lexeme
WHERE lexeme ~ '^[a-z0-9]{2,40}$'
ON CONFLICT DO NOTHING;
