CREATE TABLE "partner_offer_clicks" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"offer_id" text NOT NULL,
	"user_id" uuid,
	"sid" uuid,
	"from_path" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "partner_offers" (
	"id" text PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"partner" text NOT NULL,
	"reward" text NOT NULL,
	"summary" text NOT NULL,
	"terms" jsonb NOT NULL,
	"image_url" text NOT NULL,
	"image_alt" text NOT NULL,
	"target_url" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "partner_offer_clicks" ADD CONSTRAINT "partner_offer_clicks_offer_id_partner_offers_id_fk" FOREIGN KEY ("offer_id") REFERENCES "public"."partner_offers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partner_offer_clicks" ADD CONSTRAINT "partner_offer_clicks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "partner_offer_clicks_offer_idx" ON "partner_offer_clicks" USING btree ("offer_id","created_at");--> statement-breakpoint
ALTER TABLE "partner_offers" ADD CONSTRAINT "partner_offers_target_https" CHECK ("target_url" ~ '^https://[^/\s]+');
