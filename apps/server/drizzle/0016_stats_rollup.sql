CREATE TABLE "stats_days" (
	"day" date NOT NULL,
	"source_id" text NOT NULL,
	"buyer_id" text NOT NULL,
	"pings" bigint DEFAULT 0 NOT NULL,
	"leads" bigint DEFAULT 0 NOT NULL,
	"posts" bigint DEFAULT 0 NOT NULL,
	"sold" bigint DEFAULT 0 NOT NULL,
	"payouts" bigint DEFAULT 0 NOT NULL,
	"chargebacks" bigint DEFAULT 0 NOT NULL,
	"sales" bigint DEFAULT 0 NOT NULL,
	"gross" bigint DEFAULT 0 NOT NULL,
	"returns" bigint DEFAULT 0 NOT NULL,
	"revenue" bigint DEFAULT 0 NOT NULL,
	"buyer_cost" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "stats_days_day_source_id_buyer_id_pk" PRIMARY KEY("day","source_id","buyer_id")
);
