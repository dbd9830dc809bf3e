-- Issue 36: the DROP hashes of a stored lead (migration 0039), the same rows for about a third of the
-- PostgreSQL CPU (0.19 -> 0.065 ms a lead, docs/benchmarks.md "Post profile"). Numbered 0041: a
-- migration 0040 may change the DROP name hashing; if it replaces leads_drop_hashes() too, the two
-- bodies must be merged when renumbered.
-- Every value is computed by the same expressions as before; only how PostgreSQL runs them changes:
-- 1. leadex_drop_phone: one expression (no FROM), so the planner inlines it into the trigger's cached
--    plan; a SQL function it cannot inline is parsed and planned again on every call.
-- 2. leadex_drop_hash: declared STABLE, as convert_to() is (PostgreSQL inlines a function only when its
--    body is no more volatile than the function); the same expression, so the same hash.
-- 3. leads_drop_hashes(): name + date of birth + ZIP only when a date of birth is sent. Without one,
--    leadex_drop_name_dob_zip() answers NULL (leadex_drop_dob(NULL) is NULL) and no row was written.
CREATE OR REPLACE FUNCTION "leadex_drop_phone"(v text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE
    WHEN regexp_replace(coalesce(v, ''), '[^0-9]', '', 'g') ~ '^1[0-9]{10}$'
      THEN substr(regexp_replace(coalesce(v, ''), '[^0-9]', '', 'g'), 2)
    WHEN regexp_replace(coalesce(v, ''), '[^0-9]', '', 'g') ~ '^[0-9]{10}$'
      THEN regexp_replace(coalesce(v, ''), '[^0-9]', '', 'g')
  END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "leadex_drop_hash"(v text) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT encode(sha256(convert_to(v, 'UTF8')), 'hex')
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "leads_drop_hashes"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  dob text := coalesce(NEW.fields->>'dob', NEW.fields->>'date_of_birth', NEW.fields->>'birth_date');
BEGIN
  INSERT INTO lead_drop_hashes (lead_id, kind, hash)
  SELECT NEW.id, x.k, leadex_drop_hash(x.v)
  FROM (VALUES
    ('email', leadex_drop_email(NEW.email)),
    ('phone', leadex_drop_phone(NEW.phone)),
    ('name_dob_zip', CASE WHEN dob IS NOT NULL
      THEN leadex_drop_name_dob_zip(NEW.first_name, NEW.last_name, NEW.name, dob, NEW.zip) END)
  ) AS x(k, v)
  WHERE x.v IS NOT NULL;
  RETURN NULL;
END;
$$;
