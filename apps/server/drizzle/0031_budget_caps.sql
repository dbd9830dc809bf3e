CREATE TABLE "budget_counters" (
	"owner_id" text NOT NULL,
	"period" text NOT NULL,
	"period_start" timestamp with time zone NOT NULL,
	"spent_cents" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "budget_counters_owner_id_period_period_start_pk" PRIMARY KEY("owner_id","period","period_start")
);
--> statement-breakpoint
ALTER TABLE "buyers" ADD COLUMN "budget_daily_cents" integer;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "budget_daily_cents" integer;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "budget_weekly_cents" integer;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "budget_monthly_cents" integer;