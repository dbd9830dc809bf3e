import { describe, expect, it } from 'vitest';
import { bestExclusive, bestShared, runAuction } from './auction';
import type { Bid } from './types';

const bid = (
  campaignId: string,
  buyerId: string,
  priceCents: number,
  sharedPriceCents: number | null,
  lastSoldAt = 0,
): Bid => ({
  campaignId,
  buyerId,
  priceCents,
  sharedPriceCents,
  lastSoldAt,
});

const N3 = { maxSharedBuyers: 3, minRevenueCents: 0 };

/** A $50 exclusive bid against three buyers' $30 exclusive bids that also buy shared at `sharedCents`. */
const fiftyExclusiveAgainstThreeShared = (sharedCents: number) => [
  bid('cmp_x', 'buy_x', 5000, null),
  bid('cmp_a', 'buy_a', 3000, sharedCents),
  bid('cmp_b', 'buy_b', 3000, sharedCents),
  bid('cmp_c', 'buy_c', 3000, sharedCents),
];

/** Four buyers (a to d) bidding $25 exclusive and $20 shared, last sold at `lastSoldAt` (in that order). */
const fourAtTwentyShared = (lastSoldAt: [number, number, number, number]) =>
  ['a', 'b', 'c', 'd'].map((x, i) => bid(`cmp_${x}`, `buy_${x}`, 2500, 2000, lastSoldAt[i]));

