-- Raises when `ok` is false. The sale is one statement (modules/source-api/source-api.repo.ts):
-- raising inside it undoes every change it made (cap slots, lead, matches), atomically, without
-- a transaction round trip.
CREATE FUNCTION leadex_assert(ok boolean, message text) RETURNS boolean
LANGUAGE plpgsql AS $$
BEGIN
  IF NOT ok THEN
    RAISE EXCEPTION '%', message USING ERRCODE = 'P0001';
  END IF;
  RETURN true;
END
$$;
