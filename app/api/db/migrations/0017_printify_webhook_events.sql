-- Issue 30, part 1: Printify order webhooks. Each handled event's id is kept, so a redelivery or a replay changes nothing.
CREATE TABLE "printify_webhook_events" (
	"event_id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"provider_order_id" text NOT NULL,
	"outcome" text NOT NULL,
	"received_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "printify_webhook_events_received_idx" ON "printify_webhook_events" USING btree ("received_at");