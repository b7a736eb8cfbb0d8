ALTER TABLE "pictures" ADD COLUMN "original_key" text;--> statement-breakpoint
ALTER TABLE "pictures" ADD COLUMN "decline_reason" text;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "video_key" text;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "original_key" text;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "failure_reason" text;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "decline_reason" text;