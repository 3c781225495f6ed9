ALTER TABLE "jobs" ADD COLUMN "locked_by" text;--> statement-breakpoint
ALTER TABLE "outbox_emails" ADD COLUMN "message_id" text;--> statement-breakpoint
ALTER TABLE "outbox_emails" ADD COLUMN "smtp_attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "outbox_emails" ADD COLUMN "last_attempt_at" timestamp with time zone;