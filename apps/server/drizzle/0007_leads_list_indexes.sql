-- Name contains (ILIKE '%x%') in the leads lists: trigram indexes. pg_trgm is a trusted extension (PostgreSQL 13+);
-- PGlite loads it in db/client.ts.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
DROP INDEX "leads_created_at_idx";--> statement-breakpoint
DROP INDEX "leads_service_created_idx";--> statement-breakpoint
CREATE INDEX "lead_matches_buyer_sold_idx" ON "lead_matches" USING btree ("buyer_id","created_at","lead_id") WHERE not "lead_matches"."rejected";--> statement-breakpoint
CREATE INDEX "lead_matches_sold_created_idx" ON "lead_matches" USING btree ("created_at") WHERE not "lead_matches"."rejected";--> statement-breakpoint
CREATE INDEX "lead_matches_lead_sold_idx" ON "lead_matches" USING btree ("lead_id") WHERE not "lead_matches"."rejected";--> statement-breakpoint
CREATE INDEX "leads_created_id_idx" ON "leads" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "leads_source_service_created_idx" ON "leads" USING btree ("source_id","service","created_at");--> statement-breakpoint
CREATE INDEX "leads_name_trgm_idx" ON "leads" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "leads_service_newest_idx" ON "leads" USING btree ("service","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "leads_service_created_idx" ON "leads" USING btree ("service","created_at","id");