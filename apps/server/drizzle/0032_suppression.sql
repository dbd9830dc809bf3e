CREATE TABLE "opt_outs" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"hash" text NOT NULL,
	"masked" text NOT NULL,
	"method" text NOT NULL,
	"revoked_at" timestamp with time zone NOT NULL,
	"note" text,
	"recorded_by_buyer_id" text,
	"recorded_by_user_id" text,
	"notified_buyer_ids" text[] DEFAULT '{}' NOT NULL,
	"retain_until" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);--> statement-breakpoint
CREATE TABLE "suppression_entries" (
	"list_id" text NOT NULL,
	"hash" text NOT NULL,
	"source" text NOT NULL,
	"reason" text,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "suppression_entries_list_id_hash_pk" PRIMARY KEY("list_id","hash")
);--> statement-breakpoint
CREATE TABLE "suppression_lists" (
	"id" text PRIMARY KEY NOT NULL,
	"buyer_id" text,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"purpose" text DEFAULT 'do_not_contact' NOT NULL,
	"system" boolean DEFAULT false NOT NULL,
	"entry_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);--> statement-breakpoint
ALTER TABLE "opt_outs" ADD CONSTRAINT "opt_outs_recorded_by_buyer_id_buyers_id_fk" FOREIGN KEY ("recorded_by_buyer_id") REFERENCES "public"."buyers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "suppression_entries" ADD CONSTRAINT "suppression_entries_list_id_suppression_lists_id_fk" FOREIGN KEY ("list_id") REFERENCES "public"."suppression_lists"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "suppression_lists" ADD CONSTRAINT "suppression_lists_buyer_id_buyers_id_fk" FOREIGN KEY ("buyer_id") REFERENCES "public"."buyers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "opt_outs_hash_idx" ON "opt_outs" USING btree ("hash");--> statement-breakpoint
CREATE INDEX "opt_outs_created_at_idx" ON "opt_outs" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "suppression_entries_hash_idx" ON "suppression_entries" USING btree ("hash");--> statement-breakpoint
CREATE INDEX "suppression_lists_buyer_idx" ON "suppression_lists" USING btree ("buyer_id");--> statement-breakpoint
CREATE UNIQUE INDEX "suppression_lists_system_idx" ON "suppression_lists" USING btree (coalesce("buyer_id", ''),"kind") WHERE "suppression_lists"."system";
