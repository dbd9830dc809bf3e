import { z } from 'zod';
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
export const simMockDateSchema = z.union(
  [
    z.object({ reset: z.literal(true) }).strict(),
    z
      .object({
        date: z.union([z.string().trim().min(1), z.number()], { error: 'Date must be a date' }).transform((v, ctx) => {
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
);
export type SimMockDate = z.infer<typeof simMockDateSchema>;

/** POST /api/sim/billing?doPayments=true: the billing run now, paying the closed bills only when asked. */
export const simBillingQuery = z.object({
  doPayments: z
    .enum(['true', 'false'], { error: 'doPayments must be true or false' })
    .optional()
    .transform((v) => v === 'true'),
});
