CREATE TABLE "access_log" (
	"id" text PRIMARY KEY NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"user_id" text,
	"role" text NOT NULL,
	"action" text NOT NULL,
	"lead_ids" text[] DEFAULT '{}' NOT NULL,
	"detail" jsonb,
	"address" text
);
--> statement-breakpoint
CREATE TABLE "erasure_notices" (
	"id" text PRIMARY KEY NOT NULL,
	"request_id" text NOT NULL,
	"buyer_id" text NOT NULL,
	"match_ids" text[] NOT NULL,
	"channel" text NOT NULL,
	"target" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"error" text,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "erasure_requests" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"requested_by" text NOT NULL,
	"erased_by" text,
	"matched_on" text,
	"counts" jsonb NOT NULL,
	"lead_ids" text[] DEFAULT '{}' NOT NULL,
	"buyer_ids" text[] DEFAULT '{}' NOT NULL,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "access_log_at_idx" ON "access_log" USING btree ("at","id");--> statement-breakpoint
CREATE INDEX "access_log_user_at_idx" ON "access_log" USING btree ("user_id","at");--> statement-breakpoint
CREATE INDEX "access_log_lead_ids_idx" ON "access_log" USING gin ("lead_ids");--> statement-breakpoint
CREATE INDEX "erasure_notices_request_idx" ON "erasure_notices" USING btree ("request_id");--> statement-breakpoint
CREATE INDEX "erasure_notices_status_idx" ON "erasure_notices" USING btree ("status");--> statement-breakpoint
CREATE INDEX "erasure_requests_at_idx" ON "erasure_requests" USING btree ("at","id");--> statement-breakpoint
CREATE FUNCTION "access_log_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'access_log is append-only: % refused', TG_OP;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "access_log_no_change" BEFORE UPDATE OR DELETE ON "access_log" FOR EACH ROW EXECUTE FUNCTION "access_log_append_only"();
--> statement-breakpoint
CREATE TRIGGER "access_log_no_truncate" BEFORE TRUNCATE ON "access_log" FOR EACH STATEMENT EXECUTE FUNCTION "access_log_append_only"();
