-- Issue 34 item 2: an opt-out is kept 10 years (retain_until): never changed, and not deleted before
-- its retain_until. TRUNCATE (the simulator's reset, outside production) is not a row's deletion.
CREATE OR REPLACE FUNCTION leadex_opt_outs_keep() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    RAISE EXCEPTION 'opt_outs: an opt-out is never changed' USING ERRCODE = 'check_violation';
  END IF;
  IF OLD.retain_until > now() THEN
    RAISE EXCEPTION 'opt_outs: kept until %', OLD.retain_until USING ERRCODE = 'check_violation';
  END IF;
  RETURN OLD;
END $$;--> statement-breakpoint
CREATE TRIGGER opt_outs_keep BEFORE UPDATE OR DELETE ON opt_outs
  FOR EACH ROW EXECUTE FUNCTION leadex_opt_outs_keep();
