CREATE TABLE "source_chargebacks" (
	"id" text PRIMARY KEY NOT NULL,
	"source_id" text NOT NULL,
	"lead_id" text NOT NULL,
	"match_id" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "bill_adjustments" ADD COLUMN "match_id" text;--> statement-breakpoint
ALTER TABLE "source_chargebacks" ADD CONSTRAINT "source_chargebacks_source_id_sources_id_fk" FOREIGN KEY ("source_id") REFERENCES "public"."sources"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "source_chargebacks_match_idx" ON "source_chargebacks" USING btree ("match_id");--> statement-breakpoint
CREATE INDEX "source_chargebacks_source_idx" ON "source_chargebacks" USING btree ("source_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "bill_adjustments_match_idx" ON "bill_adjustments" USING btree ("match_id") WHERE "bill_adjustments"."match_id" is not null;