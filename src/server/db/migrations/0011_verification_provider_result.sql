ALTER TABLE "verifications" ADD COLUMN "provider" text;--> statement-breakpoint
ALTER TABLE "verifications" ADD COLUMN "provider_result" jsonb;--> statement-breakpoint
-- Until now the built-in TEST provider was the only one: earlier provider checks are its results.
UPDATE "verifications" SET "provider" = 'test' WHERE "method" = 'provider';