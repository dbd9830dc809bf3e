import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { createBuyer, createCampaign, createSourceWithKey, uniquePhone } from '../../../test/factories';
import { useAdminTestApp } from '../../../test/harness';
import { leadMatches, statsDays } from '../../db/schema';
import { statsRollup } from './stats-rollup';

/**
 * Issue 14, the reports at a million leads: closed New York days are read from a daily rollup, today
 * from the base tables. Whatever is rolled, every figure is the one the base tables give (the rollup
 * cleared), before and after a return on a rolled day.
 */
const { t, admin } = useAdminTestApp({ PUBLIC_API_RATE_LIMIT: 0 });
const get = async (url: string) => {
  const res = await t.request({ method: 'GET', url, as: admin.cookie });
  expect(res.statusCode).toBe(200);
  return res.json();
};
const REPORTS = [
  '/api/stats/',
  '/api/stats/daily',
  ...['sources', 'buyers'].flatMap((r) => [
    `/api/stats/${r}?dateq=today`,
    `/api/stats/${r}?dateq=mtd`,
    `/api/stats/${r}?dateq=last30d`,
    `/api/stats/${r}?dateq=range&begin=2026-09-08&end=2026-09-08`,
    `/api/stats/${r}?dateq=range&begin=2026-09-09&end=2026-09-10`,
    `/api/stats/${r}?dateq=range&begin=2026-08-01&end=2026-09-30`,
  ]),
];
/** Every report as the base tables alone give it, then as the rollup gives it. */
async function liveAndRolled() {
  const rolledThrough = await statsRollup.rolledThrough(t.deps.db);
  await statsRollup.clear(t.deps.db);
  const live = await Promise.all(REPORTS.map(get));
  await statsRollup.roll(t.deps.db, t.clock.now());
  expect(await statsRollup.rolledThrough(t.deps.db)).toBe(
    rolledThrough ?? (await statsRollup.rolledThrough(t.deps.db)),
  );
  return { live, rolled: await Promise.all(REPORTS.map(get)) };
}

let source = { sourceId: '', apiKey: '' };
const soldLeadIds: string[] = [];

/** A day of trade: a ping posted, a direct sale to each buyer, an unsold lead, a test lead. */
async function trade(at: string) {
  t.clock.set(at);
  const contact = () => ({ name: 'Rollup Lead', phone: uniquePhone(), tcpa_consent: 'true' });
  const ping = await t.sourceApi('/api/ping', source.apiKey, { service: 'roofing', zip: '75201' });
  const post = await t.sourceApi('/api/post', source.apiKey, { ping_id: ping.json().ping_id, ...contact() });
  expect(post.json()).toMatchObject({ status: 'sold' });
  const direct = await t.sourceApi('/api/lead', source.apiKey, { service: 'roofing', zip: '89101', ...contact() });
  expect(direct.json()).toMatchObject({ status: 'sold' });
  await t.sourceApi('/api/lead', source.apiKey, { service: 'roofing', zip: '10001', ...contact() });
  await t.sourceApi('/api/lead', source.apiKey, { service: 'roofing', zip: '75201', test: true, ...contact() });
  await t.sourceApi('/api/ping', source.apiKey, { service: 'roofing', zip: '10001' });
  soldLeadIds.push(post.json().lead_id, direct.json().lead_id);
}

beforeAll(async () => {
  t.clock.set('2026-09-01T15:00:00Z');
  const texas = await createBuyer(t);
  const nevada = await createBuyer(t);
  await createCampaign(t, texas._id, { price: 30, services: ['roofing'], states: ['TX'] });
  await createCampaign(t, nevada._id, { price: 20.33, services: ['roofing'], states: ['NV'] });
  source = await createSourceWithKey(t, { maxCost: 7.77, canPostLead: true });
  await trade('2026-08-31T15:00:00Z'); // August
  await trade('2026-09-08T15:00:00Z');
  await trade('2026-09-10T03:59:59Z'); // 23:59:59 on September 9 in New York
  await trade('2026-09-10T14:00:00Z'); // today
  await t.deps.engine.flush();
  t.clock.set('2026-09-10T15:00:00Z');
});

describe('the daily rollup', () => {
  it('rolls yesterday only once ten minutes of today have passed', () => {
    expect(statsRollup.rollableThrough(new Date('2026-09-10T04:09:59.999Z'))).toBe('2026-09-08');
    expect(statsRollup.rollableThrough(new Date('2026-09-10T04:10:00Z'))).toBe('2026-09-09');
  });

  it('gives every figure the base tables give, whatever is rolled', async () => {
    expect(await statsRollup.rolledThrough(t.deps.db)).toBeNull();
    const { live, rolled } = await liveAndRolled();
    expect(await statsRollup.rolledThrough(t.deps.db)).toBe('2026-09-09');
    expect(rolled).toEqual(live);
    // The rollup holds the closed days (with the evening of the 9th), not today.
    const days = (await t.database.db.select({ day: statsDays.day }).from(statsDays)).map((r) => r.day);
    expect([...new Set(days)].sort()).toEqual(['2026-08-31', '2026-09-08', '2026-09-09']);
    // And they are not empty: September so far has 9 leads received (6 sold, 3 not) for 3 days of trade.
    expect(live[0]).toMatchObject({ totalLeads: 9 });
  });

  it('rewrites a rolled day when one of its sales is returned', async () => {
    await statsRollup.roll(t.deps.db, t.clock.now());
    const leadId = soldLeadIds[2] as string; // September 8
    const [match] = await t.database.db.select().from(leadMatches).where(eq(leadMatches.leadId, leadId));
    const before = await get('/api/stats/sources?dateq=range&begin=2026-09-08&end=2026-09-08');
    const res = await t.request({
      method: 'POST',
      url: `/api/lead/${leadId}/match/${match?.id}/return`,
      as: admin.cookie,
      payload: { approve: true },
    });
    expect(res.statusCode).toBe(200);
    expect(await statsRollup.rolledThrough(t.deps.db)).toBe('2026-09-09');
    const after = await get('/api/stats/sources?dateq=range&begin=2026-09-08&end=2026-09-08');
    expect(after[0].returns).toBe(before[0].returns + 1);
    const { live, rolled } = await liveAndRolled();
    expect(rolled).toEqual(live);
  });

  it('rolls each new day once, five rollers at once writing it once', async () => {
    t.clock.set('2026-09-11T04:10:00Z');
    const runs = await Promise.all(Array.from({ length: 5 }, () => statsRollup.roll(t.deps.db, t.clock.now())));
    expect(runs.filter((r) => r.rolledFrom !== null)).toEqual([{ through: '2026-09-10', rolledFrom: '2026-09-10' }]);
    const { live, rolled } = await liveAndRolled();
    expect(rolled).toEqual(live);
  });

  it('is forgotten when the mock date moves', async () => {
    await t.deps.mockDate?.set(new Date('2026-09-09T12:00:00Z'));
    expect(await statsRollup.rolledThrough(t.deps.db)).toBeNull();
    expect(await t.database.db.select().from(statsDays)).toEqual([]);
    await t.deps.mockDate?.set(null);
  });
});
