ALTER TABLE "checkout_sessions" ADD COLUMN "charged_cents" integer;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "charged_cents" integer;
