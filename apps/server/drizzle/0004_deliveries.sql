CREATE TABLE "delivery_attempts" (
	"id" text PRIMARY KEY NOT NULL,
	"match_id" text NOT NULL,
	"channel" text NOT NULL,
	"target" text NOT NULL,
	"attempt" integer NOT NULL,
	"accepted" boolean NOT NULL,
	"status_code" integer,
	"request" text,
	"response" text,
	"error" text,
	"provider_id" text,
	"last" boolean DEFAULT false NOT NULL,
	"duration_ms" integer DEFAULT 0 NOT NULL,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
-- Matches sold before deliveries existed are not delivered again: they start delivered, new ones pending.
ALTER TABLE "lead_matches" ADD COLUMN "delivery_status" text DEFAULT 'delivered' NOT NULL;--> statement-breakpoint
ALTER TABLE "lead_matches" ALTER COLUMN "delivery_status" SET DEFAULT 'pending';--> statement-breakpoint
ALTER TABLE "lead_matches" ADD COLUMN "delivery_queued_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "delivery_attempts" ADD CONSTRAINT "delivery_attempts_match_id_lead_matches_id_fk" FOREIGN KEY ("match_id") REFERENCES "public"."lead_matches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "delivery_attempts_match_idx" ON "delivery_attempts" USING btree ("match_id");--> statement-breakpoint
CREATE INDEX "delivery_attempts_provider_idx" ON "delivery_attempts" USING btree ("provider_id");--> statement-breakpoint
CREATE INDEX "lead_matches_delivery_idx" ON "lead_matches" USING btree ("delivery_status","created_at") WHERE "lead_matches"."delivery_status" in ('pending', 'queued');