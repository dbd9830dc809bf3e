import { index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Failed sign-ins per account, for the limit of 100 failures an hour (DESIGN.md §8). */
export const signInFailures = pgTable(
  'sign_in_failures',
  {
    id: text('id').primaryKey(),
    /** The email or username that was tried, lower-cased. */
    identifier: text('identifier').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
  },
  (t) => [index('sign_in_failures_identifier_at_idx').on(t.identifier, t.at)],
);
