import { index, pgTable, text } from 'drizzle-orm/pg-core';
import { primaryId, timestamptz } from './columns';

/**
 * Failed sign-ins per (account, client address), for the growing delays of sign-in-limit.ts
 * (DESIGN.md §8, ASVS 2.2.1): an attacker's address is slowed, never the owner's elsewhere.
 */
export const signInFailures = pgTable(
  'sign_in_failures',
  {
    id: primaryId(),
    /** The account (`user:<id>`), or the lower-cased login typed when no user has it (`login:<text>`). */
    identifier: text('identifier').notNull(),
    /** The client address the attempt came from (Fastify's request.ip, honouring TRUST_PROXY). */
    address: text('address').notNull().default(''),
    at: timestamptz('at').notNull(),
  },
  (t) => [index('sign_in_failures_identifier_address_at_idx').on(t.identifier, t.address, t.at)],
);
