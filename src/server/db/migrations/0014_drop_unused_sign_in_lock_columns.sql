-- The sign-in lock counts login_events per email and address since decision 020; these columns are no longer read.
ALTER TABLE "accounts" DROP COLUMN "failed_login_count";--> statement-breakpoint
ALTER TABLE "accounts" DROP COLUMN "locked_until";--> statement-breakpoint
ALTER TABLE "support_users" DROP COLUMN "failed_login_count";--> statement-breakpoint
ALTER TABLE "support_users" DROP COLUMN "locked_until";