-- Name contains over a few months: the lead's UTC week joins the source and the trigrams in the name search's
-- GIN index, so a search over a range finds that range's candidates in the index itself. With a range of
-- dates read from a second index (leads_created_id_idx: every lead of the range into a bitmap) a month's
-- search cost several times more. leadsRepo adds the range's weeks when it spans at most 26 of them.
-- The new index is built before the old one goes, so name searches keep an index throughout.
CREATE INDEX "leads_source_week_name_trgm_idx" ON "leads" USING gin ("source_id",(date_trunc('week', "created_at" at time zone 'UTC')),"name" gin_trgm_ops);--> statement-breakpoint
DROP INDEX "leads_source_name_trgm_idx";
