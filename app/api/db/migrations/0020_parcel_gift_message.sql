ALTER TABLE "order_parcels" ADD COLUMN "gift_message" text;--> statement-breakpoint
ALTER TABLE "order_parcels" ADD COLUMN "recipient_email" text;