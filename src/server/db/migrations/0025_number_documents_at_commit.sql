-- Issue 29: a sales document takes its number at the COMMIT of the transaction that issues it, not in a
-- statement before it (docs/decisions/027, addendum). The counter row of the series is then locked only
-- inside the COMMIT: before, it stayed locked across the commit's round trip and the server's event loop,
-- about 10 ms, and postbacks paid at once queued on it. Numbers stay gapless: a rolled-back transaction
-- never reaches the trigger. Until the COMMIT the document holds a provisional number (minus its id) and
-- the audit entry that names it holds "document:<id>" in the number's place; both are replaced here, the
-- only change the append-only triggers allow, and only while this trigger runs.
CREATE OR REPLACE FUNCTION "provisional_document_number"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."number" IS NULL THEN
    NEW."number" := -NEW."id";
  END IF;
  RETURN NEW;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "sales_documents_provisional_number" BEFORE INSERT ON "sales_documents" FOR EACH ROW EXECUTE FUNCTION "provisional_document_number"();--> statement-breakpoint
CREATE OR REPLACE FUNCTION "number_sales_document"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  given integer;
  mark jsonb := to_jsonb('document:' || NEW."id");
BEGIN
  INSERT INTO "document_counters" ("series", "last") VALUES ('sales', 1)
    ON CONFLICT ("series") DO UPDATE SET "last" = "document_counters"."last" + 1
    RETURNING "last" INTO given;
  PERFORM set_config('app.document_numbering', 'on', true);
  UPDATE "sales_documents" SET "number" = given WHERE "id" = NEW."id";
  UPDATE "audit_log" a
    SET "after" = (SELECT jsonb_object_agg(e.key, CASE WHEN e.value = mark THEN to_jsonb(given) ELSE e.value END) FROM jsonb_each(a."after") e)
    WHERE a."target_type" = 'order' AND a."target_id" = NEW."order_id"::text
      AND jsonb_typeof(a."after") = 'object'
      AND EXISTS (SELECT 1 FROM jsonb_each(a."after") e WHERE e.value = mark);
  PERFORM set_config('app.document_numbering', '', true);
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "sales_documents_number_at_commit" AFTER INSERT ON "sales_documents"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW."number" < 0) EXECUTE FUNCTION "number_sales_document"();--> statement-breakpoint
CREATE OR REPLACE FUNCTION "sales_documents_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE'
    AND coalesce(current_setting('app.document_numbering', true), '') = 'on'
    AND OLD."number" = -OLD."id" AND NEW."number" > 0
    AND (to_jsonb(NEW) - 'number') = (to_jsonb(OLD) - 'number')
  THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION '% is append-only: rows are never updated or deleted', TG_TABLE_NAME USING ERRCODE = 'P0001';
END;
$$;--> statement-breakpoint
DROP TRIGGER "sales_documents_append_only" ON "sales_documents";--> statement-breakpoint
CREATE TRIGGER "sales_documents_append_only" BEFORE UPDATE OR DELETE ON "sales_documents" FOR EACH ROW EXECUTE FUNCTION "sales_documents_append_only"();--> statement-breakpoint
-- The audit log as migration 0013 left it, and one more change: while a document is numbered, its mark in
-- an entry's `after` becomes the number (a JSON number), nothing else.
CREATE OR REPLACE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE'
    AND coalesce(current_setting('app.document_numbering', true), '') = 'on'
    AND (to_jsonb(NEW) - 'after') = (to_jsonb(OLD) - 'after')
    AND jsonb_typeof(OLD.after) = 'object'
    AND EXISTS (
      SELECT 1 FROM jsonb_each(OLD.after) e
      WHERE jsonb_typeof(e.value) = 'string' AND e.value #>> '{}' LIKE 'document:%'
        AND jsonb_typeof(NEW.after -> e.key) = 'number'
        AND NEW.after = OLD.after || jsonb_build_object(e.key, NEW.after -> e.key)
    )
  THEN
    RETURN NEW;
  END IF;
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
