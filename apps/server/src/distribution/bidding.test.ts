import { describe, expect, it } from 'vitest';
import { applyBids, buyersToPing, NO_ROUND, packRound, roundOf, unpackRound } from './bidding';
import type { PingCall, PingPostDelivery } from './ports';
import type { Bid, ExplanationEntry } from './types';

const call = (buyerId: string, deliveryId: string, outcome: PingCall['outcome'], bidCents: number | null = null) =>
  ({ buyerId, deliveryId, outcome, bidCents, buyerPingId: bidCents ? `${deliveryId}-id` : null }) as PingCall;

const bid = (campaignId: string, buyerId: string, priceCents: number, sharedPriceCents: number | null = null): Bid => ({
  campaignId,
  buyerId,
  priceCents,
  sharedPriceCents,
  lastSoldAt: 0,
});

const entry = (b: Bid): ExplanationEntry => ({
  campaignId: b.campaignId,
  buyerId: b.buyerId,
  name: b.campaignId,
  eligibility: { eligible: true, priceCents: b.priceCents, sharedPriceCents: b.sharedPriceCents },
});

const pingPost = new Map([
  ['pp1', [{ _id: 'whk_a' } as PingPostDelivery]],
  ['pp2', [{ _id: 'whk_b' } as PingPostDelivery]],
]);

describe('the Ping/Post bids of one lead', () => {
  it('pings each Ping/Post buyer among the eligible bids once, and nobody else', () => {
    const bids = [bid('c1', 'pp1', 500), bid('c2', 'pp1', 700), bid('c3', 'fixed', 3000)];
    expect(buyersToPing(bids, pingPost)).toEqual(['pp1']);
    expect(buyersToPing(bids, new Map())).toEqual([]);
  });

  it("keeps a buyer's best bid over its deliveries, else its most telling no", () => {
    const round = roundOf([
      call('pp1', 'whk_a', 'bid', 3000),
      call('pp1', 'whk_c', 'bid', 4200),
      call('pp1', 'whk_d', 'timeout'),
      call('pp2', 'whk_b', 'no_bid'),
      call('pp2', 'whk_e', 'timeout'),
    ]);
    expect([...round.bids]).toEqual([['pp1', { cents: 4200, deliveryId: 'whk_c', buyerPingId: 'whk_c-id' }]]);
    expect([...round.noBids]).toEqual([['pp2', 'timeout']]);
    expect(unpackRound(packRound(round))).toEqual(round);
  });

  it('a bid stands in for every campaign price of its buyer, exclusive only; a Ping/Post buyer without one drops out', () => {
    const bids = [bid('c1', 'pp1', 500, 400), bid('c2', 'pp2', 9000), bid('c3', 'fixed', 3000)];
    const round = roundOf([call('pp1', 'whk_a', 'bid', 4000), call('pp2', 'whk_b', 'error')]);
    const applied = applyBids(bids, bids.map(entry), pingPost, round, 'not pinged');
    expect(applied.bids).toEqual([bid('c1', 'pp1', 4000), bid('c3', 'fixed', 3000)]);
    expect(applied.considered.map((e) => [e.campaignId, e.eligibility, e.bidOutcome])).toEqual([
      ['c1', { eligible: true, priceCents: 4000, sharedPriceCents: null }, 'bid'],
      ['c2', { eligible: false, rule: 'bid', detail: 'Error at the ping' }, 'error'],
      ['c3', { eligible: true, priceCents: 3000, sharedPriceCents: null }, undefined],
    ]);
  });

  it('a Ping/Post buyer the round does not know never buys at its fixed price; a bid stands even once the delivery is gone', () => {
    const bids = [bid('c1', 'pp1', 500), bid('c4', 'was_pp', 800)];
    const round = roundOf([call('was_pp', 'whk_x', 'bid', 2500)]);
    const applied = applyBids(bids, bids.map(entry), pingPost, round, 'not pinged for this lead');
    expect(applied.bids).toEqual([bid('c4', 'was_pp', 2500)]);
    expect(applied.considered[0]?.eligibility).toEqual({
      eligible: false,
      rule: 'bid',
      detail: 'not pinged for this lead',
    });
    expect(applyBids(bids, bids.map(entry), pingPost, NO_ROUND, 'x').bids).toEqual([bid('c4', 'was_pp', 800)]);
  });
});
