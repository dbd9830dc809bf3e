import { valuesOf } from './choices';

/** Page sizes fixed by the specs (admin §9, portals §9). */
export const PAGE_SIZE = {
  bills: 25,
  campaigns: 25,
  deliveries: 25,
  buyers: 15,
  leads: 15,
  messages: 15,
  returns: 15,
  sources: 25,
} as const;

/** Largest page a list route serves, whatever the client asks. */
export const MAX_PAGE_SIZE = 200;

export const ROLES = ['admin', 'buyer', 'source'] as const;
export type Role = (typeof ROLES)[number];

export const PAY_METHOD_LABELS = {
  auto: 'ACH or Credit Card',
  invoice: 'Invoice',
  prepay: 'Prepay',
  credit: 'Credit',
};
export const PAY_METHODS = valuesOf(PAY_METHOD_LABELS);
export type PayMethod = (typeof PAY_METHODS)[number];

export const BILL_PERIODS = ['weekly', 'monthly'] as const;
export type BillPeriod = (typeof BILL_PERIODS)[number];
export const GRACE_DAYS = [0, 3, 5, 7] as const;

/** Largest prepay balance and credit threshold, in whole dollars (admin §9). */
export const MAX_BILLING_DOLLARS = 100_000;

/** The kinds of record that carry tags, as named by GET /api/tag/{kind}. */
export const TAG_KINDS = ['buyer', 'match', 'webhook', 'lead', 'source'] as const;
export type TagKind = (typeof TAG_KINDS)[number];

export const US_STATES = [
  'AL',
  'AK',
  'AZ',
  'AR',
  'CA',
  'CO',
  'CT',
  'DE',
  'FL',
  'GA',
  'HI',
  'ID',
  'IL',
  'IN',
  'IA',
  'KS',
  'KY',
  'LA',
  'ME',
  'MD',
  'MA',
  'MI',
  'MN',
  'MS',
  'MO',
  'MT',
  'NE',
  'NV',
  'NH',
  'NJ',
  'NM',
  'NY',
  'NC',
  'ND',
  'OH',
  'OK',
  'OR',
  'PA',
  'RI',
  'SC',
  'SD',
  'TN',
  'TX',
  'UT',
  'VT',
  'VA',
  'WA',
  'WV',
  'WI',
  'WY',
] as const;
export type UsState = (typeof US_STATES)[number];
