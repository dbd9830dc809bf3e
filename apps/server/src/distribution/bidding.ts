import { BID_OUTCOME_LABELS } from '@leadex/domain';
import type { PingCall, PingOutcome, PingPostDelivery } from './ports';
import type { Bid, ExplanationEntry } from './types';

/** A Ping/Post buyer's bid: it stands in for the price of each of the buyer's eligible campaigns. */
export interface BuyerBid {
  cents: number;
  /** The Ping/Post delivery whose ping made the bid: the one posted to if it wins. */
  deliveryId: string;
  /** The buyer's own id of its bid, echoed in the post (`buyer_ping_id`). */
  buyerPingId: string | null;
}

/**
 * What the pings of one lead decided, per buyer (DESIGN.md §6): its bid, or why it has none. It is
 * kept with the ping (sealed into the ping_id), so the post sells at the bid without pinging again.
 */
export interface BidRound {
  bids: ReadonlyMap<string, BuyerBid>;
  noBids: ReadonlyMap<string, PingOutcome>;
}

/** No ping was sent: a Ping/Post buyer then has no bid. */
export const NO_ROUND: BidRound = { bids: new Map(), noBids: new Map() };

/** The Ping/Post buyers among the eligible bids: the ones to ping, each once. */
export function buyersToPing(
  bids: readonly Bid[],
  pingPost: ReadonlyMap<string, readonly PingPostDelivery[]>,
): string[] {
  if (pingPost.size === 0) return [];
  const buyers = new Set<string>();
  for (const bid of bids) if (pingPost.has(bid.buyerId)) buyers.add(bid.buyerId);
  return [...buyers];
}

/** Which outcome speaks for a buyer without a bid: the most telling of its calls (a timeout or error over a plain no). */
const NO_BID_RANK: Record<PingOutcome, number> = { bid: 0, error: 1, timeout: 2, no_bid: 3 };

/** A buyer's best bid over its deliveries' calls (ties: the first delivery); otherwise its outcome. */
export function roundOf(calls: readonly PingCall[]): BidRound {
  const bids = new Map<string, BuyerBid>();
  const noBids = new Map<string, PingOutcome>();
  for (const call of calls) {
    if (call.outcome === 'bid' && call.bidCents !== null) {
      const best = bids.get(call.buyerId);
      if (!best || call.bidCents > best.cents)
        bids.set(call.buyerId, { cents: call.bidCents, deliveryId: call.deliveryId, buyerPingId: call.buyerPingId });
      continue;
    }
    const known = noBids.get(call.buyerId);
    if (!known || NO_BID_RANK[call.outcome] < NO_BID_RANK[known]) noBids.set(call.buyerId, call.outcome);
  }
  for (const buyerId of bids.keys()) noBids.delete(buyerId);
  return { bids, noBids };
}

/** The ping_id's compact form of a round: `[buyer, cents, delivery, buyer ping id]` and `[buyer, outcome]`. */
export type PackedRound = { bids: [string, number, string, string | null][]; noBids: [string, PingOutcome][] };

export function packRound(round: BidRound): PackedRound {
  return {
    bids: [...round.bids].map(([buyerId, b]) => [buyerId, b.cents, b.deliveryId, b.buyerPingId]),
    noBids: [...round.noBids],
  };
}

export function unpackRound(packed: PackedRound | undefined): BidRound {
  if (!packed) return NO_ROUND;
  return {
    bids: new Map(
      packed.bids.map(([buyerId, cents, deliveryId, buyerPingId]) => [buyerId, { cents, deliveryId, buyerPingId }]),
    ),
    noBids: new Map(packed.noBids),
  };
}

/**
 * The auction's bids once the Ping/Post buyers have answered: a buyer's bid stands in for the price
 * of each of its eligible campaigns, as an exclusive bid only (the buyer priced the whole lead); a
 * Ping/Post buyer without a bid drops out, its campaigns explained with the reason (rule `bid`).
 * A buyer counts as Ping/Post when the round has its answer or it has a live Ping/Post delivery now:
 * a buyer that became one after the ping has no bid, and never buys at a fixed price by mistake.
 * `unpinged` says why a Ping/Post buyer the round does not know has no bid.
 */
export function applyBids(
  bids: readonly Bid[],
  considered: readonly ExplanationEntry[],
  pingPost: ReadonlyMap<string, readonly PingPostDelivery[]>,
  round: BidRound,
  unpinged: string,
): { bids: Bid[]; considered: ExplanationEntry[] } {
  const bidder = (buyerId: string) => pingPost.has(buyerId) || round.bids.has(buyerId) || round.noBids.has(buyerId);
  const priced: Bid[] = [];
  for (const bid of bids) {
    if (!bidder(bid.buyerId)) priced.push(bid);
    else {
      const made = round.bids.get(bid.buyerId);
      if (made) priced.push({ ...bid, priceCents: made.cents, sharedPriceCents: null });
    }
  }
  const explained = considered.map((entry): ExplanationEntry => {
    if (!entry.eligibility.eligible || !bidder(entry.buyerId)) return entry;
    const made = round.bids.get(entry.buyerId);
    if (made)
      return {
        ...entry,
        eligibility: { eligible: true, priceCents: made.cents, sharedPriceCents: null },
        bidOutcome: 'bid',
      };
    const outcome = round.noBids.get(entry.buyerId);
    return {
      ...entry,
      eligibility: {
        eligible: false,
        rule: 'bid',
        detail: outcome ? `${BID_OUTCOME_LABELS[outcome]} at the ping` : unpinged,
      },
      bidOutcome: outcome ?? 'no_bid',
    };
  });
  return { bids: priced, considered: explained };
}
