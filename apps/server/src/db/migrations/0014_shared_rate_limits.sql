-- Rate limits shared by every process on one database (issue 22 point 3): unlogged, counters need no crash safety.
CREATE UNLOGGED TABLE "rate_windows" (
	"key" text PRIMARY KEY NOT NULL,
	"count" integer NOT NULL,
	"started_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "rate_windows_started_idx" ON "rate_windows" USING btree ("started_at");