import { BID_OUTCOME_LABELS, type BidOutcome } from '@leadex/domain';
import { formatMoney } from '../../lib/format';

/**
 * A URL a source sent, as a link only when it is http or https (issue 12: what a source sent is shown,
 * never run: `javascript:` and the like stay text).
 */
export function safeHref(value: string | null | undefined): string | undefined {
  if (!value) return undefined;
  try {
    const url = new URL(value.trim());
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** Direct or Ping/Post (portals §3: derived from ping_id, no_ping meaning Direct). */
export function leadType(pingId: string | undefined): 'Direct' | 'Ping/Post' {
  return pingId === 'no_ping' ? 'Direct' : 'Ping/Post';
}

/** How a Ping/Post buyer answered (DESIGN.md §6): 'Bid $40.00', or 'No bid', 'Timeout', 'Error', 'Refused post'. */
export function bidOutcomeLabel(outcome: BidOutcome, bid: number | null | undefined): string {
  return outcome === 'bid' && bid !== undefined && bid !== null
    ? `Bid ${formatMoney(bid)}`
    : BID_OUTCOME_LABELS[outcome];
}

/** The colour of a bid outcome's badge: a bid green, a plain no yellow, a failure red. */
export const BID_OUTCOME_COLORS: Record<BidOutcome, string> = {
  bid: 'green',
  no_bid: 'yellow',
  timeout: 'red',
  error: 'red',
  refused_post: 'red',
};
