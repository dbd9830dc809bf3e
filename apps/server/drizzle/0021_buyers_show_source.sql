-- Issue 27: a buyer sees the source of its leads only when an admin allows it (off by default: exchanges keep
-- their suppliers from their buyers).
ALTER TABLE "buyers" ADD COLUMN "show_source" boolean DEFAULT false NOT NULL;
