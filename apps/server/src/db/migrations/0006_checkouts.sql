CREATE TYPE "public"."checkout_status" AS ENUM('open', 'paid', 'replaced', 'refund_needed', 'amount_mismatch');--> statement-breakpoint
CREATE TYPE "public"."order_flag" AS ENUM('refund_needed', 'amount_mismatch');--> statement-breakpoint
CREATE TABLE "checkouts" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"provider" text NOT NULL,
	"provider_checkout_id" text,
	"init_point" text,
	"status" "checkout_status" DEFAULT 'open' NOT NULL,
	"order_ids" integer[] NOT NULL,
	"bulk_order_ids" integer[] NOT NULL,
	"amount_cents" integer NOT NULL,
	"base_url" text NOT NULL,
	"shipping_address" jsonb NOT NULL,
	"payment_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "checkouts_provider_checkout_key" UNIQUE("provider","provider_checkout_id"),
	CONSTRAINT "checkouts_amount" CHECK ("checkouts"."amount_cents" > 0)
);
--> statement-breakpoint
CREATE TABLE "sandbox_charges" (
	"id" text PRIMARY KEY NOT NULL,
	"reference" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"description" text NOT NULL,
	"success_url" text NOT NULL,
	"failure_url" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"payment_id" text,
	"decline_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sandbox_charges_payment_id_unique" UNIQUE("payment_id")
);
--> statement-breakpoint
ALTER TABLE "payments" DROP CONSTRAINT "payments_target";--> statement-breakpoint
ALTER TABLE "bulk_orders" ADD COLUMN "flag" "order_flag";--> statement-breakpoint
ALTER TABLE "bulk_orders" ADD COLUMN "shipping_address" jsonb;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "flag" "order_flag";--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "shipping_address" jsonb;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "checkout_id" integer;--> statement-breakpoint
ALTER TABLE "checkouts" ADD CONSTRAINT "checkouts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "checkouts_user_status_idx" ON "checkouts" USING btree ("user_id","status");--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_checkout_id_checkouts_id_fk" FOREIGN KEY ("checkout_id") REFERENCES "public"."checkouts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_target" CHECK ("payments"."order_id" is not null or "payments"."bulk_order_id" is not null or "payments"."checkout_id" is not null);