import { z } from 'zod';
import { namedRefSchema, optionalText, pageQuery } from './common';
import { PAGE_SIZE } from './constants';
import { RETURN_STATUSES } from './lead';
import { whenMissing } from './messages';

/** Why a buyer returns a lead (portals spec §5 Return dialog; DESIGN.md §7). */
export const RETURN_REASONS = ['Duplicate Lead', 'Location', 'Wrong Service', 'Bad Information'] as const;
export type ReturnReason = (typeof RETURN_REASONS)[number];

/** Days after a sale that its buyer may ask to return it, unless the `return_window_days` setting says otherwise. */
export const DEFAULT_RETURN_WINDOW_DAYS = 7;

/** A buyer's Request Lead Return: the reason (required) and an optional comment. */
export const returnRequestSchema = z.object({
  reason: z.enum(RETURN_REASONS, {
    error: (issue) =>
      whenMissing('Reason is required')(issue) ??
      'Reason must be Duplicate Lead, Location, Wrong Service or Bad Information',
  }),
  comment: optionalText(1000),
});
export type ReturnRequest = z.infer<typeof returnRequestSchema>;

/** An admin's decision on a match's return (admin spec §7: body approve true, or deny true). */
export const returnDecisionSchema = z.union(
  [z.object({ approve: z.literal(true) }).strict(), z.object({ deny: z.literal(true) }).strict()],
  { error: 'Send approve: true or deny: true' },
);
export type ReturnDecision = z.infer<typeof returnDecisionSchema>;

/** GET /api/lead/returns: the admin's Returns screen, waiting requests first (page size 15). */
export const returnListQuery = pageQuery(PAGE_SIZE.returns).extend({
  status: z.enum(['requested', 'approved', 'denied', 'all']).default('all'),
});
export type ReturnListQuery = z.infer<typeof returnListQuery>;

/** A row of the Returns screen. */
export const returnListItemSchema = z.object({
  /** The match's id: what approve and deny act on. */
  _id: z.string(),
  lead_id: z.string(),
  lead_name: z.string().optional(),
  service: z.string(),
  zip: z.string(),
  buyer: namedRefSchema,
  /** The buyer's price, dollars: what an approval credits its bill. */
  price: z.number(),
  /** The sale, epoch seconds. */
  ts: z.number(),
  reason: z.string().optional(),
  comment: z.string().optional(),
  status: z.enum(RETURN_STATUSES),
  /** When it was asked (epoch seconds); absent for an admin's approval without a request. */
  requested_ts: z.number().optional(),
  decided_ts: z.number().optional(),
});
export type ReturnListItem = z.infer<typeof returnListItemSchema>;

/** POST /api/lead/{id}/match/{matchId}/return: the match's return after a request or a decision. */
export const returnAnswerSchema = z.object({
  _id: z.string(),
  status: z.enum(RETURN_STATUSES).nullable(),
  reason: z.string().optional(),
  comment: z.string().optional(),
});
export type ReturnAnswer = z.infer<typeof returnAnswerSchema>;
