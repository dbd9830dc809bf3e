import { type AnyPgColumn, integer, text, timestamp } from 'drizzle-orm/pg-core';

/** Every instant is stored with its time zone (shown in New York time, compared as instants). */
export const timestamptz = (name: string) => timestamp(name, { withTimezone: true });

/** A record's own id: a prefixed ULID made by the service (lib/ids.ts), never by the database. */
export const primaryId = () => text('id').primaryKey();

/** A child row's parent: required, and the child goes when the parent is deleted. */
export const parentId = (name: string, parent: () => AnyPgColumn) =>
  text(name).notNull().references(parent, { onDelete: 'cascade' });

/** A required reference to a row that is never deleted (a buyer, a source). */
export const requiredRef = (name: string, target: () => AnyPgColumn) => text(name).notNull().references(target);

/** When a record was created and last changed (written by the services from the injected clock). */
export const timestamps = () => ({
  createdAt: timestamptz('created_at').notNull(),
  updatedAt: timestamptz('updated_at').notNull(),
});

/** better-auth's own timestamps: it writes them itself, the database fills them when it does not. */
export const authTimestamps = () => ({
  createdAt: timestamptz('created_at').notNull().defaultNow(),
  updatedAt: timestamptz('updated_at').notNull().defaultNow(),
});

/** The contact columns of a buyer and of a source (admin spec §5): email and phone, then the address. */
export const contactColumns = () => ({
  email: text('email').notNull(),
  phone: text('phone').notNull(),
  address: text('address'),
  city: text('city'),
  state: text('state'),
  zip: text('zip'),
});

/**
 * What a logged outbound call sent and got (a delivery attempt, a Ping/Post ping): the answer's status
 * (null without an answer), excerpts of the request and the response, and the error in words.
 */
export const callExchange = () => ({
  statusCode: integer('status_code'),
  request: text('request'),
  response: text('response'),
  error: text('error'),
});

/** How long a logged outbound call took, and when it was made. */
export const callTiming = () => ({
  durationMs: integer('duration_ms').notNull().default(0),
  at: timestamptz('at').notNull(),
});
