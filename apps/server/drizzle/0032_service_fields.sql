CREATE TABLE "service_fields" (
	"service" text NOT NULL,
	"key" text NOT NULL,
	"position" integer NOT NULL,
	"label" text NOT NULL,
	"type" text NOT NULL,
	"options" text[] DEFAULT '{}' NOT NULL,
	"required" boolean DEFAULT false NOT NULL,
	"stage" text DEFAULT 'post' NOT NULL,
	"personal" boolean DEFAULT false NOT NULL,
	"aliases" text[] DEFAULT '{}' NOT NULL,
	"help" text DEFAULT '' NOT NULL,
	"removed" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "service_fields_service_key_pk" PRIMARY KEY("service","key")
);
--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "fields" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "service_fields" ADD CONSTRAINT "service_fields_service_services_name_fk" FOREIGN KEY ("service") REFERENCES "public"."services"("name") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
CREATE INDEX "service_fields_position_idx" ON "service_fields" USING btree ("service","position");