ALTER TABLE "delivery_attempts" ADD COLUMN "reason" text;--> statement-breakpoint
ALTER TABLE "webhooks" ADD COLUMN "reason_field" text;--> statement-breakpoint
ALTER TABLE "webhooks" ADD COLUMN "retry" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
CREATE INDEX "ping_calls_pings_at_idx" ON "ping_calls" USING btree ("at","id") WHERE "ping_calls"."ping_id" is not null;--> statement-breakpoint
CREATE INDEX "ping_calls_pings_buyer_at_idx" ON "ping_calls" USING btree ("buyer_id","at","id") WHERE "ping_calls"."ping_id" is not null;