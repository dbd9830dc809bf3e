import { z } from 'zod';
import { MAX_PAGE_SIZE, US_STATES } from './constants';

/** Turns the empty strings a cleared form field sends into "absent". */
export const emptyToUndefined = (value: unknown) =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;

/** An optional trimmed text field; an empty string clears it. */
export const optionalText = (max = 500) => z.preprocess(emptyToUndefined, z.string().trim().max(max).optional());

/** A required trimmed text field with the spec's message for a missing value. */
export const requiredText = (message: string, max = 500) =>
  z.string({ error: message }).trim().min(1, message).max(max);

export const emailAddress = (requiredMessage: string) =>
  z.string({ error: requiredMessage }).trim().min(1, requiredMessage).pipe(z.email('Invalid email address.'));

export const usState = z.preprocess(
  (v) => (typeof v === 'string' ? emptyToUndefined(v.trim().toUpperCase()) : v),
  z.enum(US_STATES, { error: 'Choose a US state' }).optional(),
);

export const zipCode = z.preprocess(
  emptyToUndefined,
  z
    .string()
    .trim()
    .regex(/^\d{5}$/, 'Zip must be 5 digits')
    .optional(),
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
