import { z } from 'zod';
import { MAX_PAGE_SIZE, US_STATES } from './constants';
import { whenMissing } from './messages';

/** Turns the empty strings a cleared form field sends into "absent". */
export const emptyToUndefined = (value: unknown) =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;

/** An optional trimmed text field; an empty string clears it. */
export const optionalText = (max = 500) => z.preprocess(emptyToUndefined, z.string().trim().max(max).optional());

/** "Name is required" -> "Name must be at most 200 characters"; undefined when the message names no field. */
const tooLong = (requiredMessage: string, max: number) => {
  const label = /^(.+) is required\.?$/.exec(requiredMessage)?.[1];
  return label ? `${label} must be at most ${max} characters` : undefined;
};

/**
 * A required trimmed text field with the spec's message for a missing (or empty) value only; a
 * value of another type or a too-long text gets its own message.
 */
export const requiredText = (message: string, max = 500) =>
  z
    .string({ error: whenMissing(message) })
    .trim()
    .min(1, message)
    .max(max, tooLong(message, max));

/** Longest email address (RFC 5321's path limit). */
const MAX_EMAIL = 254;

export const emailAddress = (requiredMessage: string) =>
  z
    .string({ error: whenMissing(requiredMessage) })
    .trim()
    .min(1, requiredMessage)
    .max(MAX_EMAIL, tooLong(requiredMessage, MAX_EMAIL))
    .pipe(z.email('Invalid email address.'));

export const usState = z.preprocess(
  (v) => (typeof v === 'string' ? emptyToUndefined(v.trim().toUpperCase()) : v),
  // No message of its own: the map says "State must be a US state".
  z.enum(US_STATES).optional(),
);

export const zipCode = z.preprocess(
  emptyToUndefined,
  z
    .string()
    .trim()
    .regex(/^\d{5}$/, 'Zip must be 5 digits')
    .optional(),
);

/** Numeric text from a form becomes a number; anything else stays as sent (and fails as "not a number"). */
export const numericText = (value: unknown) =>
  typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value) ? Number(value) : value;
/** A form's empty field or a null: no value. */
export const isBlank = (value: unknown) => value === null || (typeof value === 'string' && value.trim() === '');
const hasAtMostTwoDecimals = (value: number) => Math.abs(value * 100 - Math.round(value * 100)) < 1e-6;

/** What an amount in dollars answers when it is missing, not a number, below 0 or over its maximum. */
export interface DollarMessages {
  required: string;
  number: string;
  min: string;
  max: string;
}

/** The messages of an amount: every label composes the same sentences (`Price must be a number`, …). */
export const dollarMessages = (label: string, max: number): DollarMessages => ({
  required: `${label} is required`,
  number: `${label} must be a number`,
  min: `${label} must be at least 0`,
  max: `${label} must be less than or equal to ${max}`,
});

/**
 * The specs' own words for their amounts (admin-back-office.md: source filter rows, the source
 * form's max cost), spelled out so a reader (and spec-texts.mjs) finds them; a test holds them equal
 * to what `dollarMessages` composes.
 */
export const SPEC_DOLLAR_MESSAGES = {
  Price: {
    number: 'Price must be a number',
    min: 'Price must be at least 0',
    max: 'Price must be less than or equal to 5000',
  },
  'Shared Price': {
    number: 'Shared Price must be a number',
    min: 'Shared Price must be at least 0',
    max: 'Shared Price must be less than or equal to 5000',
  },
  'Max cost': { required: 'Max cost is required', number: 'Max cost must be a number' },
} as const satisfies Record<string, Partial<DollarMessages>>;

/** Dollars from 0 to `max` with at most 2 decimals, with messages naming the field (`Price must be a number`, …). */
export const dollars = (label: string, max: number) => {
  const m = dollarMessages(label, max);
  return z
    .number({ error: (issue) => (issue.input === undefined ? m.required : m.number) })
    .min(0, m.min)
    .max(max, m.max)
    .refine(hasAtMostTwoDecimals, `${label} must have at most 2 decimals`);
};

/** A required amount in dollars: empty input counts as missing; numeric text counts as its number. */
export const requiredDollars = (label: string, max: number) =>
  z.preprocess((v) => (isBlank(v) ? undefined : numericText(v)), dollars(label, max));

/** An optional amount in dollars: empty input (or null) means none. */
export const optionalDollars = (label: string, max: number) =>
  z.preprocess(
    (v) => (v === undefined ? undefined : isBlank(v) ? null : numericText(v)),
    dollars(label, max).nullable().optional(),
  );

