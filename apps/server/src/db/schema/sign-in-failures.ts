import { index, pgTable, text } from 'drizzle-orm/pg-core';
import { primaryId, timestamptz } from './columns';

/** Failed sign-ins per account, for the limit of 100 failures an hour (DESIGN.md §8). */
export const signInFailures = pgTable(
  'sign_in_failures',
  {
    id: primaryId(),
    /** The email or username that was tried, lower-cased. */
    identifier: text('identifier').notNull(),
    at: timestamptz('at').notNull(),
  },
  (t) => [index('sign_in_failures_identifier_at_idx').on(t.identifier, t.at)],
);
