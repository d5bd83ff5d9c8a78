ALTER TABLE "newsletter_outbox" DISABLE ROW LEVEL SECURITY;--> statement-breakpoint
DROP TABLE "newsletter_outbox" CASCADE;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "newsletter_id" integer;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD CONSTRAINT "mail_outbox_newsletter_id_newsletter_emails_id_fk" FOREIGN KEY ("newsletter_id") REFERENCES "public"."newsletter_emails"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_log_entity_created_idx" ON "audit_log" USING btree ("entity","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_log_actor_created_idx" ON "audit_log" USING btree ("actor_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "mail_outbox_newsletter_idx" ON "mail_outbox" USING btree ("newsletter_id","status") WHERE "mail_outbox"."newsletter_id" is not null;--> statement-breakpoint
DROP TYPE "public"."outbox_status";
--> statement-breakpoint
CREATE TABLE "newsletter_unsubscribes" (
	"email" text PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
