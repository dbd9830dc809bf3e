-- Issue 27: a self-signed-up source needs a payout to sell real leads, where an admin's source without a lead
-- cost is internal (DESIGN.md §5). Sources stored before this flag: an unapproved one, or one approved later
-- than it was made, came through the sign-up form (an admin's source is approved the instant it is made).
ALTER TABLE "sources" ADD COLUMN "self_signed_up" boolean DEFAULT false NOT NULL;--> statement-breakpoint
UPDATE "sources" SET "self_signed_up" = true WHERE "approved_at" IS NULL OR "approved_at" <> "created_at";
