ALTER TABLE "content_reports" ADD COLUMN "rule" text;--> statement-breakpoint
ALTER TABLE "statements_of_reasons" ADD COLUMN "what" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "statements_of_reasons" ADD COLUMN "target_id" integer;--> statement-breakpoint
ALTER TABLE "statements_of_reasons" ADD COLUMN "appeal_reason" text;--> statement-breakpoint
CREATE INDEX "statements_of_reasons_appeal_idx" ON "statements_of_reasons" USING btree ("appealed_at");