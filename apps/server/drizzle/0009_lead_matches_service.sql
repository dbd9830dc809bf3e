ALTER TABLE "lead_matches" ADD COLUMN "service" text;--> statement-breakpoint
-- Matches sold before the column: their lead's service.
UPDATE "lead_matches" m SET "service" = l."service" FROM "leads" l WHERE l."id" = m."lead_id";--> statement-breakpoint
CREATE INDEX "lead_matches_buyer_service_sold_idx" ON "lead_matches" USING btree ("buyer_id","service","created_at","lead_id") WHERE not "lead_matches"."rejected";