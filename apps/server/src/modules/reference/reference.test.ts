import { describe, expect, it } from 'vitest';
import { buyerInput, createBuyerWithLogin, createSourceWithKey, createSourceWithLogin } from '../../../test/factories';
import { useAdminTestApp } from '../../../test/harness';
import { campaigns, leads } from '../../db/schema';
import { newId } from '../../lib/ids';

const { t, admin } = useAdminTestApp();

const addCampaign = async (buyerId: string, tags: string[]) => {
  const now = t.clock.now();
  await t.database.db.insert(campaigns).values({
    id: newId('cmp'),
    buyerId,
    name: 'C',
    fixedId: newId('cmp'),
    priceCents: 2500,
    tags,
    createdAt: now,
    updatedAt: now,
  });
};

describe('GET /api/services/labels', () => {
  it('gives every signed-in role each service’s key with its label, and nobody else', async () => {
    const source = await createSourceWithLogin(t);
    const buyer = await createBuyerWithLogin(t);
    for (const cookie of [admin.cookie, source.cookie, buyer.cookie]) {
      const res = await t.request({ method: 'GET', url: '/api/services/labels', as: cookie });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual(
        expect.arrayContaining([
          { name: 'solar', label: 'Solar' },
          { name: 'bath_remodel', label: 'Bath Remodel' },
          { name: 'hvac', label: 'HVAC' },
        ]),
      );
    }
    expect((await t.request({ method: 'GET', url: '/api/services/labels' })).statusCode).toBe(401);
  });
});

describe('GET /api/services', () => {
  it('lists the service names to every role', async () => {
    const source = await createSourceWithLogin(t);
    for (const cookie of [admin.cookie, source.cookie]) {
      const res = await t.request({ method: 'GET', url: '/api/services', as: cookie });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual(expect.arrayContaining(['roofing', 'solar', 'hvac', 'windows', 'plumbing']));
    }
    expect((await t.request({ method: 'GET', url: '/api/services' })).statusCode).toBe(401);
  });

  it('answers a source server calling with its API key, and refuses an unknown or held key', async () => {
    const services = (key: string) =>
      t.request({ method: 'GET', url: '/api/services', headers: { authorization: `Bearer ${key}` } });
    const { apiKey } = await createSourceWithKey(t);
    const ok = await services(apiKey);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual(expect.arrayContaining(['roofing', 'solar', 'hvac', 'windows', 'plumbing']));

    const unknown = await services(`${apiKey.slice(0, -4)}zzzz`);
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json()).toEqual({ ok: false, message: 'Unknown API key' });
    const held = await createSourceWithKey(t, { held: true });
    expect((await services(held.apiKey)).statusCode).toBe(403);
  });
});

describe('GET /api/tag/{kind}', () => {
  it('lists the distinct tags in use, sorted', async () => {
    await t.deps.services.buyers.create(buyerInput({ tags: ['vip', 'net-30'] }));
    await t.deps.services.buyers.create(buyerInput({ tags: ['vip'] }));
    const res = await t.request({ method: 'GET', url: '/api/tag/buyer', as: admin.cookie });
    expect(res.json()).toEqual(['net-30', 'vip']);
    for (const kind of ['match', 'webhook', 'lead', 'source']) {
      expect((await t.request({ method: 'GET', url: `/api/tag/${kind}`, as: admin.cookie })).statusCode).toBe(200);
    }
  });

  it("lists the tagged leads' tags, passing over the untagged ones", async () => {
    const { sourceId } = await createSourceWithKey(t);
    const lead = (tags: string[]) => ({
      id: newId('lead'),
      sourceId,
      service: 'roofing',
      zip: '75201',
      tags,
      createdAt: t.clock.now(),
    });
    await t.database.db.insert(leads).values([lead(['vip', 'callback']), lead([]), lead(['vip'])]);
    const res = await t.request({ method: 'GET', url: '/api/tag/lead', as: admin.cookie });
    expect(res.json()).toEqual(['callback', 'vip']);
  });

  it('answers 400 for an unknown kind', async () => {
    const res = await t.request({ method: 'GET', url: '/api/tag/planets', as: admin.cookie });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({ kind: 'Unknown tag kind' });
  });

  it("shows a buyer only its own campaigns' tags, and no buyer tags", async () => {
    const mine = await createBuyerWithLogin(t);
    const other = await createBuyerWithLogin(t);
    await addCampaign(mine.buyer._id, ['mine']);
    await addCampaign(other.buyer._id, ['secret-of-other']);
    const res = await t.request({ method: 'GET', url: '/api/tag/match', as: mine.cookie });
    expect(res.json()).toEqual(['mine']);
    expect((await t.request({ method: 'GET', url: '/api/tag/buyer', as: mine.cookie })).statusCode).toBe(403);
    expect((await t.request({ method: 'GET', url: '/api/tag/match', as: admin.cookie })).json()).toEqual([
      'mine',
      'secret-of-other',
    ]);
  });
});
