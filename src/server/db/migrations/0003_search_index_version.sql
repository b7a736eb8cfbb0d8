CREATE TABLE "search_index_log" (
	"version" bigint PRIMARY KEY NOT NULL,
	"advert_ids" integer[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "search_index_state" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	"checked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "search_index_log_created_idx" ON "search_index_log" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "adverts_holiday_idx" ON "adverts" USING btree ("holiday_until");
--> statement-breakpoint
INSERT INTO "search_index_state" ("id", "version") VALUES (1, 0);
