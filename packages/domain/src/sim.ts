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
