ALTER TABLE "api_keys" ADD COLUMN "default_service" text;--> statement-breakpoint
ALTER TABLE "sources" ADD COLUMN "default_service" text;--> statement-breakpoint
ALTER TABLE "sources" ADD COLUMN "campaign_services" jsonb DEFAULT '[]'::jsonb NOT NULL;