ALTER TABLE "webhooks" ADD COLUMN "last_failure" text;--> statement-breakpoint
ALTER TABLE "webhooks" ADD COLUMN "last_failure_at" timestamp with time zone;