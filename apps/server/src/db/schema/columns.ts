import { text, timestamp } from 'drizzle-orm/pg-core';

/** When a record was created and last changed (written by the services from the injected clock). */
export const timestamps = () => ({
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
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
