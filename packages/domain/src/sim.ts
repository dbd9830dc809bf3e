import { z } from 'zod';
import { dateOutOfBounds, isWithinDateBounds, wholeNumber } from './common';
import { leadExplanationEntrySchema } from './lead';
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
  count: wholeNumber('Count', 1, 100, { coerce: true }),
  hit: z.coerce
    .number({ error: 'Hit rate must be a number' })
    .min(0, 'Hit rate must be at least 0')
    .max(1, 'Hit rate must be at most 1'),
});
export type SimLeads = z.infer<typeof simLeadsSchema>;

/** One simulated lead's outcome, as POST /api/sim/leads streams it (one JSON object a line). */
export const simLeadResultSchema = z.object({
  index: z.number(),
  count: z.number(),
  service: z.string(),
  zip: z.string(),
  /** Aimed at a pair some live campaign buys. */
  aimed: z.boolean(),
  ok: z.boolean(),
  status: z.string().optional(),
  lead_id: z.string().optional(),
  price: z.number().optional(),
  message: z.string().optional(),
});
export type SimLeadResult = z.infer<typeof simLeadResultSchema>;

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

/** GET /api/env: what the simulator's System Info shows. */
export const systemInfoSchema = z.object({
  ok: z.boolean(),
  node_env: z.string(),
  /** postgres or pglite. */
  db: z.string(),
  /** The exchange's clock (the mock date when one is set), epoch seconds. */
  date: z.number(),
});
export type SystemInfo = z.infer<typeof systemInfoSchema>;

/** POST /api/sim/mockDate: the clock after the move, epoch seconds. */
export const simMockDateAnswerSchema = z.object({ ok: z.boolean(), date: z.number() });
export type SimMockDateAnswer = z.infer<typeof simMockDateAnswerSchema>;

/** GET and POST /api/sim/whitelist: the list as stored. */
export const simWhitelistAnswerSchema = z.object({
  _id: z.string(),
  email: z.array(z.string()),
  phone: z.array(z.string()),
});
export type SimWhitelistAnswer = z.infer<typeof simWhitelistAnswerSchema>;

/** POST /api/sim/billing: what the billing run did. */
export const billingRunAnswerSchema = z.object({
  ok: z.boolean(),
  /** Initial bills opened for buyers whose first sales had none. */
  opened: z.number(),
  /** Bills past their end: their sales stamped, the next bill opened. */
  rolled: z.number(),
  /** Bills past their grace: totals final. */
  closed: z.number(),
  /** Closed bills invoiced through Stripe (only when the run does payments). */
  invoiced: z.number(),
});
export type BillingRunResult = z.infer<typeof billingRunAnswerSchema>;

/**
 * What the ping-post and direct lead tests answer (POST /api/sim/pingpost, /api/sim/lead): the source
 * API's answers, what they were answered in a sentence, and the decision explained.
 */
const sourceApiAnswer = z.record(z.string(), z.unknown());
export const simTestAnswerSchema = z.object({
  ok: z.boolean(),
  /** The source API's answers, kept whole: a ping's (pingAnswerSchema), a post's or a lead's (saleAnswerSchema). */
  ping: sourceApiAnswer.optional(),
  post: sourceApiAnswer.optional(),
  lead: sourceApiAnswer.optional(),
  /** What the ping, post or lead was answered, in a sentence. */
  outcome: z.string(),
  explanation: z.array(leadExplanationEntrySchema),
});
export type SimTestAnswer = z.infer<typeof simTestAnswerSchema>;