describe('runAuction', () => {
  it('$50 exclusive vs three shared at $20 from three buyers: sells shared for $60', () => {
    expect(runAuction(fiftyExclusiveAgainstThreeShared(2000), N3)).toEqual({
      kind: 'shared',
      revenueCents: 6000,
      winners: [
        { campaignId: 'cmp_a', buyerId: 'buy_a', priceCents: 2000 },
        { campaignId: 'cmp_b', buyerId: 'buy_b', priceCents: 2000 },
        { campaignId: 'cmp_c', buyerId: 'buy_c', priceCents: 2000 },
      ],
    });
  });

  it('$50 exclusive vs three shared at $15: sells exclusive for $50', () => {
    expect(runAuction(fiftyExclusiveAgainstThreeShared(1500), N3)).toEqual({
      kind: 'exclusive',
      revenueCents: 5000,
      winners: [{ campaignId: 'cmp_x', buyerId: 'buy_x', priceCents: 5000 }],
    });
  });

  it('four shared buyers at $20 with N=3: $60 from three buyers, the least recently sold', () => {
    const result = runAuction(fourAtTwentyShared([400, 100, 300, 200]), N3);
    expect(result?.kind).toBe('shared');
    expect(result?.revenueCents).toBe(6000);
    expect(result?.winners.map((w) => w.buyerId)).toEqual(['buy_b', 'buy_d', 'buy_c']);
  });

  it('the same buyer with two campaigns contributes once, with its best shared bid', () => {
    const bids = [
      bid('cmp_a1', 'buy_a', 3000, 2500),
      bid('cmp_a2', 'buy_a', 3000, 2200),
      bid('cmp_b', 'buy_b', 3000, 2000),
    ];
    const result = runAuction(bids, N3);
    // Counting buy_a twice would give $67; once (its best, $25) plus buy_b gives $45, still above the $30 exclusive bids.
    expect(result).toEqual({
      kind: 'shared',
      revenueCents: 4500,
      winners: [
        { campaignId: 'cmp_a1', buyerId: 'buy_a', priceCents: 2500 },
        { campaignId: 'cmp_b', buyerId: 'buy_b', priceCents: 2000 },
      ],
    });
  });

  it('a buyer counted once can tip the sale to exclusive', () => {
    // Two campaigns of one buyer at $20 shared plus one other at $20: $40 shared, not $60, loses to $50 exclusive.
    const bids = [
      bid('cmp_x', 'buy_x', 5000, null),
      bid('cmp_a1', 'buy_a', 3000, 2000),
      bid('cmp_a2', 'buy_a', 3000, 2000),
      bid('cmp_b', 'buy_b', 3000, 2000),
    ];
    expect(runAuction(bids, N3)?.kind).toBe('exclusive');
  });

  it('rotates equal exclusive bids: the least recently sold campaign wins', () => {
    const bids = [
      bid('cmp_a', 'buy_a', 5000, null, 3_000),
      bid('cmp_b', 'buy_b', 5000, null, 1_000),
      bid('cmp_c', 'buy_c', 5000, null, 2_000),
    ];
    expect(runAuction(bids, N3)?.winners[0]?.campaignId).toBe('cmp_b');
    // After cmp_b sells, it moves to the back of the queue.
    const afterSale = bids.map((b) => (b.campaignId === 'cmp_b' ? { ...b, lastSoldAt: 4_000 } : b));
    expect(runAuction(afterSale, N3)?.winners[0]?.campaignId).toBe('cmp_c');
  });

  it('a never-sold campaign (lastSoldAt 0) goes first among equals; then the campaign id decides', () => {
    expect(
      runAuction([bid('cmp_b', 'buy_b', 5000, null, 10), bid('cmp_c', 'buy_c', 5000, null, 0)], N3)?.winners[0]
        ?.campaignId,
    ).toBe('cmp_c');
    expect(
      runAuction([bid('cmp_b', 'buy_b', 5000, null), bid('cmp_a', 'buy_a', 5000, null)], N3)?.winners[0]?.campaignId,
    ).toBe('cmp_a');
  });

  it('a higher price beats rotation', () => {
    const bids = [bid('cmp_a', 'buy_a', 5000, null, 0), bid('cmp_b', 'buy_b', 5001, null, 9_999)];
    expect(runAuction(bids, N3)?.winners[0]?.campaignId).toBe('cmp_b');
  });

  it('a tie between exclusive and shared revenue sells exclusive', () => {
    const bids = [
      bid('cmp_x', 'buy_x', 6000, null),
      bid('cmp_a', 'buy_a', 3000, 3000),
      bid('cmp_b', 'buy_b', 3000, 3000),
    ];
    expect(runAuction(bids, N3)?.kind).toBe('exclusive');
  });

  it('a lone shared bid sells shared only when it beats every exclusive price', () => {
    // A source restriction raised the shared price above the exclusive one.
    expect(runAuction([bid('cmp_a', 'buy_a', 2000, 2500)], N3)).toEqual({
      kind: 'shared',
      revenueCents: 2500,
      winners: [{ campaignId: 'cmp_a', buyerId: 'buy_a', priceCents: 2500 }],
    });
    expect(runAuction([bid('cmp_a', 'buy_a', 3000, 2000)], N3)?.kind).toBe('exclusive');
  });

  it('campaigns without a shared price do not join a shared sale', () => {
    const bids = [
      bid('cmp_a', 'buy_a', 1000, null),
      bid('cmp_b', 'buy_b', 1000, 900),
      bid('cmp_c', 'buy_c', 1000, 900),
    ];
    const result = runAuction(bids, N3);
    expect(result?.kind).toBe('shared');
    expect(result?.winners.map((w) => w.campaignId)).toEqual(['cmp_b', 'cmp_c']);
  });

  it('N = 0 turns shared sales off', () => {
    const bids = [
      bid('cmp_x', 'buy_x', 1000, null),
      bid('cmp_a', 'buy_a', 500, 2000),
      bid('cmp_b', 'buy_b', 500, 2000),
    ];
    expect(runAuction(bids, { maxSharedBuyers: 0, minRevenueCents: 0 })).toEqual({
      kind: 'exclusive',
      revenueCents: 1000,
      winners: [{ campaignId: 'cmp_x', buyerId: 'buy_x', priceCents: 1000 }],
    });
  });

  it('N = 1 compares the best single shared bid', () => {
    const bids = [bid('cmp_a', 'buy_a', 1000, 1200), bid('cmp_b', 'buy_b', 1100, 1150)];
    expect(runAuction(bids, { maxSharedBuyers: 1, minRevenueCents: 0 })).toMatchObject({
      kind: 'shared',
      revenueCents: 1200,
    });
  });

  it('returns null without bids, or with only zero prices', () => {
    expect(runAuction([], N3)).toBeNull();
    expect(runAuction([bid('cmp_a', 'buy_a', 0, 0)], N3)).toBeNull();
  });

  describe('minimum revenue (the payout)', () => {
    const bids = fiftyExclusiveAgainstThreeShared(2000);

    it('sells when the revenue covers the payout exactly', () => {
      expect(runAuction(bids, { maxSharedBuyers: 3, minRevenueCents: 6000 })?.revenueCents).toBe(6000);
    });

    it('refuses to sell below the payout', () => {
      expect(runAuction(bids, { maxSharedBuyers: 3, minRevenueCents: 6001 })).toBeNull();
    });

    it('the larger option wins when only it covers the payout', () => {
      expect(runAuction(bids, { maxSharedBuyers: 3, minRevenueCents: 5500 })?.kind).toBe('shared');
      // With N = 2, shared brings $40: exclusive ($50) is larger and covers $45.
      expect(runAuction(bids, { maxSharedBuyers: 2, minRevenueCents: 4500 })?.kind).toBe('exclusive');
    });
  });

  describe('a cap filled between ping and post: re-run without the capped campaign', () => {
    const bids = [
      bid('cmp_a', 'buy_a', 5000, null, 0),
      bid('cmp_b', 'buy_b', 4500, null, 0),
      bid('cmp_c', 'buy_c', 3000, null, 0),
    ];
    const quoted = 4000;
    const without = (ids: string[]) => bids.filter((b) => !ids.includes(b.campaignId));

    it('moves the sale to the next bidder when it still covers the quoted payout', () => {
      expect(runAuction(bids, { maxSharedBuyers: 3, minRevenueCents: quoted })?.winners[0]?.campaignId).toBe('cmp_a');
      expect(
        runAuction(without(['cmp_a']), { maxSharedBuyers: 3, minRevenueCents: quoted })?.winners[0]?.campaignId,
      ).toBe('cmp_b');
    });

    it('answers no sale when the rest no longer cover it', () => {
      expect(runAuction(without(['cmp_a', 'cmp_b']), { maxSharedBuyers: 3, minRevenueCents: quoted })).toBeNull();
    });

    it("in a shared sale, the capped buyer's other campaign can take its place", () => {
      const shared = [
        bid('cmp_a1', 'buy_a', 2000, 1500, 0),
        bid('cmp_a2', 'buy_a', 2000, 1400, 0),
        bid('cmp_b', 'buy_b', 2000, 1500, 0),
      ];
      const first = runAuction(shared, N3);
      expect(first?.winners.map((w) => w.campaignId)).toEqual(['cmp_a1', 'cmp_b']);
      const retry = runAuction(
        shared.filter((b) => b.campaignId !== 'cmp_a1'),
        N3,
      );
      expect(retry).toMatchObject({ kind: 'shared', revenueCents: 2900 });
      expect(retry?.winners.map((w) => w.campaignId)).toEqual(['cmp_b', 'cmp_a2']);
    });
  });

  it('does not reorder or change the bids it is given', () => {
    const bids = [bid('cmp_b', 'buy_b', 1000, 500, 5), bid('cmp_a', 'buy_a', 2000, 900, 1)];
    const copy = structuredClone(bids);
    runAuction(bids, N3);
    expect(bids).toEqual(copy);
  });

  it('does not depend on the order of the bids', () => {
    const bids = [...fourAtTwentyShared([7, 7, 7, 7]), bid('cmp_d2', 'buy_d', 2500, 2000, 7)];
    const expected = runAuction(bids, N3);
    expect(runAuction([...bids].reverse(), N3)).toEqual(expected);
    expect(runAuction([bids[2], bids[4], bids[0], bids[3], bids[1]] as Bid[], N3)).toEqual(expected);
  });
});

