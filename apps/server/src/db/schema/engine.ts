import { bigint, pgTable, text } from 'drizzle-orm/pg-core';

/**
 * One counter per kind of engine input (campaigns, buyers, sources, regions), bumped in the
 * transaction that changes it; every process polls it and reloads its in-memory index when it moves.
 */
export const engineVersions = pgTable('engine_versions', {
  name: text('name').primaryKey(),
  version: bigint('version', { mode: 'number' }).notNull().default(0),
});
