import { describe, expect, it } from 'vitest';
import {
  buyerInput,
  createBuyer,
  createBuyerWithLogin,
  createCampaign,
  createSourceWithKey,
  createSourceWithLogin,
  leadInput,
} from '../../../test/factories';
import { expectFieldRefused, expectScoped404, resourceRequests, useAdminTestApp } from '../../../test/harness';
import { campaignSourceFilters, campaignStatusEvents, campaigns, zipsets } from '../../db/schema';
import { newId } from '../../lib/ids';

const { t, admin } = useAdminTestApp({ PUBLIC_API_RATE_LIMIT: 0 });

const { post, put, get } = resourceRequests(t, admin, '/api/match');
const counts = async () => ({
  campaigns: (await t.database.db.select().from(campaigns)).length,
  events: (await t.database.db.select().from(campaignStatusEvents)).length,
  filters: (await t.database.db.select().from(campaignSourceFilters)).length,
});

/** A valid campaign for `buyer` (as the web form sends it); override any field. */
const input = (buyer: string, overrides: object = {}) => ({
  name: `Roofing Texas ${Math.random().toString(36).slice(2, 7)}`,
  buyer,
  price: 45.5,
  exclusive: 1,
  services: ['roofing'],
  location: 'state',
  state: ['TX'],
  notify: { email: ['leads@acme.example'], sms: [], broadcast_webhooks: [] },
  max: { hourly: null, daily: 20, weekly: null, monthly: 400 },
  time: { delete: true },
  ...overrides,
});

/** A region: exchange-wide, or one buyer's own. */
async function createZipset(zips: string[], buyerId: string | null = null) {
  const id = newId('zst');
  await t.database.db.insert(zipsets).values({ id, name: `Region ${id}`, zips, buyerId, createdAt: t.clock.now() });
  return id;
}