describe('bestExclusive / bestShared', () => {
  it('bestExclusive picks the highest price', () => {
    expect(bestExclusive([bid('cmp_a', 'buy_a', 100, null), bid('cmp_b', 'buy_b', 300, null)])?.campaignId).toBe(
      'cmp_b',
    );
    expect(bestExclusive([])).toBeNull();
  });

  it('bestShared never returns two bids of one buyer', () => {
    const winners = bestShared(
      [
        bid('cmp_a1', 'buy_a', 0, 900),
        bid('cmp_a2', 'buy_a', 0, 800),
        bid('cmp_a3', 'buy_a', 0, 700),
        bid('cmp_b', 'buy_b', 0, 100),
      ],
      3,
    );
    expect(winners.map((w) => w.buyerId)).toEqual(['buy_a', 'buy_b']);
  });

  it("bestShared rotates among one buyer's equal campaigns too", () => {
    const winners = bestShared([bid('cmp_a1', 'buy_a', 0, 900, 50), bid('cmp_a2', 'buy_a', 0, 900, 10)], 3);
    expect(winners.map((w) => w.campaignId)).toEqual(['cmp_a2']);
  });
});

describe('auction edges (mutation testing)', () => {
  it('breaks a full tie by campaign id, whatever order the bids come in', () => {
    const a = bid('cmp_a', 'buy_1', 500, 200);
    const b = bid('cmp_b', 'buy_2', 500, 200);
    expect(bestExclusive([a, b])?.campaignId).toBe('cmp_a');
    expect(bestExclusive([b, a])?.campaignId).toBe('cmp_a');
    expect(bestShared([b, a], 2).map((bid) => bid.campaignId)).toEqual(['cmp_a', 'cmp_b']);
    expect(bestShared([a, b], 2).map((bid) => bid.campaignId)).toEqual(['cmp_a', 'cmp_b']);
    expect(bestShared([b, a], 1).map((bid) => bid.campaignId)).toEqual(['cmp_a']);
  });

  it("keeps a buyer's tied campaigns in campaign id order", () => {
    const a = bid('cmp_a', 'buy_1', 500, 200);
    const b = bid('cmp_b', 'buy_1', 500, 200);
    expect(bestShared([b, a], 3).map((bid) => bid.campaignId)).toEqual(['cmp_a']);
    expect(bestShared([a, b], 3).map((bid) => bid.campaignId)).toEqual(['cmp_a']);
  });

  it('has no shared winner for no buyer slots, and no shared offer at a price of 0', () => {
    const bids = [bid('cmp_a', 'buy_1', 500, 200), bid('cmp_b', 'buy_2', 500, 100)];
    expect(bestShared(bids, 0)).toEqual([]);
    expect(bestShared(bids, -1)).toEqual([]);
    expect(bestShared([bid('cmp_z', 'buy_3', 500, 0), bid('cmp_y', 'buy_4', 500, -5)], 3)).toEqual([]);
    expect(bestShared([bid('cmp_z', 'buy_3', 500, 0), ...bids], 3).map((bid) => bid.campaignId)).toEqual([
      'cmp_a',
      'cmp_b',
    ]);
  });
});
