CREATE TABLE "buyer_spend" (
	"buyer_id" text PRIMARY KEY NOT NULL,
	"spent_cents" bigint DEFAULT 0 NOT NULL,
	"limit_cents" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "prepay_entries" (
	"id" text PRIMARY KEY NOT NULL,
	"buyer_id" text NOT NULL,
	"kind" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"bill_id" text,
	"description" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "bills" ADD COLUMN "paid_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "bills" ADD COLUMN "payment_claimed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "bills" ADD COLUMN "payment_error" text;--> statement-breakpoint
ALTER TABLE "buyer_spend" ADD CONSTRAINT "buyer_spend_buyer_id_buyers_id_fk" FOREIGN KEY ("buyer_id") REFERENCES "public"."buyers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prepay_entries" ADD CONSTRAINT "prepay_entries_buyer_id_buyers_id_fk" FOREIGN KEY ("buyer_id") REFERENCES "public"."buyers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prepay_entries" ADD CONSTRAINT "prepay_entries_bill_id_bills_id_fk" FOREIGN KEY ("bill_id") REFERENCES "public"."bills"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "prepay_entries_buyer_idx" ON "prepay_entries" USING btree ("buyer_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "prepay_entries_draw_idx" ON "prepay_entries" USING btree ("bill_id") WHERE "prepay_entries"."kind" = 'draw';--> statement-breakpoint
CREATE INDEX "bills_to_invoice_idx" ON "bills" USING btree ("closed_at") WHERE "bills"."status" = 'closed' and "bills"."invoiced_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "bills_stripe_invoice_idx" ON "bills" USING btree ("stripe_invoice_id");