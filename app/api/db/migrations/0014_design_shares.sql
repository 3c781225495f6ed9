CREATE TABLE "design_share_reactions" (
	"share_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"loved" boolean DEFAULT false NOT NULL,
	"note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "design_share_reactions_share_id_user_id_pk" PRIMARY KEY("share_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "design_shares" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"token" text NOT NULL,
	"design_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"family_id" uuid NOT NULL,
	"variant_id" integer NOT NULL,
	"body" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "design_shares_token_unique" UNIQUE("token")
);
--> statement-breakpoint
ALTER TABLE "design_share_reactions" ADD CONSTRAINT "design_share_reactions_share_id_design_shares_id_fk" FOREIGN KEY ("share_id") REFERENCES "public"."design_shares"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "design_share_reactions" ADD CONSTRAINT "design_share_reactions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "design_shares" ADD CONSTRAINT "design_shares_design_id_design_drafts_id_fk" FOREIGN KEY ("design_id") REFERENCES "public"."design_drafts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "design_shares" ADD CONSTRAINT "design_shares_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "design_shares" ADD CONSTRAINT "design_shares_family_id_families_id_fk" FOREIGN KEY ("family_id") REFERENCES "public"."families"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "design_shares_design_idx" ON "design_shares" USING btree ("design_id");