CREATE TABLE "ping_calls" (
	"id" text PRIMARY KEY NOT NULL,
	"ping_id" text,
	"lead_id" text,
	"buyer_id" text NOT NULL,
	"delivery_id" text NOT NULL,
	"outcome" text NOT NULL,
	"bid_cents" integer,
	"buyer_ping_id" text,
	"status_code" integer,
	"request" text,
	"response" text,
	"error" text,
	"duration_ms" integer DEFAULT 0 NOT NULL,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "webhooks" ADD COLUMN "ping" jsonb;--> statement-breakpoint
CREATE INDEX "ping_calls_ping_idx" ON "ping_calls" USING btree ("ping_id") WHERE "ping_calls"."ping_id" is not null;--> statement-breakpoint
CREATE INDEX "ping_calls_lead_idx" ON "ping_calls" USING btree ("lead_id") WHERE "ping_calls"."lead_id" is not null;