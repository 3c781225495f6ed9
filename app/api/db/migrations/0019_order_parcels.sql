CREATE TABLE "order_parcels" (
	"id" uuid PRIMARY KEY NOT NULL,
	"order_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"shipping_address" jsonb,
	"shipping_method" text DEFAULT 'standard' NOT NULL,
	"arrives_by" text,
	"items" jsonb NOT NULL,
	"status" text DEFAULT 'paid' NOT NULL,
	"provider_order_id" text,
	"tracking_number" text,
	"tracking_url" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "order_parcels" ADD CONSTRAINT "order_parcels_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "order_parcels_position_idx" ON "order_parcels" USING btree ("order_id","position");--> statement-breakpoint
CREATE INDEX "order_parcels_provider_order_idx" ON "order_parcels" USING btree ("provider_order_id");--> statement-breakpoint
-- Every order made before parcels is one parcel, with the order's id: its provider order, jobs and e-mails keep their names.
INSERT INTO "order_parcels" ("id", "order_id", "position", "shipping_address", "shipping_method", "arrives_by", "items", "status", "provider_order_id", "tracking_number", "tracking_url", "created_at", "updated_at")
SELECT o."id", o."id", 1, o."shipping_address", coalesce(o."totals"->>'shippingMethod', 'standard'), o."arrives_by",
  coalesce((SELECT jsonb_agg(jsonb_build_object('cartItemId', l->>'cartItemId', 'quantity', (l->>'quantity')::int)) FROM jsonb_array_elements(o."lines") l), '[]'::jsonb),
  o."status", o."provider_order_id", o."tracking_number", o."tracking_url", o."created_at", o."updated_at"
FROM "orders" o;
