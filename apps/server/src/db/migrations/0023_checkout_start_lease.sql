-- Issue 38 point 5: an open checkout without a provider session is "being started" only while the request
-- starting it renews this lease; past it, that request died (kill -9 between the save and the provider call)
-- and the next Pay replaces the checkout at once instead of waiting for the hold to end.
ALTER TABLE "checkouts" ADD COLUMN "starting_until" timestamp with time zone;
