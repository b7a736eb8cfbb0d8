ALTER TABLE "reviews" ADD COLUMN "decision" text;--> statement-breakpoint
ALTER TABLE "reviews" ADD COLUMN "decision_reason" text;--> statement-breakpoint
CREATE UNIQUE INDEX "reviews_advert_phone_unique" ON "reviews" USING btree ("advert_id","author_phone") WHERE "reviews"."author_phone" is not null;