CREATE TABLE "bill_adjustments" (
	"id" text PRIMARY KEY NOT NULL,
	"bill_id" text NOT NULL,
	"kind" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"description" text NOT NULL,
	"position" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bills" (
	"id" text PRIMARY KEY NOT NULL,
	"buyer_id" text NOT NULL,
	"start_at" timestamp with time zone NOT NULL,
	"end_at" timestamp with time zone NOT NULL,
	"period" text NOT NULL,
	"status" text NOT NULL,
	"pay_method" text,
	"grace_days" integer,
	"charges_cents" integer,
	"returns_cents" integer,
	"credits_cents" integer,
	"debits_cents" integer,
	"net_cents" integer,
	"stripe_invoice_id" text,
	"stripe_invoice_number" text,
	"stripe_invoice_url" text,
	"created_at" timestamp with time zone NOT NULL,
	"rolled_at" timestamp with time zone,
	"closed_at" timestamp with time zone,
	"invoiced_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "bill_adjustments" ADD CONSTRAINT "bill_adjustments_bill_id_bills_id_fk" FOREIGN KEY ("bill_id") REFERENCES "public"."bills"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bills" ADD CONSTRAINT "bills_buyer_id_buyers_id_fk" FOREIGN KEY ("buyer_id") REFERENCES "public"."buyers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bill_adjustments_bill_idx" ON "bill_adjustments" USING btree ("bill_id");--> statement-breakpoint
CREATE UNIQUE INDEX "bills_one_accruing_idx" ON "bills" USING btree ("buyer_id") WHERE "bills"."status" = 'accruing';--> statement-breakpoint
CREATE UNIQUE INDEX "bills_buyer_start_idx" ON "bills" USING btree ("buyer_id","start_at");--> statement-breakpoint
CREATE INDEX "bills_end_idx" ON "bills" USING btree ("end_at");--> statement-breakpoint
CREATE INDEX "lead_matches_bill_idx" ON "lead_matches" USING btree ("bill_id") WHERE "lead_matches"."bill_id" is not null;