CREATE TABLE "advert_search" (
	"advert_id" integer PRIMARY KEY NOT NULL,
	"kind" smallint NOT NULL,
	"region_id" integer,
	"city_id" integer,
	"age" smallint,
	"height" smallint,
	"weight" smallint,
	"breast_type" smallint,
	"nationality_id" integer,
	"incall" boolean NOT NULL,
	"outcall" boolean NOT NULL,
	"validated" boolean NOT NULL,
	"has_video" boolean NOT NULL,
	"has_review" boolean NOT NULL,
	"language_ids" integer[] NOT NULL,
	"service_ids" integer[] NOT NULL,
	"front_page_boosted" boolean NOT NULL,
	"rank" bigint NOT NULL,
	"recheck_at" timestamp with time zone,
	"refreshed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "advert_search_documents" (
	"advert_id" integer PRIMARY KEY NOT NULL,
	"document" "tsvector" NOT NULL,
	"search_text" text NOT NULL,
	"card_da" jsonb NOT NULL,
	"card_en" jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "advert_search" ADD CONSTRAINT "advert_search_advert_id_adverts_id_fk" FOREIGN KEY ("advert_id") REFERENCES "public"."adverts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "advert_search_documents" ADD CONSTRAINT "advert_search_documents_advert_id_adverts_id_fk" FOREIGN KEY ("advert_id") REFERENCES "public"."adverts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "advert_search_kind_rank_idx" ON "advert_search" USING btree ("kind","rank");--> statement-breakpoint
CREATE INDEX "advert_search_rank_idx" ON "advert_search" USING btree ("rank");--> statement-breakpoint
CREATE INDEX "advert_search_place_idx" ON "advert_search" USING btree ("kind","region_id","city_id");--> statement-breakpoint
CREATE INDEX "advert_search_city_idx" ON "advert_search" USING btree ("city_id");--> statement-breakpoint
CREATE INDEX "advert_search_recheck_idx" ON "advert_search" USING btree ("recheck_at");--> statement-breakpoint
CREATE INDEX "advert_search_languages_idx" ON "advert_search" USING gin ("language_ids");--> statement-breakpoint
CREATE INDEX "advert_search_services_idx" ON "advert_search" USING gin ("service_ids");--> statement-breakpoint
CREATE INDEX "advert_search_documents_document_idx" ON "advert_search_documents" USING gin ("document");--> statement-breakpoint
CREATE INDEX "advert_search_documents_text_trgm_idx" ON "advert_search_documents" USING gin ("search_text" gin_trgm_ops);