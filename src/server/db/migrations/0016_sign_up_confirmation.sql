-- A sign-up is confirmed by its emailed link and the password (docs/decisions/024). Every account made before
-- this counts as confirmed from its creation, so existing and demo accounts keep signing in.
ALTER TABLE "accounts" ADD COLUMN "activated_at" timestamp with time zone;--> statement-breakpoint
UPDATE "accounts" SET "activated_at" = "created_at";--> statement-breakpoint
ALTER TABLE "email_verification_tokens" ADD COLUMN "purpose" text DEFAULT 'email' NOT NULL;
