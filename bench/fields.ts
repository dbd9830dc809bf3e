import type { StoredFieldFilter } from '@leadex/domain';
import { type FieldRow, SOLAR_PING_FIELDS, SOLAR_POST_FIELDS } from '../apps/server/test/solar-fields';

/**
 * BENCH_FIELDS=1 (issue 33): every service gets 10 fields of its own and each of the 200 campaigns 5
 * field filters; the pings send the ping-stage fields and the posts the rest, with values every rule
 * accepts, so the sales are those of the plain bench and only the fields' cost shows.
 */
export const WITH_FIELDS = ['1', 'true', 'yes'].includes((process.env.BENCH_FIELDS ?? '').toLowerCase());

/** The 10 fields of every bench service: 7 sent at the ping, 3 at the post. */
export const BENCH_FIELDS: FieldRow[] = [
  ...SOLAR_PING_FIELDS,
  {
    key: 'credit_rating',
    label: 'Credit rating',
    type: 'choice',
    options: ['Excellent', 'Good', 'Fair', 'Poor'],
    stage: 'ping',
  },
  ...SOLAR_POST_FIELDS,
  { key: 'best_time', label: 'Best time to call', type: 'text', stage: 'post' },
];

/** The 5 rules of every campaign (money in cents): four judged at the ping, one left to the post. */
export const BENCH_RULES: StoredFieldFilter[] = [
  { field: 'electric_bill', type: 'money', op: 'at_least', value: 5_000 },
  { field: 'roof_shade', type: 'choice', op: 'none_of', values: ['Heavy'] },
  { field: 'credit_rating', type: 'choice', op: 'one_of', values: ['Excellent', 'Good'] },
  { field: 'age', type: 'number', op: 'between', min: 18, max: 80 },
  { field: 'battery', type: 'boolean', op: 'equals', value: true },
];

/** What a ping sends (dollars for money), every rule's value met. */
export const PING_FIELDS = {
  electric_bill: 120,
  roof_shade: 'None',
  credit_rating: 'Good',
  age: 41,
  install_by: '2027-03-01',
  utility: 'SCE',
  mailing_zip: '75201',
};

/** What a post adds. */
export const POST_FIELDS = { battery: true, panels: 12, best_time: 'evenings' };
