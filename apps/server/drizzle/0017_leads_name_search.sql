-- Name contains (ILIKE '%x%') within one buyer's sales or one source's leads: trigram GIN indexes that hold the
-- buyer (or source) too, so the index itself narrows to that buyer's candidates instead of every lead holding the
-- trigrams being read from the heap. btree_gin (a trusted extension, like pg_trgm; PGlite loads it in
-- db/client.ts) lets a GIN index hold the plain id column.
CREATE EXTENSION IF NOT EXISTS btree_gin;--> statement-breakpoint
ALTER TABLE "lead_matches" ADD COLUMN "name" text;--> statement-breakpoint
-- Matches sold before the column: their lead's name.
UPDATE "lead_matches" m SET "name" = l."name" FROM "leads" l WHERE l."id" = m."lead_id";--> statement-breakpoint
ALTER TABLE "lead_matches" ALTER COLUMN "name" SET STATISTICS 1000;--> statement-breakpoint
CREATE INDEX "lead_matches_buyer_name_idx" ON "lead_matches" USING gin ("buyer_id","name" gin_trgm_ops) WHERE not "lead_matches"."rejected";--> statement-breakpoint
-- Serves an admin's name search (the name alone) as the index it replaces did.
CREATE INDEX "leads_source_name_trgm_idx" ON "leads" USING gin ("source_id","name" gin_trgm_ops);--> statement-breakpoint
DROP INDEX "leads_name_trgm_idx";
