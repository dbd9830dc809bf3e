import type { serviceFields } from '../src/db/schema';

/** A service's field as the service_fields table stores it, but for its service and position. */
export type FieldRow = Omit<typeof serviceFields.$inferInsert, 'service' | 'position' | 'createdAt' | 'updatedAt'>;

/**
 * The solar fields the field-filter tests (campaigns.field-filters.test.ts) and the bench's BENCH_FIELDS=1
 * give their services, each list adding its own: those sent at the ping, then those sent with the post.
 */
export const SOLAR_PING_FIELDS: FieldRow[] = [
  { key: 'electric_bill', label: 'Monthly electric bill', type: 'money', stage: 'ping' },
  { key: 'roof_shade', label: 'Roof shade', type: 'choice', options: ['None', 'Partial', 'Heavy'], stage: 'ping' },
  { key: 'age', label: 'Age', type: 'number', stage: 'ping' },
  { key: 'install_by', label: 'Install by', type: 'date', stage: 'ping' },
  { key: 'utility', label: 'Utility', type: 'text', stage: 'ping' },
  { key: 'mailing_zip', label: 'Mailing ZIP', type: 'zip', stage: 'ping' },
];
export const SOLAR_POST_FIELDS: FieldRow[] = [
  { key: 'battery', label: 'Wants a battery', type: 'boolean', stage: 'post' },
  { key: 'panels', label: 'Panels wanted', type: 'number', stage: 'post' },
];
