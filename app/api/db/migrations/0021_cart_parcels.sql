ALTER TABLE "carts" ADD COLUMN "parcels" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "checkout_sessions" ADD COLUMN "parcels" jsonb;--> statement-breakpoint
ALTER TABLE "order_parcels" ADD COLUMN "address_id" uuid;--> statement-breakpoint
ALTER TABLE "order_parcels" ADD COLUMN "label" text;