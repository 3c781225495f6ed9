ALTER TABLE "carts" ADD COLUMN "shipping_method" text DEFAULT 'standard' NOT NULL;--> statement-breakpoint
ALTER TABLE "checkout_sessions" ADD COLUMN "arrives_by" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "arrives_by" text;