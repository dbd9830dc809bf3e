import { boolean, integer, jsonb, pgTable, real, text } from 'drizzle-orm/pg-core';
import { contactColumns, primaryId, timestamps } from './columns';

/** Default lead delivery, read whole (DESIGN.md §10: jsonb for configuration). */
export interface NotifyConfig {
  email: string[];
  sms: string[];
  webhook?: string;
  broadcast_webhooks: string[];
}

export const buyers = pgTable('buyers', {
  id: primaryId(),
  name: text('name').notNull(),
  /** The primary user's sign-in name; fixed at creation. */
  username: text('username').notNull().unique(),
  ...contactColumns(),
  notes: text('notes'),
  tags: text('tags').array().notNull().default([]),
  notify: jsonb('notify').$type<NotifyConfig>().notNull().default({ email: [], sms: [], broadcast_webhooks: [] }),
  payMethod: text('pay_method').notNull().default('invoice'),
  prepayCents: integer('prepay_cents').notNull().default(0),
  period: text('period').notNull().default('monthly'),
  graceDays: integer('grace_days').notNull().default(3),
  thresholdCents: integer('threshold_cents').notNull().default(0),
  stripeCustomerId: text('stripe_customer_id'),
  /** Share of a bill's leads that may be returned without an admin (0 to 1). */
  autoApproveReturns: real('auto_approve_returns').notNull().default(0),
  /**
   * Whether the buyer sees which source each of its leads came from (issue 27): exchanges keep
   * their suppliers from their buyers, so it is off unless an admin turns it on.
   */
  showSource: boolean('show_source').notNull().default(false),
  /** The buyer's daily budget across its campaigns, in cents (issue 33); null = no budget. */
  budgetDailyCents: integer('budget_daily_cents'),
  /** The company's legal names, as a consumer's consent must name it (issue 34 item 4). */
  legalNames: text('legal_names').array().notNull().default([]),
  ...timestamps(),
});