describe('POST /api/match', () => {
  it('creates a draft campaign with a readable Branded Id and records who created it', async () => {
    const buyer = await createBuyer(t);
    const res = await post(input(buyer._id, { tags: ['storm'], notes: 'Call within 5 minutes' }));
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({
      _id: expect.stringMatching(/^cmp_/),
      buyer: buyer._id,
      buyer_name: buyer.name,
      fixed_id: expect.stringMatching(/^ACME-[A-Z2-9]{4}$/),
      price: 45.5,
      exclusive: 1,
      services: ['roofing'],
      location: 'state',
      state: ['TX'],
      zips: [],
      max: { hourly: null, daily: 20, weekly: null, monthly: 400 },
      notify: { email: ['leads@acme.example'], sms: [], broadcast_webhooks: [] },
      tags: ['storm'],
      notes: 'Call within 5 minutes',
      source_filter: [],
      ts: Math.floor(t.clock.now().getTime() / 1000),
      status: {
        live: false,
        draft: true,
        pause: false,
        operator: admin.id,
        reason: 'Created',
        history: [{ status: 'draft', operator: admin.id, reason: 'Created' }],
      },
    });
    expect(body.time).toBeUndefined();
  });

  it("copies the buyer's lead delivery when none is sent, and keeps only the chosen location's values", async () => {
    const buyer = await t.deps.services.buyers.create({
      ...buyerInput(),
      notify: { email: ['dispatch@acme.example'], sms: ['5125550100'], broadcast_webhooks: [] },
    });
    const { notify: _none, ...rest } = input(buyer._id, { location: 'zip', zips: ['75201', '75202'], state: ['TX'] });
    const res = await post(rest);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      notify: { email: ['dispatch@acme.example'], sms: ['5125550100'] },
      location: 'zip',
      zips: ['75201', '75202'],
      state: [],
    });
  });

  it('saves source restrictions with pct as a share and money in dollars', async () => {
    const buyer = await createBuyer(t);
    const { sourceId } = await createSourceWithKey(t, { channels: [{ name: 'facebook', maxCost: 10 }] });
    const res = await post(
      input(buyer._id, {
        exclusive: 0,
        shared_price: 19.99,
        source_filter: [
          { source: sourceId, channel: 'facebook', price: 50, shared_price: 20, pct: 0.25 },
          { source: sourceId, pct: 1 },
        ],
      }),
    );
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      exclusive: 0,
      shared_price: 19.99,
      source_filter: [
        {
          source: sourceId,
          source_name: expect.any(String),
          channel: 'facebook',
          price: 50,
          shared_price: 20,
          pct: 0.25,
        },
        { source: sourceId, pct: 1 },
      ],
    });
  });

  it('names every invalid field with the spec messages, and writes nothing', async () => {
    const buyer = await createBuyer(t);
    const before = await counts();
    const res = await post({
      buyer: buyer._id,
      price: 5001,
      location: 'state',
      state: [],
      notify: { email: ['not-an-email'], sms: ['call me'] },
      source_filter: [{ price: -1, shared_price: 'x', pct: 2 }],
      max: { hourly: 0, monthly: 1001 },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({
      name: 'Name is required',
      price: 'Price must be less than or equal to 5000',
      state: 'At least one state is required when location is set to state',
      'notify.email': 'Please enter valid email addresses',
      'notify.sms': 'Please enter valid phone numbers',
      'source_filter.0.source': 'Source is required',
      'source_filter.0.price': 'Price must be at least 0',
      'source_filter.0.shared_price': 'Shared Price must be a number',
      'source_filter.0.pct': 'Percent must be less than or equal to 100',
      'max.hourly': 'Hourly limit must be at least 1',
      'max.monthly': 'Monthly limit must be less than or equal to 1000',
    });
    expect(await counts()).toEqual(before);
  });

  it.each([
    [{ location: 'zipset' }, 'zipset', 'Zipset is required when location is set to zipset'],
    [{ location: 'zip', zips: [] }, 'zips', 'At least one zip code is required when location is set to zip'],
    [
      { notify: { email: [], sms: [], broadcast_webhooks: [] } },
      'notify',
      'At least one notification method must be configured',
    ],
    [{ price: 10.005 }, 'price', 'Price must have at most 2 decimals'],
    [{ exclusive: 0 }, 'shared_price', 'Shared Price is required when leads are shared'],
    [{ zipset: 'zst_missing', location: 'zipset' }, 'zipset', 'Zipset not found'],
    [{ services: ['roofing', 'teleportation'] }, 'services', 'Unknown service: teleportation'],
    [{ source_filter: [{ source: 'src_missing', pct: 1 }] }, 'source_filter.0.source', 'Source not found'],
    [
      { time: { zone: 'Mars/Olympus', weekday: { start: 7, end: 19 }, weekend: { start: 7, end: 19 } } },
      'time.zone',
      'Time zone must be Eastern, Central, Mountain or Pacific',
    ],
  ])('answers 400 for %j naming %s', async (overrides, field, message) => {
    const buyer = await createBuyer(t);
    const before = await counts();
    const res = await post(input(buyer._id, overrides));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ ok: false, message, errors: { [field]: message } });
    expect(await counts()).toEqual(before);
  });

  it("refuses another buyer's region", async () => {
    const buyer = await createBuyer(t);
    const other = await createBuyer(t);
    const own = await createZipset(['75201'], buyer._id);
    const theirs = await createZipset(['75201'], other._id);
    expect((await post(input(buyer._id, { location: 'zipset', zipset: own }))).statusCode).toBe(201);
    const res = await post(input(buyer._id, { location: 'zipset', zipset: theirs }));
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({ zipset: 'Zipset not found' });
  });

  it('answers 400 naming buyer when the admin names none or an unknown one', async () => {
    const { buyer: _b, ...noBuyer } = input('x');
    expect((await post(noBuyer)).json().errors).toEqual({ buyer: 'Buyer is required' });
    expect((await post(input('buy_missing'))).json().errors).toEqual({ buyer: 'Buyer not found' });
  });

  it('refuses a Branded Id in use (whatever its case), naming fixed_id, without a half-written record', async () => {
    const buyer = await createBuyer(t);
    const first = await post(input(buyer._id, { fixed_id: 'ACME-STORM' }));
    expect(first.statusCode).toBe(201);
    expect(first.json().fixed_id).toBe('ACME-STORM');
    const before = await counts();
    const clash = await post(input(buyer._id, { fixed_id: 'acme-storm' }));
    expectFieldRefused(clash, 'fixed_id', 'Branded Id is already in use');
    expect(await counts()).toEqual(before);
  });

  it('lets a buyer create for itself only, without source restrictions', async () => {
    const mine = await createBuyerWithLogin(t);
    const other = await createBuyer(t);
    const { buyer: _b, ...body } = input('x');
    const res = await post(body, mine.cookie);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ buyer: mine.buyer._id, status: { draft: true } });
    expect(res.json().source_filter).toBeUndefined();
    expect((await post(input(mine.buyer._id), mine.cookie)).statusCode).toBe(201);

    const before = await counts();
    expect((await post(input(other._id), mine.cookie)).statusCode).toBe(404);
    const filtered = await post({ ...body, source_filter: [] }, mine.cookie);
    expect(filtered.statusCode).toBe(400);
    expect(filtered.json().errors).toEqual({ source_filter: 'Source restrictions are set by the admin' });
    expect(await counts()).toEqual(before);
  });

  it('is for admins and buyers: a source gets 403, a guest 401', async () => {
    const source = await createSourceWithLogin(t);
    expect((await post(input('x'), source.cookie)).statusCode).toBe(403);
    expect((await t.request({ method: 'GET', url: '/api/match' })).statusCode).toBe(401);
  });
});

