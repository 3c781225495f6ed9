CREATE TABLE "parcel_shipments" (
	"id" uuid PRIMARY KEY NOT NULL,
	"parcel_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"key" text NOT NULL,
	"carrier" text,
	"tracking_number" text,
	"tracking_url" text,
	"items" jsonb,
	"shipped_at" timestamp with time zone NOT NULL,
	"delivered_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "parcel_shipments" ADD CONSTRAINT "parcel_shipments_parcel_id_order_parcels_id_fk" FOREIGN KEY ("parcel_id") REFERENCES "public"."order_parcels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "parcel_shipments_key_idx" ON "parcel_shipments" USING btree ("parcel_id","key");--> statement-breakpoint
CREATE UNIQUE INDEX "parcel_shipments_position_idx" ON "parcel_shipments" USING btree ("parcel_id","position");--> statement-breakpoint
INSERT INTO "parcel_shipments" ("id", "parcel_id", "position", "key", "tracking_number", "tracking_url", "shipped_at") SELECT gen_random_uuid(), "id", 1, coalesce("tracking_number", "tracking_url", 'shipped'), "tracking_number", "tracking_url", "updated_at" FROM "order_parcels" WHERE "status" = 'shipped';
