-- Issue 36: the consent evidence's trigger, the same record for less work on every lead. The
-- language's normal form (three regular expressions, about 50 us a lead) is only needed to find the
-- buyers' legal names it covers: it is computed only when some buyer has legal names. Without any,
-- the covered names are '{}' as before; the record and its hash are unchanged.
CREATE OR REPLACE FUNCTION leadex_record_consent_evidence() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  extra jsonb := NEW.request -> 'consent';
  lang text;
  covered text[] := '{}';
  rec jsonb;
BEGIN
  IF extra IS NOT NULL THEN
    NEW.request := NEW.request - 'consent';
  END IF;
  IF NEW.tcpa_language IS NOT NULL AND EXISTS (SELECT 1 FROM buyers WHERE cardinality(legal_names) > 0) THEN
    lang := leadex_consent_norm(NEW.tcpa_language);
    IF lang <> '' THEN
      SELECT coalesce(array_agg(DISTINCT n ORDER BY n), '{}') INTO covered
      FROM buyers b, unnest(b.legal_names) n
      WHERE cardinality(b.legal_names) > 0 AND leadex_consent_norm(n) <> ''
        AND strpos(' ' || lang || ' ', ' ' || leadex_consent_norm(n) || ' ') > 0;
    END IF;
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
