DROP INDEX "leads_service_newest_idx";--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "sold" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Leads sold before the column: those with an unrejected match.
UPDATE "leads" SET "sold" = true WHERE EXISTS (SELECT 1 FROM "lead_matches" m WHERE m."lead_id" = "leads"."id" AND NOT m."rejected");--> statement-breakpoint
CREATE INDEX "leads_unsold_created_idx" ON "leads" USING btree ("created_at","id") WHERE not "leads"."sold";--> statement-breakpoint
CREATE INDEX "leads_tagged_idx" ON "leads" USING btree ("id") WHERE cardinality("leads"."tags") > 0;--> statement-breakpoint
CREATE INDEX "leads_service_newest_idx" ON "leads" USING btree ("service","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);