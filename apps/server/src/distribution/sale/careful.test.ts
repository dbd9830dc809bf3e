import { DIRECT_DELIVERY } from '@leadex/domain';
import { eq, inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  createBuyer,
  createCampaign,
  createSourceWithKey,
  roofingSaleRequest,
  saveBillTerms,
} from '../../../test/factories';
import { useAdminTestApp } from '../../../test/harness';
import { rawDb, type SqlRunner } from '../../db/raw';
import { buyerSpend, capCounters } from '../../db/schema';
import type { InlineDeliveries, LiveDelivery } from '../ports';
import { CarefulSale } from './careful';
import { slotsOf } from './decide';
import { auction } from './lead-auction';
import { leadRecord } from './lead-record';
import { takeCampaignCaps } from './sale.repo';
import type { SaleRequest } from './types';

/**
 * The careful path's own rules (DESIGN.md §5 write path, §6), one CarefulSale at a time in a
 * transaction on the harness database: a full cap and a buyer's spend move the sale to the next
 * bidders, a live delivery's Not Accepted runs the auction again without its buyer, and a winner
 * that took the lead stays in the sale. Each test sells in a state of its own, so only its
 * campaigns bid. The buyers' live deliveries are a scripted InlineDeliveries port (the real one is
 * tested over HTTP in inline.test.ts).
 */
const { t, admin } = useAdminTestApp({ PUBLIC_API_RATE_LIMIT: 0 });

let sourceId: string;
beforeAll(async () => {
  ({ sourceId } = await createSourceWithKey(t, { maxCost: 10 }));
});

/** A roofing lead in `state`, paying the source $10. */
const requestIn = (state: string) => roofingSaleRequest(t, sourceId, state, 'Kim Careful');

/** Buyers whose live delivery answers the sale: `accepts` take the lead, the others say Not Accepted. */
function scriptedDeliveries(verdicts: Record<string, 'accepts' | 'refuses'>) {
  const asked: string[] = [];
  const delivery = (buyerId: string) =>
    ({
      _id: `whk_${buyerId}`,
      name: `hook of ${buyerId}`,
      ping_id: DIRECT_DELIVERY,
      map: [],
    }) as unknown as LiveDelivery;
  const port: InlineDeliveries = {
    runsFor: (buyerId) => buyerId in verdicts,
    of: async (buyerIds) => new Map([...buyerIds].filter((id) => id in verdicts).map((id) => [id, [delivery(id)]])),
    async deliver(deliveries) {
      const buyerId = (deliveries[0] as LiveDelivery)._id.slice('whk_'.length);
      asked.push(buyerId);
      const accepted = verdicts[buyerId] === 'accepts';
      return accepted
        ? { verdict: 'accepted', attempts: [] }
        : { verdict: 'rejected', refusedBy: `hook of ${buyerId}`, attempts: [] };
    },
    noteOutcomes: async () => {},
  };
  return { port, asked };
}

/**
 * Runs one careful sale of `req` in a committed transaction (after `before`, in it: what other
 * processes did that this one's memory cannot have seen); answers what it decided and its rejected matches.
 */
async function sellCarefully(
  req: SaleRequest,
  { inline, before }: { inline?: InlineDeliveries; before?: (tx: SqlRunner) => Promise<void> } = {},
) {
  const { engine } = t.deps;
  const parts = { engine, clock: t.clock, inline };
  const lead = leadRecord(engine, req, t.clock.now());
  const leadAuction = auction(parts, req, lead, new Set());
  const live = inline ? await inline.of(leadAuction.considered.map((c) => c.buyerId)) : new Map();
  return rawDb(t.database.db).transaction(async (tx) => {
    await before?.(tx);
    const sale = new CarefulSale(tx, parts, req, lead, leadAuction, live);
    const result = await sale.settle();
    return { first: leadAuction.result, result, decision: sale.decision(result), rejected: sale.rejected };
  });
}

const capsOf = async (campaignIds: string[]) =>
  Object.fromEntries(
    (await t.database.db.select().from(capCounters).where(inArray(capCounters.campaignId, campaignIds))).map((c) => [
      `${c.campaignId}:${c.period}`,
      c.n,
    ]),
  );
const spentOf = async (buyerId: string) =>
  (await t.database.db.select().from(buyerSpend).where(eq(buyerSpend.buyerId, buyerId)))[0]?.spentCents;
const winnersOf = (result: { winners: { campaignId: string }[] } | null) => result?.winners.map((w) => w.campaignId);

