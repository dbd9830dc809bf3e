import { eq, inArray } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import {
  createBuyer,
  createCampaign,
  createSourceWithKey,
  roofingSaleRequest,
  uniquePhone,
} from '../../../test/factories';
import { useTestApp } from '../../../test/harness';
import { type NamedStatement, rawDb, type SqlRunner } from '../../db/raw';
import { capCounters, leadMatches, leads } from '../../db/schema';
import { slotsOf } from './decide';
import { groupCommit, type StoreAtOnce } from './group';
import { leadRecord } from './lead-record';
import { storeSale, storeSales, takeCampaignCaps } from './sale.repo';
import { sell } from './sell';
import type { SaleDeps, SaleOutcome } from './types';

/**
 * Group commit (issue 36 item 1) on the harness database: sales that arrive while a group is stored
 * go together in one statement, and a sale the database refuses inside the group (its cap taken
 * elsewhere, a re-post) falls back alone to its careful path without taking the others down.
 */
const t = useTestApp({ PUBLIC_API_RATE_LIMIT: 0 });

let sourceId: string;
beforeAll(async () => {
  ({ sourceId } = await createSourceWithKey(t, { maxCost: 10 }));
});

const saleDeps = (): SaleDeps => ({ db: t.database.db, clock: t.clock, engine: t.deps.engine, secret: 'group-test' });

/** A roofing lead in `state`, paying the source $10 (`phone`: a re-post's). */
const requestIn = (state: string, phone?: string) => roofingSaleRequest(t, sourceId, state, 'Gus Group', phone);

/**
 * The database under a group commit of one flush at a time, whose first statement is held until
 * `holdUntil` sales have reached the group: those that came after the first then wait as one group.
 * Answers the sizes of the group statements run.
 */
function heldGroups(holdUntil: number) {
  const raw = rawDb(t.database.db);
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const groupSizes: number[][] = [];
  let first = true;
  const runner: SqlRunner = {
    async query<T>(statement: NamedStatement, values: unknown[]) {
      if (first) {
        first = false;
        await released;
      }
      if (statement.name === 'leadex_store_sales')
        groupSizes.push((JSON.parse(values[0] as string) as { ping_id: string }[]).map(() => 1));
      return raw.query<T>(statement, values);
    },
  };
  const groups = groupCommit(runner, { flushes: 1 });
  let arrived = 0;
  const store: StoreAtOnce = (sale) => {
    arrived += 1;
    if (arrived === holdUntil) release();
    return groups.store(sale);
  };
  return { store, groupSizes: () => groupSizes.map((g) => g.length) };
}

