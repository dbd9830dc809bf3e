-- Name contains (ILIKE '%x%') is estimated from the column's statistics. With the default 100 samples
-- the planner took a common name for a rare one (99 rows for 10,000) and read every candidate of a
-- year to find a month's, or sorted them all for a page. A finer sample gives estimates near the truth;
-- it takes effect at the next ANALYZE (autovacuum, or by hand after this migration: docs/operations.md).
ALTER TABLE "leads" ALTER COLUMN "name" SET STATISTICS 1000;
