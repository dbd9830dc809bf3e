import { z } from 'zod';
import { dateOutOfBounds, isWithinDateBounds } from './common';
import { whenMissing } from './messages';

/** The simulator's ping-post and direct lead forms (admin spec §5 Simulator forms). */
export const simZip = z
  .string({ error: 'Enter a valid zip.' })
  .trim()
  .length(5, 'Enter a valid zip.')
  .regex(/^\d{5}$/, 'Enter a valid zip.');

export const simLeadSchema = z.object({
  Project: z
    .string({ error: whenMissing('Project is required') })
    .trim()
    .min(1, 'Project is required'),
  Source: z
    .string({ error: whenMissing('Source is required') })
    .trim()
    .min(1, 'Source is required'),
  Zip: simZip,
});

export const simPingPostSchema = simLeadSchema.extend({
  minprice: z
    .union([z.string(), z.number()])
    .optional()
    .transform((v) => (v === undefined || v === '' ? undefined : String(v)))
    .refine((v) => v === undefined || /^\d+(\.\d{1,2})?$/.test(v), 'Enter a valid min. price.')
    .transform((v) => (v === undefined ? undefined : Number(v))),
});

export type SimLead = z.infer<typeof simLeadSchema>;
export type SimPingPost = z.infer<typeof simPingPostSchema>;

/** POST /api/sim/mockDate: a date to move the clock to (ISO text or epoch seconds), or reset: true for the real time. */
export const simMockDateSchema = z
  .union(
    [
      z.object({ reset: z.literal(true) }).strict(),
      z
        .object({
          date: z
            .union([z.string().trim().min(1), z.number()], { error: 'Date must be a date' })
            .transform((v, ctx) => {
              const date = typeof v === 'number' ? new Date(v * 1000) : new Date(v);
              if (Number.isNaN(date.getTime())) {
                ctx.addIssue({ code: 'custom', message: 'Date must be a date' });
                return z.NEVER;
              }
              return date;
            }),
        })
        .strict(),
    ],
    { error: 'Send a date or reset: true' },
  )
  // After the union, whose refusal would otherwise hide which field is wrong. Zod runs it on a refused
  // input too, hence the checks of what the value is.
  .superRefine((value: unknown, ctx) => {
    const date = value && typeof value === 'object' && 'date' in value ? value.date : undefined;
    if (date instanceof Date && !isWithinDateBounds(date))
      ctx.addIssue({ code: 'custom', path: ['date'], message: dateOutOfBounds('Date') });
  });
export type SimMockDate = z.infer<typeof simMockDateSchema>;

/** POST /api/sim/billing?doPayments=true: the billing run now, paying the closed bills only when asked. */
export const simBillingQuery = z.object({
  doPayments: z
    .enum(['true', 'false'], { error: 'doPayments must be true or false' })
    .optional()
    .transform((v) => v === 'true'),
});

/** The simulator's multiple leads (admin spec §9: count 10 or 20, hit rate 10, 25, 50 or 100 %). */
export const SIM_LEAD_COUNTS = [10, 20] as const;
export const SIM_HIT_RATES = [0.1, 0.25, 0.5, 1] as const;

/** POST /api/sim/leads: how many leads, and the share aimed at ZIP and service pairs a live campaign buys. */
export const simLeadsSchema = z.object({
  count: z.coerce
    .number({ error: 'Count must be a number' })
    .int('Count must be a whole number')
    .min(1, 'Count must be at least 1')
    .max(100, 'Count must be at most 100'),
  hit: z.coerce
    .number({ error: 'Hit rate must be a number' })
    .min(0, 'Hit rate must be at least 0')
    .max(1, 'Hit rate must be at most 1'),
});
export type SimLeads = z.infer<typeof simLeadsSchema>;

/** One simulated lead's outcome, as POST /api/sim/leads streams it (one JSON object a line). */
export interface SimLeadResult {
  index: number;
  count: number;
  service: string;
  zip: string;
  /** Aimed at a pair some live campaign buys. */
  aimed: boolean;
  ok: boolean;
  status?: string;
  lead_id?: string;
  price?: number;
  message?: string;
}

/** A whitelist list: blank entries dropped, at least one left, every one valid (one message for the field). */
const whitelistList = (message: string, valid: (value: string) => boolean) =>
  z
    .array(z.string({ error: message }), { error: message })
    .transform((values) => values.map((v) => v.trim()).filter((v) => v.length > 0))
    .refine((values) => values.length > 0 && values.every(valid), message);

const EMAIL = z.email();
const PHONE = /^\+?[\d\s\-()]{7,20}$/;

/**
 * GET and POST /api/sim/whitelist (admin spec §5): where mail and SMS may go outside production. At
 * least one email and one phone number.
 */
export const simWhitelistSchema = z.object({
  email: whitelistList('Enter at least 1 valid email.', (v) => EMAIL.safeParse(v).success),
  phone: whitelistList('Enter at least 1 phone number.', (v) => PHONE.test(v)),
});
export type SimWhitelist = z.infer<typeof simWhitelistSchema>;
