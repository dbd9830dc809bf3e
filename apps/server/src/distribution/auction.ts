import type { AuctionResult, Bid } from './types';

/** The auction's settings: N (setting, default 3) and the payout the sale must cover. */
export interface AuctionOptions {
  /** Most distinct buyers a shared sale goes to; 0 turns shared sales off. */
  maxSharedBuyers: number;
  /** The source's payout for this lead (0 for internal sources): a sale must bring at least this. */
  minRevenueCents: number;
}

type Winner = AuctionResult['winners'][number];

/**
 * Orders bids best first by a price: higher price, then least recently sold (so equal bids
 * rotate), then campaign id, so the outcome never depends on the order bids arrived in.
 */
function rank(price: (bid: Bid) => number): (a: Bid, b: Bid) => number {
  return (a, b) =>
    price(b) - price(a) ||
    a.lastSoldAt - b.lastSoldAt ||
    (a.campaignId < b.campaignId ? -1 : a.campaignId > b.campaignId ? 1 : 0);
}

const exclusivePrice = (bid: Bid): number => bid.priceCents;
const sharedPrice = (bid: Bid): number => bid.sharedPriceCents ?? 0;

/** The winning exclusive bid: the highest positive price, equal prices rotating. */
export function bestExclusive(bids: readonly Bid[]): Bid | null {
  // A price of 0 (or less) is not an offer: selling a lead for nothing only spends it.
  const offers = bids.filter((bid) => bid.priceCents > 0);
  return offers.sort(rank(exclusivePrice))[0] ?? null;
}

/**
 * The shared winners: each buyer's single best shared bid, then the best of those from up to
 * `maxBuyers` distinct buyers. One bid per buyer, because a buyer never receives a lead twice,
 * even through two campaigns.
 */
export function bestShared(bids: readonly Bid[], maxBuyers: number): Bid[] {
  if (maxBuyers <= 0) return [];
  const byBuyer = new Map<string, Bid>();
  const ranked = rank(sharedPrice);
  for (const bid of bids) {
    if (bid.sharedPriceCents === null || bid.sharedPriceCents <= 0) continue;
    const current = byBuyer.get(bid.buyerId);
    if (current === undefined || ranked(bid, current) < 0) byBuyer.set(bid.buyerId, bid);
  }
  return [...byBuyer.values()].sort(ranked).slice(0, maxBuyers);
}

const exclusiveWinner = (bid: Bid): Winner => ({
  campaignId: bid.campaignId,
  buyerId: bid.buyerId,
  priceCents: bid.priceCents,
});

const sharedWinner = (bid: Bid): Winner => ({
  campaignId: bid.campaignId,
  buyerId: bid.buyerId,
  priceCents: sharedPrice(bid),
});

/**
 * Sells a lead (DESIGN.md §5 auction): the best exclusive bid against the sum of the best shared
 * bids of up to N distinct buyers; the larger wins, a tie goes exclusive (one buyer, one
 * delivery, the consumer called once). null when nothing bids or the winning revenue is below
 * `minRevenueCents`, the payout: the exchange never sells at a loss.
 *
 * Only the larger option needs checking against the payout: if it falls short, the smaller one
 * falls shorter. A shared sale needs one shared bid, not two: a buyer bidding a shared price
 * agreed to pay it for a lead that may go to N-1 others, and getting it alone only favours it;
 * since that buyer's exclusive bid competes too, a lone shared bid wins only when it beats every
 * exclusive price.
 *
 * When a cap fills between ping and post, re-run this with the capped campaigns' bids removed
 * and `minRevenueCents` set to the quoted payout: the sale moves to the next bidders, or is
 * refused if they no longer cover the quote.
 */
export function runAuction(bids: readonly Bid[], opts: AuctionOptions): AuctionResult | null {
  const exclusive = bestExclusive(bids);
  const shared = bestShared(bids, opts.maxSharedBuyers);
  const exclusiveRevenue = exclusive?.priceCents ?? 0;
  const sharedRevenue = shared.reduce((sum, bid) => sum + sharedPrice(bid), 0);

  let result: AuctionResult | null = null;
  if (exclusive !== null && exclusiveRevenue >= sharedRevenue) {
    result = { kind: 'exclusive', winners: [exclusiveWinner(exclusive)], revenueCents: exclusiveRevenue };
  } else if (shared.length > 0) {
    result = { kind: 'shared', winners: shared.map(sharedWinner), revenueCents: sharedRevenue };
  }
  if (result === null || result.revenueCents < opts.minRevenueCents) return null;
  return result;
}
