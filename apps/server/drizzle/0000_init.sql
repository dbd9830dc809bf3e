CREATE TABLE "account" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"provider_id" text NOT NULL,
	"user_id" text NOT NULL,
	"access_token" text,
	"refresh_token" text,
	"id_token" text,
	"access_token_expires_at" timestamp with time zone,
	"refresh_token_expires_at" timestamp with time zone,
	"scope" text,
	"password" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "session" (
	"id" text PRIMARY KEY NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"token" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ip_address" text,
	"user_agent" text,
	"user_id" text NOT NULL,
	CONSTRAINT "session_token_unique" UNIQUE("token")
);
--> statement-breakpoint
CREATE TABLE "user" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"email_verified" boolean DEFAULT false NOT NULL,
	"image" text,
	"username" text,
	"display_username" text,
	"role" text,
	"role_id" text,
	"welcome" boolean DEFAULT false NOT NULL,
	"hold_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_email_unique" UNIQUE("email"),
	CONSTRAINT "user_username_unique" UNIQUE("username")
);
--> statement-breakpoint
CREATE TABLE "verification" (
	"id" text PRIMARY KEY NOT NULL,
	"identifier" text NOT NULL,
	"value" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "buyers" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"username" text NOT NULL,
	"email" text NOT NULL,
	"phone" text NOT NULL,
	"address" text,
	"city" text,
	"state" text,
	"zip" text,
	"notes" text,
	"tags" text[] DEFAULT '{}' NOT NULL,
	"notify" jsonb DEFAULT '{"email":[],"sms":[],"broadcast_webhooks":[]}'::jsonb NOT NULL,
	"pay_method" text DEFAULT 'invoice' NOT NULL,
	"prepay_cents" integer DEFAULT 0 NOT NULL,
	"period" text DEFAULT 'monthly' NOT NULL,
	"grace_days" integer DEFAULT 3 NOT NULL,
	"threshold_cents" integer DEFAULT 0 NOT NULL,
	"stripe_customer_id" text,
	"auto_approve_returns" real DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "buyers_username_unique" UNIQUE("username")
);
--> statement-breakpoint
CREATE TABLE "campaign_source_filters" (
	"id" text PRIMARY KEY NOT NULL,
	"campaign_id" text NOT NULL,
	"source_id" text NOT NULL,
	"channel" text,
	"price_cents" integer,
	"shared_price_cents" integer,
	"pct" real DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "campaign_status_events" (
	"id" text PRIMARY KEY NOT NULL,
	"campaign_id" text NOT NULL,
	"status" text NOT NULL,
	"reason" text,
	"actor" text NOT NULL,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "campaigns" (
	"id" text PRIMARY KEY NOT NULL,
	"buyer_id" text NOT NULL,
	"name" text NOT NULL,
	"fixed_id" text NOT NULL,
	"price_cents" integer NOT NULL,
	"shared" boolean DEFAULT false NOT NULL,
	"shared_price_cents" integer,
	"services" text[] DEFAULT '{}' NOT NULL,
	"location" text DEFAULT 'state' NOT NULL,
	"states" text[] DEFAULT '{}' NOT NULL,
	"zips" text[] DEFAULT '{}' NOT NULL,
	"zipset_id" text,
	"max_hourly" integer,
	"max_daily" integer,
	"max_weekly" integer,
	"max_monthly" integer,
	"notify" jsonb,
	"time" jsonb,
	"status" text DEFAULT 'draft' NOT NULL,
	"notes" text,
	"tags" text[] DEFAULT '{}' NOT NULL,
	"last_sold_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "campaigns_fixed_id_unique" UNIQUE("fixed_id")
);
--> statement-breakpoint
CREATE TABLE "cap_counters" (
	"campaign_id" text NOT NULL,
	"period" text NOT NULL,
	"period_start" timestamp with time zone NOT NULL,
	"n" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "cap_counters_campaign_id_period_period_start_pk" PRIMARY KEY("campaign_id","period","period_start")
);
--> statement-breakpoint
CREATE TABLE "lead_matches" (
	"id" text PRIMARY KEY NOT NULL,
	"lead_id" text NOT NULL,
	"campaign_id" text NOT NULL,
	"buyer_id" text NOT NULL,
	"kind" text NOT NULL,
	"price_cents" integer NOT NULL,
	"rejected" boolean DEFAULT false NOT NULL,
	"buyer_lead_id" text,
	"bill_id" text,
	"return_reason" text,
	"return_comment" text,
	"return_status" text,
	"return_requested_at" timestamp with time zone,
	"return_decided_at" timestamp with time zone,
	"return_decided_by" text,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "leads" (
	"id" text PRIMARY KEY NOT NULL,
	"source_id" text NOT NULL,
	"channel" text,
	"api_key_id" text,
	"service" text NOT NULL,
	"zip" text NOT NULL,
	"state" text,
	"city" text,
	"name" text,
	"first_name" text,
	"last_name" text,
	"address" text,
	"phone" text,
	"email" text,
	"tcpa_consent" boolean,
	"tcpa_language" text,
	"trusted_form" text,
	"jornaya" text,
	"ip" text,
	"user_agent" text,
	"pub_id" text,
	"sub_id" text,
	"homeowner" boolean,
	"quality" jsonb,
	"metadata" jsonb,
	"tags" text[] DEFAULT '{}' NOT NULL,
	"cost_cents" integer DEFAULT 0 NOT NULL,
	"price_cents" integer DEFAULT 0 NOT NULL,
	"ping_id" text DEFAULT 'no_ping' NOT NULL,
	"test" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "messages" (
	"id" text PRIMARY KEY NOT NULL,
	"text" text NOT NULL,
	"data" jsonb,
	"hidden_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "outbox" (
	"id" text PRIMARY KEY NOT NULL,
	"channel" text NOT NULL,
	"to" text NOT NULL,
	"subject" text,
	"text" text NOT NULL,
	"html" text,
	"status" text NOT NULL,
	"error" text,
	"created_at" timestamp with time zone NOT NULL,
	"sent_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "services" (
	"name" text PRIMARY KEY NOT NULL,
	"label" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "settings" (
	"key" text PRIMARY KEY NOT NULL,
	"category" text DEFAULT 'general' NOT NULL,
	"value" jsonb NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sign_in_failures" (
	"id" text PRIMARY KEY NOT NULL,
	"identifier" text NOT NULL,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "api_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"source_id" text NOT NULL,
	"name" text NOT NULL,
	"prefix" text NOT NULL,
	"key_hash" text NOT NULL,
	"key_encrypted" text NOT NULL,
	"can_post_lead" boolean DEFAULT false NOT NULL,
	"held_at" timestamp with time zone,
	"expires_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "api_keys_key_hash_unique" UNIQUE("key_hash")
);
--> statement-breakpoint
CREATE TABLE "source_channels" (
	"id" text PRIMARY KEY NOT NULL,
	"source_id" text NOT NULL,
	"name" text NOT NULL,
	"max_cost_cents" integer
);
--> statement-breakpoint
CREATE TABLE "sources" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"contact_name" text,
	"email" text NOT NULL,
	"phone" text NOT NULL,
	"address" text,
	"city" text,
	"state" text,
	"zip" text,
	"website" text,
	"notes" text,
	"tags" text[] DEFAULT '{}' NOT NULL,
	"tier" integer,
	"can_post_lead" boolean DEFAULT false NOT NULL,
	"max_cost_cents" integer,
	"approved_at" timestamp with time zone,
	"held_at" timestamp with time zone,
	"hold_reason" text,
	"last_lead_sent_at" timestamp with time zone,
	"last_ping_sent_at" timestamp with time zone,
	"last_test_lead_sent_at" timestamp with time zone,
	"last_test_ping_sent_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhooks" (
	"id" text PRIMARY KEY NOT NULL,
	"buyer_id" text NOT NULL,
	"name" text NOT NULL,
	"url" text NOT NULL,
	"method" text DEFAULT 'POST' NOT NULL,
	"headers" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"accept" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"map" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"static" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"key" text,
	"key_name" text,
	"secret" text,
	"secret_name" text,
	"return_id" text,
	"send_content_type" text DEFAULT 'json' NOT NULL,
	"return_content_type" text DEFAULT 'json' NOT NULL,
	"wrap_key" text,
	"ping_id" text DEFAULT 'no_ping' NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"tags" text[] DEFAULT '{}' NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "zips" (
	"zip" text PRIMARY KEY NOT NULL,
	"city" text NOT NULL,
	"state" text NOT NULL,
	"county" text,
	"county_fips" text,
	"lat" double precision,
	"lon" double precision
);
--> statement-breakpoint
CREATE TABLE "zipsets" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"zips" text[] DEFAULT '{}' NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "account" ADD CONSTRAINT "account_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session" ADD CONSTRAINT "session_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_source_filters" ADD CONSTRAINT "campaign_source_filters_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_source_filters" ADD CONSTRAINT "campaign_source_filters_source_id_sources_id_fk" FOREIGN KEY ("source_id") REFERENCES "public"."sources"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_status_events" ADD CONSTRAINT "campaign_status_events_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_buyer_id_buyers_id_fk" FOREIGN KEY ("buyer_id") REFERENCES "public"."buyers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_zipset_id_zipsets_id_fk" FOREIGN KEY ("zipset_id") REFERENCES "public"."zipsets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cap_counters" ADD CONSTRAINT "cap_counters_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_matches" ADD CONSTRAINT "lead_matches_lead_id_leads_id_fk" FOREIGN KEY ("lead_id") REFERENCES "public"."leads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_matches" ADD CONSTRAINT "lead_matches_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_matches" ADD CONSTRAINT "lead_matches_buyer_id_buyers_id_fk" FOREIGN KEY ("buyer_id") REFERENCES "public"."buyers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leads" ADD CONSTRAINT "leads_source_id_sources_id_fk" FOREIGN KEY ("source_id") REFERENCES "public"."sources"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_source_id_sources_id_fk" FOREIGN KEY ("source_id") REFERENCES "public"."sources"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "source_channels" ADD CONSTRAINT "source_channels_source_id_sources_id_fk" FOREIGN KEY ("source_id") REFERENCES "public"."sources"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhooks" ADD CONSTRAINT "webhooks_buyer_id_buyers_id_fk" FOREIGN KEY ("buyer_id") REFERENCES "public"."buyers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "account_user_id_idx" ON "account" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "session_user_id_idx" ON "session" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "user_role_id_idx" ON "user" USING btree ("role_id");--> statement-breakpoint
CREATE INDEX "verification_identifier_idx" ON "verification" USING btree ("identifier");--> statement-breakpoint
CREATE INDEX "campaign_source_filters_campaign_idx" ON "campaign_source_filters" USING btree ("campaign_id");--> statement-breakpoint
CREATE INDEX "campaign_status_events_campaign_idx" ON "campaign_status_events" USING btree ("campaign_id","at");--> statement-breakpoint
CREATE INDEX "campaigns_buyer_id_idx" ON "campaigns" USING btree ("buyer_id");--> statement-breakpoint
CREATE INDEX "campaigns_status_idx" ON "campaigns" USING btree ("status");--> statement-breakpoint
CREATE INDEX "lead_matches_lead_idx" ON "lead_matches" USING btree ("lead_id");--> statement-breakpoint
CREATE INDEX "lead_matches_buyer_created_idx" ON "lead_matches" USING btree ("buyer_id","created_at");--> statement-breakpoint
CREATE INDEX "lead_matches_campaign_idx" ON "lead_matches" USING btree ("campaign_id");--> statement-breakpoint
CREATE INDEX "leads_created_at_idx" ON "leads" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "leads_source_created_idx" ON "leads" USING btree ("source_id","created_at");--> statement-breakpoint
CREATE INDEX "leads_service_created_idx" ON "leads" USING btree ("service","created_at");--> statement-breakpoint
CREATE INDEX "leads_zip_idx" ON "leads" USING btree ("zip");--> statement-breakpoint
CREATE INDEX "leads_phone_idx" ON "leads" USING btree ("phone");--> statement-breakpoint
CREATE INDEX "leads_email_idx" ON "leads" USING btree ("email");--> statement-breakpoint
CREATE INDEX "messages_created_at_idx" ON "messages" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "outbox_created_at_idx" ON "outbox" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "sign_in_failures_identifier_at_idx" ON "sign_in_failures" USING btree ("identifier","at");--> statement-breakpoint
CREATE INDEX "api_keys_source_id_idx" ON "api_keys" USING btree ("source_id");--> statement-breakpoint
CREATE UNIQUE INDEX "source_channels_source_name_idx" ON "source_channels" USING btree ("source_id","name");--> statement-breakpoint
CREATE INDEX "webhooks_buyer_idx" ON "webhooks" USING btree ("buyer_id");--> statement-breakpoint
CREATE INDEX "zips_state_county_idx" ON "zips" USING btree ("state","county");--> statement-breakpoint
CREATE INDEX "zips_lat_lon_idx" ON "zips" USING btree ("lat","lon");