describe('GET /api/match', () => {
  it('pages by 25, searches by buyer name and filters by service', async () => {
    const buyer = await t.deps.services.buyers.create({
      ...buyerInput(),
      name: 'Paging Gutters Inc',
    });
    for (let i = 0; i < 26; i++)
      await createCampaign(t, buyer._id, { services: i % 2 ? ['gutters'] : ['roofing', 'siding'] });
    const first = await get('/api/match?buyer_name=paging%20gutters');
    expect(first.statusCode).toBe(200);
    expect(first.json().total).toBe(26);
    expect(first.json().data).toHaveLength(25);
    expect(first.json().data[0]).toMatchObject({
      _id: expect.any(String),
      name: expect.any(String),
      buyer: buyer._id,
      buyer_name: 'Paging Gutters Inc',
      services: expect.any(Array),
      status: { live: true, draft: false, pause: false },
    });
    expect((await get('/api/match?buyer_name=paging%20gutters&page=2')).json().data).toHaveLength(1);
    const gutters = await get('/api/match?buyer_name=Paging&service=gutters');
    expect(gutters.json().total).toBe(13);
    expect(gutters.json().data.every((c: { services: string[] }) => c.services.includes('gutters'))).toBe(true);
    expect((await get(`/api/match?buyer=${buyer._id}&pageSize=1`)).json().total).toBe(26);
  });

  it('sorts by name, buyer, status, price or date', async () => {
    const buyer = await createBuyer(t);
    await createCampaign(t, buyer._id, { price: 10 });
    await createCampaign(t, buyer._id, { price: 30 });
    const desc = await get(`/api/match?buyer=${buyer._id}&sort=price&order=desc`);
    expect(desc.json().data.map((c: { price: number }) => c.price)).toEqual([30, 10]);
    expect((await get('/api/match?sort=nonsense')).statusCode).toBe(400);
  });

  it('shows a buyer only its own campaigns, whatever it asks for', async () => {
    const mine = await createBuyerWithLogin(t);
    const other = await createBuyer(t);
    const own = await createCampaign(t, mine.buyer._id, { services: ['windows'] });
    await createCampaign(t, other._id, { services: ['plumbing'] });
    const res = await get(`/api/match?buyer=${other._id}`, mine.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ total: 1, data: [{ _id: own }] });
    expect((await get('/api/match/services', mine.cookie)).json()).toEqual(['windows']);
    expect(await (await get('/api/match/services')).json()).toEqual(expect.arrayContaining(['windows', 'plumbing']));
  });

  it('answers a bad page size with a 400 naming the field', async () => {
    expectFieldRefused(await get('/api/match?pageSize=0'), 'pageSize');
  });
});

