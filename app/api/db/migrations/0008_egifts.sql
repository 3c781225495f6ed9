CREATE TABLE "egifts" (
	"id" uuid PRIMARY KEY NOT NULL,
	"purchaser_id" uuid NOT NULL,
	"checkout_session_id" uuid NOT NULL,
	"status" text DEFAULT 'awaiting_payment' NOT NULL,
	"amount_cents" integer NOT NULL,
	"recipient_name" text NOT NULL,
	"recipient_email" text NOT NULL,
	"sender_name" text NOT NULL,
	"message" text DEFAULT '' NOT NULL,
	"send_on" text,
	"timezone" text NOT NULL,
	"code_hash" text,
	"issued_at" timestamp with time zone,
	"expires_at" timestamp with time zone,
	"emailed_at" timestamp with time zone,
	"redeemed_by" uuid,
	"redeemed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "egifts_checkout_session_id_unique" UNIQUE("checkout_session_id"),
	CONSTRAINT "egifts_code_hash_unique" UNIQUE("code_hash")
);
--> statement-breakpoint
CREATE TABLE "outbox_emails" (
	"id" uuid PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"reference" text NOT NULL,
	"to" text NOT NULL,
	"subject" text NOT NULL,
	"text" text NOT NULL,
	"html" text NOT NULL,
	"status" text DEFAULT 'scheduled' NOT NULL,
	"transport" text NOT NULL,
	"send_after" timestamp with time zone NOT NULL,
	"sent_at" timestamp with time zone,
	"provider_message_id" text,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "outbox_emails_reference_unique" UNIQUE("reference")
);
--> statement-breakpoint
ALTER TABLE "checkout_sessions" ALTER COLUMN "cart_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "checkout_sessions" ADD COLUMN "purpose" text DEFAULT 'cart' NOT NULL;--> statement-breakpoint
ALTER TABLE "egifts" ADD CONSTRAINT "egifts_purchaser_id_users_id_fk" FOREIGN KEY ("purchaser_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "egifts" ADD CONSTRAINT "egifts_checkout_session_id_checkout_sessions_id_fk" FOREIGN KEY ("checkout_session_id") REFERENCES "public"."checkout_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "egifts" ADD CONSTRAINT "egifts_redeemed_by_users_id_fk" FOREIGN KEY ("redeemed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "egifts_purchaser_idx" ON "egifts" USING btree ("purchaser_id","created_at");--> statement-breakpoint
CREATE INDEX "outbox_emails_created_idx" ON "outbox_emails" USING btree ("created_at");--> statement-breakpoint
ALTER TABLE "egifts" ADD CONSTRAINT "egifts_amount_check" CHECK ("amount_cents" BETWEEN 1000 AND 50000 AND "amount_cents" % 100 = 0);--> statement-breakpoint
ALTER TABLE "egifts" ADD CONSTRAINT "egifts_issued_check" CHECK ("status" IN ('awaiting_payment', 'cancelled') OR ("code_hash" IS NOT NULL AND "issued_at" IS NOT NULL AND "expires_at" IS NOT NULL));--> statement-breakpoint
ALTER TABLE "egifts" ADD CONSTRAINT "egifts_redeemed_check" CHECK (("status" = 'redeemed') = ("redeemed_at" IS NOT NULL AND "redeemed_by" IS NOT NULL));--> statement-breakpoint
ALTER TABLE "checkout_sessions" ADD CONSTRAINT "checkout_sessions_purpose_cart_check" CHECK (("purpose" = 'cart') = ("cart_id" IS NOT NULL));
