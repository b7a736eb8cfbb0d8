CREATE TABLE "verification_handoffs" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"first_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "verifications" ADD COLUMN "provider_uri" text;--> statement-breakpoint
ALTER TABLE "verifications" ADD COLUMN "submitted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "verifications" ADD COLUMN "rule" text;--> statement-breakpoint
ALTER TABLE "verification_handoffs" ADD CONSTRAINT "verification_handoffs_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "verification_handoffs_account_idx" ON "verification_handoffs" USING btree ("account_id");