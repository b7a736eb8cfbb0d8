CREATE TABLE "search_term_days" (
	"day" date NOT NULL,
	"term" text NOT NULL,
	"searches" integer NOT NULL,
	"no_results" integer NOT NULL,
	CONSTRAINT "search_term_days_day_term_pk" PRIMARY KEY("day","term")
);
--> statement-breakpoint
CREATE INDEX "search_term_days_term_idx" ON "search_term_days" USING btree ("term");