describe('GET /api/match/{id}', () => {
  it('shows the admin the source restrictions and a buyer its own campaign without them', async () => {
    const mine = await createBuyerWithLogin(t);
    const { sourceId } = await createSourceWithKey(t);
    const id = await createCampaign(t, mine.buyer._id, { filters: [{ sourceId, pct: 0.5 }] });
    const asAdmin = await get(`/api/match/${id}`);
    expect(asAdmin.json().source_filter).toEqual([{ source: sourceId, source_name: expect.any(String), pct: 0.5 }]);
    const asBuyer = await get(`/api/match/${id}`, mine.cookie);
    expect(asBuyer.statusCode).toBe(200);
    expect(asBuyer.json()).toMatchObject({ _id: id, buyer: mine.buyer._id });
    expect('source_filter' in asBuyer.json()).toBe(false);
  });

  it("answers 404 for another buyer's campaign on GET and PUT, and changes nothing", async () => {
    const a = await createBuyerWithLogin(t);
    const b = await createBuyerWithLogin(t);
    const ofB = await createCampaign(t, b.buyer._id, { status: 'draft' });
    await expectScoped404(t, a.cookie, 'Campaign', [
      { method: 'GET', url: `/api/match/${ofB}` },
      { method: 'PUT', url: `/api/match/${ofB}`, payload: { name: 'Stolen', status: 'live' } },
    ]);
    const after = (await get(`/api/match/${ofB}`, b.cookie)).json();
    expect(after.status.draft).toBe(true);
    expect(after.name).not.toBe('Stolen');
  });

  it('answers 404 for an unknown id', async () => {
    expect((await get('/api/match/cmp_missing')).statusCode).toBe(404);
    expect((await put('cmp_missing', { name: 'X' })).statusCode).toBe(404);
  });
});

