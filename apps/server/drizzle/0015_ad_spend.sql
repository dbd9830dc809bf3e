CREATE TABLE "ad_spend" (
	"id" text PRIMARY KEY NOT NULL,
	"day" date NOT NULL,
	"source_id" text NOT NULL,
	"origin" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ad_spend" ADD CONSTRAINT "ad_spend_source_id_sources_id_fk" FOREIGN KEY ("source_id") REFERENCES "public"."sources"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "ad_spend_day_source_origin_idx" ON "ad_spend" USING btree ("day","source_id","origin");--> statement-breakpoint
CREATE INDEX "ad_spend_source_day_idx" ON "ad_spend" USING btree ("source_id","day");