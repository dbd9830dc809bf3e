CREATE TABLE "consent_evidence_seals" (
	"lead_id" text PRIMARY KEY NOT NULL,
	"sealed_at" timestamp with time zone NOT NULL,
	"request_id" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "drop_entries" (
	"hash" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"first_run_id" text NOT NULL,
	"last_run_id" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "drop_runs" (
	"id" text PRIMARY KEY NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"origin" text NOT NULL,
	"file_name" text NOT NULL,
	"file_key" text,
	"status" text NOT NULL,
	"entries" integer DEFAULT 0 NOT NULL,
	"invalid" integer DEFAULT 0 NOT NULL,
	"matched" integer DEFAULT 0 NOT NULL,
	"erased" integer DEFAULT 0 NOT NULL,
	"error" text,
	"user_id" text,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "lead_drop_hashes" (
	"lead_id" text NOT NULL,
	"kind" text NOT NULL,
	"hash" text NOT NULL,
	CONSTRAINT "lead_drop_hashes_lead_id_kind_pk" PRIMARY KEY("lead_id","kind")
);
--> statement-breakpoint
CREATE INDEX "drop_entries_last_run_idx" ON "drop_entries" USING btree ("last_run_id");--> statement-breakpoint
CREATE INDEX "drop_runs_at_idx" ON "drop_runs" USING btree ("at","id");--> statement-breakpoint
CREATE INDEX "drop_runs_file_key_idx" ON "drop_runs" USING btree ("file_key");--> statement-breakpoint
CREATE INDEX "lead_drop_hashes_hash_idx" ON "lead_drop_hashes" USING btree ("hash");--> statement-breakpoint
-- California's deletion mechanism (DROP, issue 35 item 3): the normalisation of docs/compliance.md, the
-- same as packages/domain/src/drop.ts (a test holds them together).
CREATE FUNCTION "leadex_drop_email"(v text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN position('@' IN btrim(coalesce(v, ''))) > 1 THEN lower(btrim(v)) END
$$;
--> statement-breakpoint
CREATE FUNCTION "leadex_drop_phone"(v text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE
    WHEN d ~ '^1[0-9]{10}$' THEN substr(d, 2)
    WHEN d ~ '^[0-9]{10}$' THEN d
  END FROM (SELECT regexp_replace(coalesce(v, ''), '[^0-9]', '', 'g') AS d) x
$$;
--> statement-breakpoint
CREATE FUNCTION "leadex_drop_name"(v text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT regexp_replace(
    translate(lower(coalesce(v, '')), 'àáâãäåāèéêëēìíîïīòóôõöøōùúûüūýÿñç', 'aaaaaaaeeeeeiiiiiooooooouuuuuyync'),
    '[^a-z]', '', 'g')
$$;
--> statement-breakpoint
CREATE FUNCTION "leadex_drop_dob"(v text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE
    WHEN t ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' THEN substr(t, 1, 4) || substr(t, 6, 2) || substr(t, 9, 2)
    WHEN t ~ '^[0-9]{1,2}/[0-9]{1,2}/[0-9]{4}$'
      THEN split_part(t, '/', 3) || lpad(split_part(t, '/', 1), 2, '0') || lpad(split_part(t, '/', 2), 2, '0')
  END FROM (SELECT btrim(coalesce(v, '')) AS t) x
$$;
--> statement-breakpoint
CREATE FUNCTION "leadex_drop_name_dob_zip"(first text, last text, full_name text, dob text, zip text) RETURNS text
LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  f text := leadex_drop_name(first);
  l text := leadex_drop_name(last);
  d text := leadex_drop_dob(dob);
  z text := substring(btrim(coalesce(zip, '')) FROM '^([0-9]{5})');
  parts text[];
BEGIN
  IF f = '' OR l = '' THEN
    parts := regexp_split_to_array(btrim(coalesce(full_name, '')), '\s+');
    IF coalesce(array_length(parts, 1), 0) >= 2 THEN
      f := leadex_drop_name(parts[1]);
      l := leadex_drop_name(parts[array_length(parts, 1)]);
    END IF;
  END IF;
  IF f = '' OR l = '' OR d IS NULL OR z IS NULL THEN RETURN NULL; END IF;
  RETURN f || l || d || z;
END;
$$;
--> statement-breakpoint
CREATE FUNCTION "leadex_drop_hash"(v text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT encode(sha256(convert_to(v, 'UTF8')), 'hex')
$$;
--> statement-breakpoint
CREATE FUNCTION "leads_drop_hashes"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO lead_drop_hashes (lead_id, kind, hash)
  SELECT NEW.id, x.k, leadex_drop_hash(x.v)
  FROM (VALUES
    ('email', leadex_drop_email(NEW.email)),
    ('phone', leadex_drop_phone(NEW.phone)),
    ('name_dob_zip', leadex_drop_name_dob_zip(NEW.first_name, NEW.last_name, NEW.name,
      coalesce(NEW.fields->>'dob', NEW.fields->>'date_of_birth', NEW.fields->>'birth_date'), NEW.zip))
  ) AS x(k, v)
  WHERE x.v IS NOT NULL;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "leads_drop_hashes" AFTER INSERT ON "leads" FOR EACH ROW EXECUTE FUNCTION "leads_drop_hashes"();
--> statement-breakpoint
INSERT INTO "lead_drop_hashes" ("lead_id", "kind", "hash")
SELECT l.id, x.k, leadex_drop_hash(x.v)
FROM "leads" l
CROSS JOIN LATERAL (VALUES
  ('email', leadex_drop_email(l.email)),
  ('phone', leadex_drop_phone(l.phone)),
  ('name_dob_zip', leadex_drop_name_dob_zip(l.first_name, l.last_name, l.name,
    coalesce(l.fields->>'dob', l.fields->>'date_of_birth', l.fields->>'birth_date'), l.zip))
) AS x(k, v)
WHERE x.v IS NOT NULL;
