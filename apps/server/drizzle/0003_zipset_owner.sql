ALTER TABLE "zipsets" ADD COLUMN "buyer_id" text;--> statement-breakpoint
ALTER TABLE "zipsets" ADD CONSTRAINT "zipsets_buyer_id_buyers_id_fk" FOREIGN KEY ("buyer_id") REFERENCES "public"."buyers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "zipsets_buyer_id_idx" ON "zipsets" USING btree ("buyer_id");