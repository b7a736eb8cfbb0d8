ALTER TABLE "pictures" ADD COLUMN "public_key" text;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "public_key" text;--> statement-breakpoint
-- Media stored before this migration have their files in the public area under storage_key: the public
-- ones keep being served there (public_key = storage_key); new uploads keep their masters private.
UPDATE "pictures" SET "public_key" = "storage_key" WHERE "moderation_status" = 1 AND "is_online" AND "deleted_at" IS NULL AND "advert_id" IS NOT NULL;--> statement-breakpoint
UPDATE "videos" SET "public_key" = "storage_key" WHERE "moderation_status" = 1 AND "is_online" AND "deleted_at" IS NULL AND "status" = 2 AND "video_key" IS NOT NULL;
