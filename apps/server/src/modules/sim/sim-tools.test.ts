import type { SimLeadResult } from '@leadex/domain';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createBuyer, createBuyerWithLogin, createCampaign, createSourceWithKey } from '../../../test/factories';
import { ADMIN, createTestApp, useAdminTestApp } from '../../../test/harness';
import { buyers, leadMatches, leads, services, settings, user } from '../../db/schema';
import { MOCK_DATE_KEY } from './mock-date';

/** Admin spec §7 Simulator: multiple leads, the whitelist, reset database; outside production only. */
// Without the demo data, so the reset leaves the exchange empty (the demo's return is in the e2e).
const { t, admin } = useAdminTestApp({ PUBLIC_API_RATE_LIMIT: 0, SEED_DEMO: false });

type Outcome = SimLeadResult;

const outcomesOf = (body: string): Outcome[] =>
  body
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Outcome);

const runLeads = (payload: object) => t.request({ method: 'POST', url: '/api/sim/leads', as: admin.cookie, payload });

describe('multiple leads (POST /api/sim/leads)', () => {
  it('sends count leads, the hit share aimed at pairs a live campaign buys, one JSON line each as it goes', async () => {
    const buyer = await createBuyer(t);
    await createCampaign(t, buyer._id, { price: 30, services: ['solar'], states: ['NV'] });
    await createSourceWithKey(t, { maxCost: 5 });

    const all = await runLeads({ count: 10, hit: 1 });
    expect(all.statusCode).toBe(200);
    expect(all.headers['content-type']).toContain('application/x-ndjson');
    const aimed = outcomesOf(all.body);
    expect(aimed.map((o) => o.index)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(aimed.every((o) => o.count === 10 && o.aimed && o.service === 'solar')).toBe(true);
    // Every aimed lead sells (one buyer, no caps), and is stored.
    expect(aimed.every((o) => o.ok && o.status === 'sold')).toBe(true);
    const stored = await t.database.db
      .select({ id: leads.id, state: leads.state })
      .from(leads)
      .where(eq(leads.service, 'solar'));
    expect(stored.filter((l) => aimed.some((o) => o.lead_id === l.id)).every((l) => l.state === 'NV')).toBe(true);

    const half = outcomesOf((await runLeads({ count: 20, hit: 0.25 })).body);
    expect(half).toHaveLength(20);
    expect(half.filter((o) => o.aimed)).toHaveLength(5);
    const none = outcomesOf((await runLeads({ count: 10, hit: 0 })).body);
    expect(none.filter((o) => o.aimed)).toHaveLength(0);
    expect(none.every((o) => o.lead_id?.startsWith('lead_'))).toBe(true);
  });

  it('names what is wrong with the count or the hit rate', async () => {
    const bad = await runLeads({ count: 0, hit: 2 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toMatchObject({ count: 'Count must be at least 1', hit: 'Hit rate must be at most 1' });
  });
});

describe('the whitelist (GET and POST /api/sim/whitelist)', () => {
  it('starts empty, refuses a list without a valid email or a phone, and keeps what is saved', async () => {
    const empty = await t.request({ method: 'GET', url: '/api/sim/whitelist', as: admin.cookie });
    expect(empty.json()).toEqual({ _id: 'sim_whitelist', email: [], phone: [] });
    const bad = await t.request({
      method: 'POST',
      url: '/api/sim/whitelist',
      as: admin.cookie,
      payload: { email: ['not-an-email', ' '], phone: [] },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toMatchObject({
      email: 'Enter at least 1 valid email.',
      phone: 'Enter at least 1 phone number.',
    });
    const saved = await t.request({
      method: 'POST',
      url: '/api/sim/whitelist',
      as: admin.cookie,
      payload: { email: [' qa@leadex.test ', ''], phone: ['(512) 555-2100'] },
    });
    expect(saved.statusCode).toBe(200);
    const read = await t.request({ method: 'GET', url: '/api/sim/whitelist', as: admin.cookie });
    expect(read.json()).toEqual({ _id: 'sim_whitelist', email: ['qa@leadex.test'], phone: ['(512) 555-2100'] });
  });
});

describe('reset database (POST /api/sim/reset-db)', () => {
  it('empties the exchange but keeps the admin signed in, the reference data, and the real time', async () => {
    const { cookie: buyerCookie } = await createBuyerWithLogin(t);
    await t.request({ method: 'POST', url: '/api/sim/mockDate', as: admin.cookie, payload: { date: '2025-01-02' } });
    expect(await t.database.db.select().from(leads)).not.toHaveLength(0);

    const reset = await t.request({ method: 'POST', url: '/api/sim/reset-db', as: admin.cookie });
    expect(reset.statusCode).toBe(200);
    expect(reset.json()).toEqual({ ok: true });
    expect(await t.database.db.select().from(buyers)).toEqual([]);
    expect(await t.database.db.select().from(leads)).toEqual([]);
    expect(await t.database.db.select().from(leadMatches)).toEqual([]);
    expect(await t.database.db.select().from(settings).where(eq(settings.key, MOCK_DATE_KEY))).toEqual([]);
    expect((await t.database.db.select().from(services)).length).toBeGreaterThan(0);
    expect((await t.database.db.select().from(user)).map((u) => u.role)).toEqual(['admin']);
    expect(Math.abs(t.clock.now().getTime() - Date.now())).toBeLessThan(60_000);
    // The admin's session still works; the buyer's user is gone with its session.
    expect((await t.request({ method: 'GET', url: '/api/buyer', as: admin.cookie })).statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: '/api/buyer', as: buyerCookie })).statusCode).toBe(401);
    // The exchange works on: a new buyer can be created.
    expect((await createBuyer(t))._id).toMatch(/^buy_/);
  });
});

describe('in production', () => {
  it('has no simulator routes at all', async () => {
    const prod = await createTestApp({ NODE_ENV: 'production' });
    try {
      const cookie = await prod.signIn(ADMIN.email, ADMIN.password);
      for (const [method, url] of [
        ['POST', '/api/sim/reset-db'],
        ['POST', '/api/sim/leads'],
        ['GET', '/api/sim/whitelist'],
        ['POST', '/api/sim/mockDate'],
        ['POST', '/api/sim/billing'],
        ['GET', '/api/env'],
      ] as const)
        expect((await prod.request({ method, url, as: cookie, payload: {} })).statusCode, url).toBe(404);
    } finally {
      await prod.close();
    }
  });
});
