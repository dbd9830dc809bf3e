ALTER TABLE "bills" ADD COLUMN "paid_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "bills" ADD COLUMN "payment_claimed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "bills" ADD COLUMN "payment_error" text;--> statement-breakpoint
CREATE INDEX "bills_to_invoice_idx" ON "bills" USING btree ("closed_at") WHERE "bills"."status" = 'closed' and "bills"."invoiced_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "bills_stripe_invoice_idx" ON "bills" USING btree ("stripe_invoice_id");