ALTER TABLE "order_parcels" ADD COLUMN "sent_to_production_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "previews" ADD COLUMN "design_hash" text;--> statement-breakpoint
CREATE INDEX "previews_design_hash_idx" ON "previews" USING btree ("design_hash");