import { z } from 'zod';
import { pageQuery, refSchema } from './common';
import { countedPageSchema } from './errors';
import { BID_OUTCOMES, pingOutcomeSchema } from './webhook';

/**
 * The Pings screen (admin, issue 32): what Ping/Post buyers' systems answered to pings that never
 * became leads (the source never posted, or posted after the ping expired): their bids and reasons,
 * newest first. A ping that became a lead shows its pings on the lead's detail instead.
 */
export const PING_BIDS_PAGE_SIZE = 25;

export const pingBidListQuery = pageQuery(PING_BIDS_PAGE_SIZE).extend({
  /** Only this buyer's answers. */
  buyer: z.string().trim().max(100).optional(),
  /** Only answers of this kind (bid, no bid, timeout, error). */
  outcome: z
    .enum(BID_OUTCOMES)
    .exclude(['refused_post'], { error: 'Outcome must be bid, no_bid, timeout or error' })
    .optional(),
});
export type PingBidListQuery = z.infer<typeof pingBidListQuery>;

/** One buyer's answer to one ping that never became a lead. */
export const pingBidSchema = z.object({
  _id: z.string(),
  /** The exchange's ping id (`png_…`). */
  ping_id: z.string(),
  buyer: refSchema,
  delivery: refSchema,
  /** The source that pinged, and what it asked about (absent when the ping's own record is not written yet). */
  source: refSchema.optional(),
  service: z.string().optional(),
  zip: z.string().optional(),
  outcome: pingOutcomeSchema,
  /** The bid in dollars. */
  bid: z.number().optional(),
  /** Why it is no bid, in words. */
  reason: z.string().optional(),
  status_code: z.number().optional(),
  response: z.string().optional(),
  duration_ms: z.number(),
  test: z.boolean(),
  ts: z.number(),
});
export type PingBid = z.infer<typeof pingBidSchema>;

/** GET /api/pingbids: a page, and how many in all (counted up to PING_BIDS_COUNT_LIMIT; `more` past it). */
export const PING_BIDS_COUNT_LIMIT = 10_000;
export const pingBidPageSchema = countedPageSchema(pingBidSchema);
export type PingBidPage = z.infer<typeof pingBidPageSchema>;
