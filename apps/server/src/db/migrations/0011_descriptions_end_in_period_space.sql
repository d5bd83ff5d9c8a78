-- Every description ends in '. ' (packages/domain/src/description.ts): a client that drops the last
-- fragment at '. ', as SPEC.md's does, then loses no sentence.
UPDATE "products" SET "description" = CASE
  WHEN btrim("description") = '' THEN ''
  WHEN btrim("description") LIKE '%.' THEN btrim("description") || ' '
  ELSE btrim("description") || '. '
END
WHERE "description" <> CASE
  WHEN btrim("description") = '' THEN ''
  WHEN btrim("description") LIKE '%.' THEN btrim("description") || ' '
  ELSE btrim("description") || '. '
END;
