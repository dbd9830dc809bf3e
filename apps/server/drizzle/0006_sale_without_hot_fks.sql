ALTER TABLE "lead_matches" DROP CONSTRAINT "lead_matches_campaign_id_campaigns_id_fk";
--> statement-breakpoint
ALTER TABLE "lead_matches" DROP CONSTRAINT "lead_matches_buyer_id_buyers_id_fk";
--> statement-breakpoint
ALTER TABLE "leads" DROP CONSTRAINT "leads_source_id_sources_id_fk";