it('a group with one sale whose cap was taken elsewhere and one re-post stores every other sale of the group', async () => {
  const sold = await createCampaign(t, (await createBuyer(t))._id, { price: 40, states: ['FL'] });
  // GA's best bidder has its one daily slot taken by another process (the engine's memory does not know).
  const capped = await createCampaign(t, (await createBuyer(t))._id, { price: 50, states: ['GA'], max: { daily: 1 } });
  const next = await createCampaign(t, (await createBuyer(t))._id, { price: 40, states: ['GA'] });
  await rawDb(t.database.db).transaction(async (tx) => {
    expect(await takeCampaignCaps(tx, slotsOf(t.deps.engine, capped, t.clock.now()))).toBe(true);
  });
  // A lead this source sent with a phone a minute ago, stored by another process: a new one is a re-post.
  const repostPhone = uniquePhone();
  const earlier = leadRecord(t.deps.engine, requestIn('FL', repostPhone), new Date(t.clock.now().getTime() - 60_000));
  expect(await storeSale(rawDb(t.database.db), { ...earlier, answer: { ok: false } }, null, null)).toBeNull();

  const fresh = Array.from({ length: 4 }, () => requestIn('FL'));
  const requests = [
    requestIn('FL'),
    ...fresh.slice(0, 2),
    requestIn('GA'),
    requestIn('FL', repostPhone),
    ...fresh.slice(2),
  ];
  const { store, groupSizes } = heldGroups(requests.length);
  const outcomes: SaleOutcome[] = await Promise.all(requests.map((r) => sell(saleDeps(), r, store)));

  // The first sale went alone; the six after it were one group, then five once the capped one left it.
  expect(groupSizes()).toEqual([6, 5]);
  const leadIds = outcomes.map((o) => ('answer' in o ? String(o.answer.lead_id) : ''));
  const matches = await t.database.db.select().from(leadMatches).where(inArray(leadMatches.leadId, leadIds));
  const campaignOf = (i: number) => matches.filter((m) => m.leadId === leadIds[i]).map((m) => m.campaignId);
  for (const i of [0, 1, 2, 5, 6]) {
    expect(outcomes[i]?.kind).toBe('sold');
    expect(campaignOf(i)).toEqual([sold]);
  }
  // The capped sale fell through to the next bidder on its careful path; its cap stayed at one.
  expect(outcomes[3]?.kind).toBe('sold');
  expect(campaignOf(3)).toEqual([next]);
  const [counter] = await t.database.db.select().from(capCounters).where(eq(capCounters.campaignId, capped));
  expect(counter?.n).toBe(1);
  // The re-post was refused as one, and stored with that answer.
  expect(outcomes[4]).toMatchObject({ kind: 'not_sold', answer: { reason: 'duplicate', duplicate_of: earlier.id } });
  expect(campaignOf(4)).toEqual([]);
  const stored = await t.database.db.select({ id: leads.id }).from(leads).where(inArray(leads.id, leadIds));
  expect(stored).toHaveLength(requests.length);
});

it('three sales waiting are each stored alone; four are one group', async () => {
  await createCampaign(t, (await createBuyer(t))._id, { price: 40, states: ['CO'] });
  const three = heldGroups(4);
  const alone = await Promise.all(Array.from({ length: 4 }, () => sell(saleDeps(), requestIn('CO'), three.store)));
  expect(alone.map((o) => o.kind)).toEqual(['sold', 'sold', 'sold', 'sold']);
  expect(three.groupSizes()).toEqual([]);
  const four = heldGroups(5);
  const grouped = await Promise.all(Array.from({ length: 5 }, () => sell(saleDeps(), requestIn('CO'), four.store)));
  expect(grouped.map((o) => o.kind)).toEqual(['sold', 'sold', 'sold', 'sold', 'sold']);
  expect(four.groupSizes()).toEqual([4]);
});

it('a lone sale is stored by the one statement, as before group commit', async () => {
  await createCampaign(t, (await createBuyer(t))._id, { price: 40, states: ['OH'] });
  const { store, groupSizes } = heldGroups(1);
  const outcome = await sell(saleDeps(), requestIn('OH'), store);
  expect(outcome.kind).toBe('sold');
  expect(groupSizes()).toEqual([]);
});

it('a grouped sale whose ping was stored already is answered replay; the others are stored', async () => {
  const at = t.clock.now();
  const withPing = (pingId: string) => ({ ...leadRecord(t.deps.engine, requestIn('FL'), at), pingId });
  const storedPing = `png_${uniquePhone()}`;
  expect(await storeSale(rawDb(t.database.db), withPing(storedPing), null, null)).toBeNull();
  const group = [withPing(`png_${uniquePhone()}`), withPing(storedPing), withPing(`png_${uniquePhone()}`)];
  const stored = await storeSales(
    rawDb(t.database.db),
    group.map((lead) => ({ lead, sale: null, check: null, unlisted: [] })),
  );
  expect(stored).toEqual({ outcomes: [null, 'replay', null] });
  const rows = await t.database.db
    .select({ id: leads.id })
    .from(leads)
    .where(
      inArray(
        leads.id,
        group.map((l) => l.id),
      ),
    );
  expect(rows.map((r) => r.id).sort()).toEqual([group[0]?.id, group[2]?.id].sort());
});
