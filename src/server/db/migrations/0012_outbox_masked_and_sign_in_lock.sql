ALTER TABLE "accounts" ADD COLUMN "password_changed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD COLUMN "masked_body" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "support_users" ADD COLUMN "password_changed_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "login_events_email_ip_idx" ON "login_events" USING btree ("email","ip","created_at");--> statement-breakpoint
-- Messages stored before this migration: their links (reset, email verification) and SMS codes are masked,
-- in masked_body and in body alike (the outbox no longer keeps what grants access; issue 15).
UPDATE "outbox_messages" SET "masked_body" = regexp_replace(
  CASE WHEN "channel" = 'sms' THEN regexp_replace("body", '\m[0-9]{6}\M', '[hidden: sent only to the recipient]', 'g') ELSE "body" END,
  'https?://[^[:space:]]*(\?url=|[?&]token=)[^[:space:]]*', '[hidden: sent only to the recipient]', 'g');--> statement-breakpoint
UPDATE "outbox_messages" SET "body" = "masked_body";
