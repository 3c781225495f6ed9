CREATE TABLE "smokescreen_signups" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"product" text NOT NULL,
	"dedupe_key" text NOT NULL,
	"user_id" uuid,
	"email" text NOT NULL,
	"source_page" text,
	"fields" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "smokescreen_signups" ADD CONSTRAINT "smokescreen_signups_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "smokescreen_signups_once" ON "smokescreen_signups" USING btree ("kind","product","dedupe_key");