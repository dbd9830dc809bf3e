DROP INDEX "sign_in_failures_identifier_at_idx";--> statement-breakpoint
ALTER TABLE "sign_in_failures" ADD COLUMN "address" text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE INDEX "sign_in_failures_identifier_address_at_idx" ON "sign_in_failures" USING btree ("identifier","address","at");