CREATE TABLE "idempotency_keys" (
	"api_key_id" text NOT NULL,
	"key" text NOT NULL,
	"status_code" integer NOT NULL,
	"body" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "idempotency_keys_api_key_id_key_pk" PRIMARY KEY("api_key_id","key")
);
--> statement-breakpoint
CREATE TABLE "pings" (
	"id" text PRIMARY KEY NOT NULL,
	"source_id" text NOT NULL,
	"api_key_id" text,
	"channel" text,
	"service" text NOT NULL,
	"zip" text NOT NULL,
	"price_cents" integer,
	"reason" text,
	"test" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "unmatched_pings" (
	"day" text NOT NULL,
	"zip" text NOT NULL,
	"service" text NOT NULL,
	"n" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "unmatched_pings_day_zip_service_pk" PRIMARY KEY("day","zip","service")
);
--> statement-breakpoint
CREATE TABLE "engine_versions" (
	"name" text PRIMARY KEY NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "answer" jsonb;--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "explanation" jsonb;--> statement-breakpoint
CREATE INDEX "idempotency_keys_created_idx" ON "idempotency_keys" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "pings_created_at_idx" ON "pings" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "pings_source_created_idx" ON "pings" USING btree ("source_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "leads_ping_id_idx" ON "leads" USING btree ("ping_id") WHERE "leads"."ping_id" <> 'no_ping';