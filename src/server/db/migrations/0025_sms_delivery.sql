ALTER TABLE "outbox_messages" ADD COLUMN "provider_id" text;--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD COLUMN "delivery_status" text;--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD COLUMN "delivery_status_at" timestamp with time zone;