CREATE TABLE "previews" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"variant_id" integer NOT NULL,
	"pseudo_template_id" text NOT NULL,
	"back_side_id" text NOT NULL,
	"design" jsonb NOT NULL,
	"print_areas" jsonb NOT NULL,
	"source_images" jsonb NOT NULL,
	"images" jsonb NOT NULL,
	"provider" text NOT NULL,
	"provider_product_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "previews" ADD CONSTRAINT "previews_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "previews_user_idx" ON "previews" USING btree ("user_id","created_at");