describe('PUT /api/match/{id}', () => {
  it('changes only the fields sent', async () => {
    const buyer = await createBuyer(t);
    const created = (await post(input(buyer._id, { notes: 'Keep me' }))).json();
    const res = await put(created._id, { name: 'Renamed', price: 50, max: { daily: 5 } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      name: 'Renamed',
      price: 50,
      notes: 'Keep me',
      state: ['TX'],
      max: { hourly: null, daily: 5, weekly: null, monthly: null },
      fixed_id: created.fixed_id,
    });
  });

  it('records each status change with who, when and why', async () => {
    const buyer = await createBuyer(t);
    const created = (await post(input(buyer._id))).json();
    const createdAt = Math.floor(t.clock.now().getTime() / 1000);
    t.clock.advance(60_000);
    const live = await put(created._id, { status: { live: true, draft: false, pause: false } });
    expect(live.json().status).toMatchObject({ live: true, draft: false, pause: false, operator: admin.id });
    t.clock.advance(60_000);
    const paused = await put(created._id, { status: { pause: true, reason: 'Budget reached' } });
    expect(paused.json().status).toEqual({
      live: false,
      draft: false,
      pause: true,
      operator: admin.id,
      ts: createdAt + 120,
      reason: 'Budget reached',
      history: [
        {
          status: 'pause',
          operator: admin.id,
          operator_name: expect.any(String),
          reason: 'Budget reached',
          ts: createdAt + 120,
        },
        { status: 'live', operator: admin.id, operator_name: expect.any(String), ts: createdAt + 60 },
        { status: 'draft', operator: admin.id, operator_name: expect.any(String), reason: 'Created', ts: createdAt },
      ],
    });
    // Sending the status it already has writes no event.
    await put(created._id, { status: 'pause' });
    expect((await get(`/api/match/${created._id}`)).json().status.history).toHaveLength(3);
  });

  it('moves to another location type and clears the old one; time delete and empty notes clear', async () => {
    const buyer = await createBuyer(t);
    const created = (
      await post(
        input(buyer._id, {
          notes: 'x',
          time: { zone: 'America/Chicago', weekday: { start: 8, end: 18 }, weekend: { start: 10, end: 14 } },
        }),
      )
    ).json();
    expect(created.time).toEqual({
      zone: 'America/Chicago',
      weekday: { start: 8, end: 18 },
      weekend: { start: 10, end: 14 },
    });
    const zipset = await createZipset(['75201']);
    const res = await put(created._id, { location: 'zipset', zipset, time: { delete: true }, notes: null });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      location: 'zipset',
      zipset,
      zipset_name: `Region ${zipset}`,
      state: [],
      zips: [],
    });
    expect(res.json().time).toBeUndefined();
    expect(res.json().notes).toBeUndefined();
  });

  it('checks the location rules against the stored campaign, and writes nothing on failure', async () => {
    const buyer = await createBuyer(t);
    const created = (await post(input(buyer._id))).json();
    const bad = await put(created._id, { name: 'Half written?', location: 'zip' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual({ zips: 'At least one zip code is required when location is set to zip' });
    const noState = await put(created._id, { state: [] });
    expect(noState.json().errors).toEqual({ state: 'At least one state is required when location is set to state' });
    const noNotify = await put(created._id, { notify: { email: [], sms: [], broadcast_webhooks: [] } });
    expect(noNotify.json().errors).toEqual({ notify: 'At least one notification method must be configured' });
    const after = (await get(`/api/match/${created._id}`)).json();
    expect(after).toMatchObject({ name: created.name, location: 'state', state: ['TX'] });
  });

  it('refuses Live without a service (issue 27), naming services, and keeps the campaign as it was', async () => {
    const buyer = await createBuyer(t);
    const created = (await post(input(buyer._id, { services: [] }))).json();
    const message = 'Choose at least one service before setting the campaign Live';
    const live = await put(created._id, { status: { live: true } });
    expect(live.statusCode).toBe(400);
    expect(live.json().errors).toEqual({ services: message });
    expect((await get(`/api/match/${created._id}`)).json().status.draft).toBe(true);

    // Emptying the services of a live campaign is refused the same way.
    expect((await put(created._id, { status: { live: true }, services: ['roofing'] })).statusCode).toBe(200);
    const emptied = await put(created._id, { services: [] });
    expect(emptied.statusCode).toBe(400);
    expect(emptied.json().errors).toEqual({ services: message });
    // A draft without a service is fine: it is not buying.
    expect((await put(created._id, { status: { draft: true }, services: [] })).statusCode).toBe(200);
  });

  it('refuses to move a campaign to another buyer or to take a Branded Id in use', async () => {
    const buyer = await createBuyer(t);
    const a = (await post(input(buyer._id))).json();
    const b = (await post(input(buyer._id))).json();
    expect((await put(a._id, { buyer: 'buy_other' })).json().errors).toEqual({ buyer: 'Buyer cannot be changed' });
    const clash = await put(a._id, { fixed_id: b.fixed_id.toLowerCase() });
    expect(clash.statusCode).toBe(400);
    expect(clash.json().errors).toEqual({ fixed_id: 'Branded Id is already in use' });
    // Its own Branded Id is not a clash.
    expect((await put(a._id, { fixed_id: a.fixed_id })).statusCode).toBe(200);
  });

  it('lets a buyer edit its own campaign (status included) but not its source restrictions', async () => {
    const mine = await createBuyerWithLogin(t);
    const { sourceId } = await createSourceWithKey(t);
    const id = await createCampaign(t, mine.buyer._id, { status: 'draft', filters: [{ sourceId, pct: 1 }] });
    const res = await put(id, { name: 'My campaign', status: 'live' }, mine.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: 'My campaign', status: { live: true } });
    expect(res.json().source_filter).toBeUndefined();
    const filtered = await put(id, { source_filter: [] }, mine.cookie);
    expect(filtered.statusCode).toBe(400);
    expect(filtered.json().errors).toEqual({ source_filter: 'Source restrictions are set by the admin' });
    expect((await get(`/api/match/${id}`)).json().source_filter).toHaveLength(1);
  });

  it('replaces the source restrictions whole', async () => {
    const buyer = await createBuyer(t);
    const { sourceId } = await createSourceWithKey(t);
    const created = (await post(input(buyer._id, { source_filter: [{ source: sourceId, pct: 1 }] }))).json();
    const res = await put(created._id, { source_filter: [{ source: sourceId, price: 12, pct: 0.1 }] });
    expect(res.json().source_filter).toEqual([
      { source: sourceId, source_name: expect.any(String), price: 12, pct: 0.1 },
    ]);
    expect((await put(created._id, { source_filter: [] })).json().source_filter).toEqual([]);
  });
});

describe('the distribution engine', () => {
  const lead = (apiKey: string, service: string) => t.sourceApi('/api/lead', apiKey, leadInput({ service }));

  it('sells to a campaign as soon as it is set live, and stops when it is paused', async () => {
    const buyer = await createBuyer(t);
    // A service no other test's campaign buys, so this campaign is the only bidder.
    const created = (await post(input(buyer._id, { services: ['pest_control'], state: ['TX'], price: 40 }))).json();
    const { apiKey } = await createSourceWithKey(t, { maxCost: 10 });

    expect((await lead(apiKey, 'pest_control')).json()).toMatchObject({ ok: false, reason: 'no_match' });

    expect((await put(created._id, { status: 'live' })).statusCode).toBe(200);
    const sold = await lead(apiKey, 'pest_control');
    expect(sold.json()).toMatchObject({ ok: true, status: 'sold' });

    expect((await put(created._id, { status: 'pause' })).statusCode).toBe(200);
    expect((await lead(apiKey, 'pest_control')).json()).toMatchObject({ ok: false, reason: 'no_match' });
  });
});
