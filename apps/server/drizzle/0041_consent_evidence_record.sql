-- The consent evidence's record as a function of the lead as it will be stored (issue 34 item 3,
-- "mapped into deliveries"): the trigger writes it at the sale, and the sale's live deliveries, sent
-- before the lead is stored, read the same record and hash from it in the sale's own transaction.
-- The record is the one of migration 0037, unchanged, so every stored hash still checks.
CREATE FUNCTION leadex_consent_evidence_record(l leads, extra jsonb) RETURNS jsonb
LANGUAGE plpgsql STABLE AS $$
DECLARE
  lang text;
  covered text[] := '{}';
BEGIN
  IF l.tcpa_language IS NOT NULL AND EXISTS (SELECT 1 FROM buyers WHERE cardinality(legal_names) > 0) THEN
    lang := leadex_consent_norm(l.tcpa_language);
    IF lang <> '' THEN
      SELECT coalesce(array_agg(DISTINCT n ORDER BY n), '{}') INTO covered
      FROM buyers b, unnest(b.legal_names) n
      WHERE cardinality(b.legal_names) > 0 AND leadex_consent_norm(n) <> ''
        AND strpos(' ' || lang || ' ', ' ' || leadex_consent_norm(n) || ' ') > 0;
    END IF;
  END IF;
  RETURN jsonb_build_object(
    'lead_id', l.id,
    'recorded_at', to_char(l.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'source_id', l.source_id,
    'service', l.service,
    'consent', l.tcpa_consent,
    'consent_language', l.tcpa_language,
    'consumer', jsonb_build_object('name', l.name, 'phone', l.phone, 'email', l.email, 'zip', l.zip,
      'ip', l.ip, 'user_agent', l.user_agent),
    'page_url', extra ->> 'page_url',
    'consent_page_snapshot', extra ->> 'snapshot',
    'trusted_form', l.trusted_form,
    'jornaya', l.jornaya,
    'legal_names_covered', to_jsonb(covered));
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION leadex_record_consent_evidence() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  extra jsonb := NEW.request -> 'consent';
  rec jsonb;
BEGIN
  IF extra IS NOT NULL THEN
    NEW.request := NEW.request - 'consent';
  END IF;
  rec := leadex_consent_evidence_record(NEW, extra);
  INSERT INTO consent_evidence (lead_id, recorded_at, record, hash)
  VALUES (NEW.id, NEW.created_at, rec, encode(sha256(convert_to(rec::text, 'UTF8')), 'hex'));
  RETURN NEW;
END
$$;
