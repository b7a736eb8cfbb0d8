CREATE TABLE "advert_insight_days" (
	"advert_id" integer NOT NULL,
	"day" date NOT NULL,
	"place" text NOT NULL,
	"impressions" integer DEFAULT 0 NOT NULL,
	"rank_sum" bigint DEFAULT 0 NOT NULL,
	"views" integer DEFAULT 0 NOT NULL,
	"phone_reveals" integer DEFAULT 0 NOT NULL,
	"contact_taps" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "advert_insight_days_advert_id_day_place_pk" PRIMARY KEY("advert_id","day","place")
);
--> statement-breakpoint
ALTER TABLE "advert_insight_days" ADD CONSTRAINT "advert_insight_days_advert_id_adverts_id_fk" FOREIGN KEY ("advert_id") REFERENCES "public"."adverts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "advert_insight_days_day_idx" ON "advert_insight_days" USING btree ("day");