export const tagList = z.array(z.string().trim().min(1).max(100)).max(200);

/** Query of every paged list: page (1-based), pageSize, sort, order. */
export const pageQuery = (defaultPageSize: number) =>
  z.object({
    page: z.coerce.number().int().min(1).default(1),
    pageSize: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(defaultPageSize),
    sort: z.string().optional(),
    order: z.enum(['asc', 'desc']).optional(),
  });

/** A user of a buyer or a source as the API answers it (the users sections of both screens). */
export const portalUserAnswerSchema = z.object({
  _id: z.string(),
  name: z.string(),
  email: z.string(),
  hold: z.object({ ts: z.number() }).optional(),
});

/** A record an answer points at (a buyer, a source, a campaign): its id and its name. */
export const namedRefSchema = z.object({ _id: z.string(), name: z.string() });
/** The same where the name may be missing (the record gone, or its name not read back). */
export const refSchema = namedRefSchema.partial({ name: true });

/** A lead as the buyer's and the source's latest-leads tables show it; each adds its money. */
export const leadRowSchema = z.object({
  _id: z.string(),
  ts: z.number(),
  name: z.string().optional(),
  service: z.string(),
  zip: z.string(),
});

/** The contact details a buyer and a source share, as the API answers them (admin spec §5). */
export const contactSchema = z.object({
  email: z.string(),
  phone: z.string(),
  address: z.string().optional(),
  city: z.string().optional(),
  state: z.string().optional(),
  zip: z.string().optional(),
});
export type Contact = z.infer<typeof contactSchema>;

/**
 * A whole number from `min` to `max`, each rule's message naming the field (`Days must be at least 1`);
 * `coerce` reads numeric text too (a query string, a form's text), `atLeast` says more about the minimum.
 */
export function wholeNumber(
  label: string,
  min: number,
  max: number,
  { coerce = false, atLeast = `${label} must be at least ${min}` }: { coerce?: boolean; atLeast?: string } = {},
) {
  return (coerce ? z.coerce.number : z.number)({ error: `${label} must be a number` })
    .int(`${label} must be a whole number`)
    .min(min, atLeast)
    .max(max, `${label} must be at most ${max}`);
}

/** The indexes of the items whose key an earlier item already has (each repeat after the first). */
export function repeatedIndexes<T>(items: readonly T[], key: (item: T) => string): number[] {
  const seen = new Set<string>();
  return items.flatMap((item, i) => {
    const k = key(item);
    if (seen.has(k)) return [i];
    seen.add(k);
    return [];
  });
}

/** 2026-02-28 is a date; 2026-02-31 is not (Date would roll it over to March 3). */
export function isCalendarDate(value: string): boolean {
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}

/**
 * The dates the exchange takes, everywhere one is accepted: nothing it records happened before 2000 or
 * will after 2100, and a year such as 0001 or 9999 is a typing slip that would overflow the day
 * arithmetic of date ranges (and a year below 100 reads as 19xx in `Date`'s numeric form).
 */
export const DATE_BOUNDS = { first: '2000-01-01', last: '2100-12-31' } as const;

/** The message of a date outside DATE_BOUNDS, naming the field. */
export const dateOutOfBounds = (label: string) =>
  `${label} must be between ${DATE_BOUNDS.first} and ${DATE_BOUNDS.last}`;

/** Whether an instant falls within DATE_BOUNDS (UTC days, so a zone's offset never refuses an edge). */
export function isWithinDateBounds(at: Date): boolean {
  const ms = at.getTime();
  return (
    ms >= Date.parse(`${DATE_BOUNDS.first}T00:00:00Z`) && ms < Date.parse(`${DATE_BOUNDS.last}T00:00:00Z`) + 86_400_000
  );
}

/** A calendar date as YYYY-MM-DD within DATE_BOUNDS, with messages naming the field. */
export const isoDate = (label: string, missing = `${label} is required`) =>
  z
    .string({ error: whenMissing(missing) })
    .trim()
    .regex(/^\d{4}-\d{2}-\d{2}$/, `${label} must be a date as YYYY-MM-DD`)
    .refine((value) => isCalendarDate(value), `${label} must be a real date`)
    .refine((value) => value >= DATE_BOUNDS.first && value <= DATE_BOUNDS.last, dateOutOfBounds(label))
    .meta({ format: 'date' });

/** A bare list of names (services, tags, values present): what the short reference lists answer. */
export const nameListSchema = z.array(z.string());
export type NameList = z.infer<typeof nameListSchema>;
