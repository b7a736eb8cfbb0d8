ALTER TABLE "accounts" ADD COLUMN "erased_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "pictures" ADD COLUMN "public_key" text;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "public_key" text;--> statement-breakpoint
-- Media stored before this migration have their files in the public area under storage_key: the public
-- ones keep being served there (public_key = storage_key); new uploads keep their masters private.
UPDATE "pictures" SET "public_key" = "storage_key" WHERE "moderation_status" = 1 AND "is_online" AND "deleted_at" IS NULL AND "advert_id" IS NOT NULL;--> statement-breakpoint
UPDATE "videos" SET "public_key" = "storage_key" WHERE "moderation_status" = 1 AND "is_online" AND "deleted_at" IS NULL AND "status" = 2 AND "video_key" IS NOT NULL;--> statement-breakpoint
-- The audit log stays append-only (migration 0010), with one narrow exception for the erasure of a deleted
-- account's personal data (docs/decisions/023-erasure-and-data-export.md): inside a transaction that
-- has set `app.audit_erasure` to 'on' (set_config(…, true): that transaction only), an UPDATE may only take
-- information away: before/after become NULL or {"erased": true}, ip and reason become NULL; who acted,
-- what was done, on what and when never change. DELETE is always refused.
CREATE OR REPLACE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE'
    AND coalesce(current_setting('app.audit_erasure', true), '') = 'on'
    AND NEW.id = OLD.id
    AND NEW.actor_type = OLD.actor_type
    AND NEW.actor_id IS NOT DISTINCT FROM OLD.actor_id
    AND NEW.impersonated_by IS NOT DISTINCT FROM OLD.impersonated_by
    AND NEW.action = OLD.action
    AND NEW.target_type IS NOT DISTINCT FROM OLD.target_type
    AND NEW.target_id IS NOT DISTINCT FROM OLD.target_id
    AND NEW.created_at = OLD.created_at
    AND (NEW.before IS NULL OR NEW.before = '{"erased": true}'::jsonb OR NEW.before IS NOT DISTINCT FROM OLD.before)
    AND (NEW.after IS NULL OR NEW.after = '{"erased": true}'::jsonb OR NEW.after IS NOT DISTINCT FROM OLD.after)
    AND (NEW.ip IS NULL OR NEW.ip IS NOT DISTINCT FROM OLD.ip)
    AND (NEW.reason IS NULL OR NEW.reason IS NOT DISTINCT FROM OLD.reason)
  THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'audit_log is append-only: % is not allowed', TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;
