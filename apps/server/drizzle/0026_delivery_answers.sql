ALTER TABLE "delivery_attempts" ADD COLUMN "reason" text;--> statement-breakpoint
ALTER TABLE "webhooks" ADD COLUMN "reason_field" text;--> statement-breakpoint
ALTER TABLE "webhooks" ADD COLUMN "retry" jsonb DEFAULT '[]'::jsonb NOT NULL;