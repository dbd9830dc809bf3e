CREATE TABLE "consent_evidence" (
	"lead_id" text PRIMARY KEY NOT NULL,
	"recorded_at" timestamp with time zone NOT NULL,
	"record" jsonb NOT NULL,
	"hash" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "consent_evidence_holds" (
	"lead_id" text PRIMARY KEY NOT NULL,
	"reason" text,
	"set_by" text,
	"set_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "buyers" ADD COLUMN "legal_names" text[] DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "require_named_consent" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "refuse_outside_calling_window" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "services" ADD COLUMN "medicare" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "consent_evidence_recorded_idx" ON "consent_evidence" USING btree ("recorded_at");--> statement-breakpoint
-- The named-consent rule in SQL, the same as consentNameKey (packages/domain/src/compliance.ts):
-- `&` read as "and", every run of other than ASCII letters and digits one space, lower case, the
-- company-kind words dropped, spaces collapsed. The evidence's covered names are found with it.
CREATE FUNCTION leadex_consent_norm(t text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  select btrim(regexp_replace(
    regexp_replace(
      lower(regexp_replace(replace(coalesce(t, ''), '&', ' and '), '[^A-Za-z0-9]+', ' ', 'g')),
      '\m(l l c|l l p|l p|llc|llp|lllp|pllc|inc|incorporated|corp|corporation|co|company|ltd|limited|lp|plc|pc)\M',
      ' ', 'g'),
    ' +', ' ', 'g'))
$$;
--> statement-breakpoint
-- A lead's consent evidence, written as the lead is stored (issue 34 item 3): in the sale's own
-- statement, which stays as it is. What the lead has no column for (the page URL, the consent page's
-- snapshot) rides in its `request` under `consent` and is taken out here: the lead keeps the poster's
-- address and client only. The record's jsonb text is its canonical form; its SHA-256 is the hash.
CREATE FUNCTION leadex_record_consent_evidence() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  extra jsonb := NEW.request -> 'consent';
  lang text := leadex_consent_norm(NEW.tcpa_language);
  covered text[] := '{}';
  rec jsonb;
BEGIN
  IF extra IS NOT NULL THEN
    NEW.request := NEW.request - 'consent';
  END IF;
  IF lang <> '' THEN
    SELECT coalesce(array_agg(DISTINCT n ORDER BY n), '{}') INTO covered
    FROM buyers b, unnest(b.legal_names) n
    WHERE cardinality(b.legal_names) > 0 AND leadex_consent_norm(n) <> ''
      AND strpos(' ' || lang || ' ', ' ' || leadex_consent_norm(n) || ' ') > 0;
  END IF;
  rec := jsonb_build_object(
    'lead_id', NEW.id,
    'recorded_at', to_char(NEW.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'source_id', NEW.source_id,
    'service', NEW.service,
    'consent', NEW.tcpa_consent,
    'consent_language', NEW.tcpa_language,
    'consumer', jsonb_build_object('name', NEW.name, 'phone', NEW.phone, 'email', NEW.email, 'zip', NEW.zip,
      'ip', NEW.ip, 'user_agent', NEW.user_agent),
    'page_url', extra ->> 'page_url',
    'consent_page_snapshot', extra ->> 'snapshot',
    'trusted_form', NEW.trusted_form,
    'jornaya', NEW.jornaya,
    'legal_names_covered', to_jsonb(covered));
  INSERT INTO consent_evidence (lead_id, recorded_at, record, hash)
  VALUES (NEW.id, NEW.created_at, rec, encode(sha256(convert_to(rec::text, 'UTF8')), 'hex'));
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER leads_consent_evidence BEFORE INSERT ON leads
FOR EACH ROW EXECUTE FUNCTION leadex_record_consent_evidence();
--> statement-breakpoint
-- Evidence is never changed: no UPDATE ever, and DELETE only by the retention job, which says so
-- with `set_config('leadex.evidence_retention', 'on', true)` in its own transaction.
CREATE FUNCTION leadex_consent_evidence_guard() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND current_setting('leadex.evidence_retention', true) = 'on' THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'leadex:evidence_immutable: consent evidence is never changed' USING ERRCODE = 'P0001';
END
$$;
--> statement-breakpoint
CREATE TRIGGER consent_evidence_immutable BEFORE UPDATE OR DELETE ON consent_evidence
FOR EACH ROW EXECUTE FUNCTION leadex_consent_evidence_guard();
