-- A buyer's list filtered by ZIP (issue 12's bench: a buyer's year by ZIP, the slowest list but the name searches)
-- read each of the ZIP's leads of the range from the table to check its date, then each one's sale from the
-- table to check buyer and date. Both now come from the index alone: the ZIP's leads with their date and id,
-- and a lead's sales with their buyer and date (which also answers whether a lead sold, as the old index did).
-- The new indexes are built before the old ones go, so the lists keep an index throughout.
CREATE INDEX "lead_matches_lead_buyer_sold_idx" ON "lead_matches" USING btree ("lead_id","buyer_id","created_at") WHERE not "lead_matches"."rejected";--> statement-breakpoint
CREATE INDEX "leads_zip_created_idx" ON "leads" USING btree ("zip","created_at","id");--> statement-breakpoint
DROP INDEX "lead_matches_lead_sold_idx";--> statement-breakpoint
DROP INDEX "leads_zip_idx";