describe('CarefulSale', () => {
  it('falls through a cap filled elsewhere to the next bidder, holding only the slots it sells', async () => {
    const capped = await createCampaign(t, (await createBuyer(t))._id, {
      price: 50,
      states: ['TX'],
      max: { daily: 1 },
    });
    const next = await createCampaign(t, (await createBuyer(t))._id, { price: 40, states: ['TX'], max: { daily: 5 } });
    // Another sale took the capped campaign's last lead of the day: this process's memory has not seen it.
    const { first, result, decision } = await sellCarefully(requestIn('TX'), {
      before: async (tx) => {
        expect(await takeCampaignCaps(tx, slotsOf(t.deps.engine, capped, t.clock.now()))).toBe(true);
      },
    });
    expect(winnersOf(first)).toEqual([capped]);
    expect(winnersOf(result)).toEqual([next]);
    expect(decision.answer).toMatchObject({ ok: true, status: 'sold' });
    expect(decision.row.explanation).toContainEqual([capped, 'cap', 'cap filled during the sale']);
    expect(await capsOf([capped, next])).toEqual({ [`${capped}:daily`]: 1, [`${next}:daily`]: 1 });
  });

  it('refuses a buyer whose balance does not cover the price, gives back its slot, and sells to the next bidder', async () => {
    const broke = (await createBuyer(t))._id as string;
    await saveBillTerms(t, admin.cookie, broke, {
      pay: 'prepay',
      prepay: 30,
      period: 'monthly',
      grace: 3,
      threshold: 0,
    });
    const over = await createCampaign(t, broke, { price: 50, states: ['CA'], max: { daily: 5 } });
    const next = await createCampaign(t, (await createBuyer(t))._id, { price: 40, states: ['CA'] });

    const { first, result, decision } = await sellCarefully(requestIn('CA'));
    expect(winnersOf(first)).toEqual([over]);
    expect(winnersOf(result)).toEqual([next]);
    expect(decision.row.explanation).toContainEqual([
      over,
      'balance',
      "the buyer's balance or credit does not cover the price",
    ]);
    expect(await spentOf(broke)).toBe(0);
    expect(await capsOf([over])).toEqual({ [`${over}:daily`]: 0 });
  });

  it('runs the auction again without a buyer whose live delivery said Not Accepted, its match kept rejected', async () => {
    const refusing = (await createBuyer(t))._id as string;
    const refused = await createCampaign(t, refusing, { price: 50, states: ['NY'], max: { daily: 5 } });
    const next = await createCampaign(t, (await createBuyer(t))._id, { price: 40, states: ['NY'] });
    const { port, asked } = scriptedDeliveries({ [refusing]: 'refuses' });

    const { first, result, decision, rejected } = await sellCarefully(requestIn('NY'), { inline: port });
    expect(winnersOf(first)).toEqual([refused]);
    expect(asked).toEqual([refusing]);
    expect(winnersOf(result)).toEqual([next]);
    expect(rejected).toMatchObject([{ campaignId: refused, buyerId: refusing, priceCents: 5000 }]);
    expect(decision.sale?.matches.map((m) => m.campaignId)).toEqual([next]);
    expect(decision.row.explanation).toContainEqual([refused, 'delivery', `Not Accepted by hook of ${refusing}`]);
    expect(await capsOf([refused])).toEqual({ [`${refused}:daily`]: 0 });
  });

  it('keeps a winner that took the lead when the auction run again would leave it out', async () => {
    const taking = (await createBuyer(t))._id as string;
    const refusing = (await createBuyer(t))._id as string;
    // Shared at $30 + $30 beats the $45 exclusive; without the refusing buyer, $45 would beat $30 alone.
    const kept = await createCampaign(t, taking, { price: 10, shared: 30, states: ['AZ'] });
    const refused = await createCampaign(t, refusing, { price: 10, shared: 30, states: ['AZ'] });
    const exclusive = await createCampaign(t, (await createBuyer(t))._id, { price: 45, states: ['AZ'] });
    const { port } = scriptedDeliveries({ [taking]: 'accepts', [refusing]: 'refuses' });

    const { first, result, decision } = await sellCarefully(requestIn('AZ'), { inline: port });
    expect(first?.kind).toBe('shared');
    expect(winnersOf(first)?.sort()).toEqual([kept, refused].sort());
    expect(result).toEqual({
      kind: 'shared',
      winners: [{ campaignId: kept, buyerId: taking, priceCents: 3000 }],
      revenueCents: 3000,
    });
    expect(decision.sale?.matches.map((m) => m.campaignId)).toEqual([kept]);
    expect(decision.row.explanation).not.toContainEqual([exclusive, 45, 1]);
  });
});
