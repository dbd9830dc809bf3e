import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  createBuyer,
  createBuyerWithLogin,
  createCampaign,
  createSourceWithLogin,
  uniquePhone,
} from '../../../test/factories';
import { expectFieldRefused, expectPagedByName, expectScoped404, useAdminTestApp } from '../../../test/harness';
import { apiKeys, outbox, sourceChannels, sources, user } from '../../db/schema';

const { t, admin } = useAdminTestApp({ PUBLIC_API_RATE_LIMIT: 0 });

let counter = 0;
/** A valid Source form, unique per call. */
const sourceInput = (overrides: Record<string, unknown> = {}) => {
  counter += 1;
  return {
    name: `Lead Supplier ${counter}`,
    email: `supplier.${counter}.${Math.random().toString(36).slice(2, 7)}@example.com`,
    phone: '5125550190',
    ...overrides,
  };
};

const get = (url: string, as = admin.cookie) => t.request({ method: 'GET', url, as });
const post = (url: string, payload: object, as = admin.cookie) => t.request({ method: 'POST', url, as, payload });
const put = (url: string, payload?: object, as = admin.cookie) => t.request({ method: 'PUT', url, as, payload });
const create = async (overrides: Record<string, unknown> = {}) => {
  const res = await post('/api/source', sourceInput(overrides));
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
};
const newKey = async (id: string, payload?: object) => {
  const res = await put(`/api/source/${id}/apikey/new`, payload);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const counts = async () => ({
  sources: (await t.database.db.select().from(sources)).length,
  channels: (await t.database.db.select().from(sourceChannels)).length,
  keys: (await t.database.db.select().from(apiKeys)).length,
  users: (await t.database.db.select().from(user)).length,
});
const ping = (apiKey: string, payload: object = { service: 'roofing', zip: '75201' }) =>
  t.request({ method: 'POST', url: '/api/ping', payload, headers: { authorization: `Bearer ${apiKey}` } });

/** A live roofing campaign in Texas at $45, so pings from any source find a buyer. */
beforeAll(async () => {
  const buyer = await createBuyer(t);
  await createCampaign(t, buyer._id, { price: 45, states: ['TX'], services: ['roofing'] });
});

describe('POST /api/source', () => {
  it('creates the source with its channels, approved, with no activity yet', async () => {
    const input = sourceInput({
      email: 'Partners@Apex.example',
      contactName: 'Dana Whitfield',
      city: 'Austin',
      state: 'TX',
      zip: '78701',
      tags: ['solar'],
      tier: 2,
      canPostLead: true,
      max_cost: 18.5,
      channels: [
        { name: 'google', max_cost: 20 },
        { name: 'facebook', max_cost: '15.25' },
      ],
    });
    const res = await post('/api/source', input);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      _id: expect.stringMatching(/^src_/),
      name: input.name,
      email: 'partners@apex.example',
      contactName: 'Dana Whitfield',
      state: 'TX',
      tags: ['solar'],
      tier: 2,
      canPostLead: true,
      max_cost: 18.5,
      channels: [
        { name: 'facebook', max_cost: 15.25 },
        { name: 'google', max_cost: 20 },
      ],
      status: 'No Activity',
      apikeys: [],
      users: [],
      ts: Math.floor(t.clock.now().getTime() / 1000),
    });
    const [row] = await t.database.db.select().from(sources).where(eq(sources.id, res.json()._id));
    expect(row?.approvedAt).not.toBeNull();
    expect(row?.maxCostCents).toBe(1850);
  });

  it('names every invalid field with the spec’s words, and writes nothing', async () => {
    const before = await counts();
    const res = await post('/api/source', {
      channels: [
        { name: '', max_cost: '' },
        { name: 'x', max_cost: 'ten' },
      ],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({
      name: 'Name is required',
      email: 'Email is required',
      phone: 'Phone is required',
      'channels.0.name': 'Channel name is required',
      'channels.0.max_cost': 'Max cost is required',
      'channels.1.max_cost': 'Max cost must be a number',
    });
    expect(await counts()).toEqual(before);
  });

  it('answers the first message as the message, so the web can mark the field', async () => {
    const res = await post('/api/source', sourceInput({ max_cost: 5000.5 }));
    expectFieldRefused(res, 'max_cost', 'Lead cost must be less than or equal to 5000');
  });

  it('refuses channel max costs over 5000, negative or with 3 decimals', async () => {
    const res = await post(
      '/api/source',
      sourceInput({
        channels: [
          { name: 'a', max_cost: 5001 },
          { name: 'b', max_cost: -1 },
          { name: 'c', max_cost: 1.234 },
        ],
      }),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({
      'channels.0.max_cost': 'Max cost must be less than or equal to 5000',
      'channels.1.max_cost': 'Max cost must be at least 0',
      'channels.2.max_cost': 'Max cost must have at most 2 decimals',
    });
  });

  it('refuses two channels of the same name with a 400, not a database error', async () => {
    const before = await counts();
    const res = await post(
      '/api/source',
      sourceInput({
        channels: [
          { name: 'google', max_cost: 1 },
          { name: 'Google', max_cost: 2 },
        ],
      }),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({ 'channels.1.name': 'Channel names must be unique' });
    expect(await counts()).toEqual(before);
  });

  it('is for admins only', async () => {
    const source = await createSourceWithLogin(t);
    const buyer = await createBuyerWithLogin(t);
    expect((await post('/api/source', sourceInput(), source.cookie)).statusCode).toBe(403);
    expect((await post('/api/source', sourceInput(), buyer.cookie)).statusCode).toBe(403);
    expect((await t.request({ method: 'POST', url: '/api/source', payload: sourceInput() })).statusCode).toBe(401);
  });
});

describe('GET /api/source', () => {
  it('searches by name, pages by 25, and gives each source its status and channels', async () => {
    for (let i = 0; i < 27; i++) {
      await create({
        name: `Paged Partner ${String(i).padStart(2, '0')}`,
        channels: i === 0 ? [{ name: 'organic', max_cost: 9.5 }] : [],
      });
    }
    const first = await get('/api/source?name=paged%20partner');
    expect(first.statusCode).toBe(200);
    expect(first.json().total).toBe(27);
    expect(first.json().data).toHaveLength(25);
    expect(first.json().data[0]).toEqual({
      _id: expect.stringMatching(/^src_/),
      name: 'Paged Partner 00',
      email: expect.any(String),
      phone: '5125550190',
      status: 'No Activity',
      channels: [{ name: 'organic', max_cost: 9.5 }],
      canPostLead: false,
      // An admin's source is approved at once; a self-signed-up one waits (signup.test.ts).
      approved: true,
      // Only a self-signed-up source needs a payout to sell (issue 27).
      needs_payout: false,
      ts: expect.any(Number),
    });
    await expectPagedByName(t, admin.cookie, '/api/source?name=paged%20partner', {
      secondPage: ['Paged Partner 25', 'Paged Partner 26'],
      last: 'Paged Partner 26',
      total: 27,
    });
  });

  it('serves 200 a page for the campaign screens’ source pickers, and no more', async () => {
    expect((await get('/api/source?pageSize=200')).statusCode).toBe(200);
    expectFieldRefused(await get('/api/source?pageSize=201'), 'pageSize');
  });

  it('treats LIKE wildcards in the search as text', async () => {
    expect((await get('/api/source?name=%25')).json().total).toBe(0);
  });

  it('shows a held source as On Hold', async () => {
    const created = await create({ name: 'Held Listing Partner' });
    await put(`/api/source/${created._id}/hold`, { reason: 'Bad traffic' });
    const res = await get('/api/source?name=Held%20Listing');
    expect(res.json().data[0]).toMatchObject({
      status: 'On Hold',
      hold: { ts: expect.any(Number), reason: 'Bad traffic' },
    });
  });

  it('is for admins only', async () => {
    const source = await createSourceWithLogin(t);
    expect((await get('/api/source', source.cookie)).statusCode).toBe(403);
  });
});

describe('GET /api/source/{id}', () => {
  it('answers the source with its API keys (shown in full), users and latest leads', async () => {
    const created = await create({ max_cost: 12 });
    const key = await newKey(created._id, { name: 'Production' });
    const added = await post(`/api/source/${created._id}/user`, {
      name: 'Dana',
      email: `dana.${counter}@apex.example`,
    });
    expect(added.statusCode).toBe(201);

    const res = await get(`/api/source/${created._id}?include=users&include=leads`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      _id: created._id,
      apikeys: [{ _id: key._id, name: 'Production', key: key.key, status: 'Active', canPostLead: false }],
      users: [{ _id: added.json()._id, name: 'Dana' }],
      leads: [],
    });
    expect(key.key).toMatch(/^lx_/);
    const plain = await get(`/api/source/${created._id}`);
    expect(plain.json().users).toBeUndefined();
    expect(plain.json().leads).toBeUndefined();
    expect(plain.json().apikeys).toHaveLength(1);
  });

  it('answers 404 for an unknown id', async () => {
    const res = await get('/api/source/src_missing');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ ok: false, message: 'Source not found' });
  });

  it('shows a source user its own source, without admin notes or buyer prices, and 404 for another source', async () => {
    const mine = await createSourceWithLogin(t);
    const other = await createSourceWithLogin(t);
    await put(`/api/source/${mine.source.id}`, { notes: 'Internal: watch quality' });
    const own = await get(`/api/source/${mine.source.id}?include=users&include=leads`, mine.cookie);
    expect(own.statusCode).toBe(200);
    expect(own.json()).toMatchObject({ _id: mine.source.id, users: [{ email: mine.user.email }], leads: [] });
    expect(own.json().notes).toBeUndefined();
    await expectScoped404(t, mine.cookie, 'Source', [{ method: 'GET', url: `/api/source/${other.source.id}` }]);
  });

  it('answers a buyer 403', async () => {
    const source = await createSourceWithLogin(t);
    const buyer = await createBuyerWithLogin(t);
    expect((await get(`/api/source/${source.source.id}`, buyer.cookie)).statusCode).toBe(403);
  });
});

describe('PUT /api/source/{id}', () => {
  it('changes only the fields sent, and replaces the channels when sent', async () => {
    const created = await create({ city: 'Austin', notes: 'Keep me', channels: [{ name: 'google', max_cost: 20 }] });
    const res = await put(`/api/source/${created._id}`, {
      city: 'Dallas',
      max_cost: 11.75,
      channels: [{ name: 'bing', max_cost: 7 }],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      city: 'Dallas',
      notes: 'Keep me',
      name: created.name,
      max_cost: 11.75,
      channels: [{ name: 'bing', max_cost: 7 }],
    });
    const kept = await put(`/api/source/${created._id}`, { phone: '5125550000' });
    expect(kept.json().channels).toEqual([{ name: 'bing', max_cost: 7 }]);
  });

  it('clears optional fields sent empty, and the lead cost sent empty', async () => {
    const created = await create({ address: '1 Main St', max_cost: 10 });
    const res = await put(`/api/source/${created._id}`, { address: '', max_cost: '' });
    expect(res.json().address).toBeUndefined();
    expect(res.json().max_cost).toBeUndefined();
  });

  it('refuses invalid changes with a 400 naming the field, and changes nothing', async () => {
    const created = await create({ channels: [{ name: 'google', max_cost: 20 }] });
    const res = await put(`/api/source/${created._id}`, {
      name: 'Renamed',
      channels: [{ name: 'google', max_cost: 20 }, { name: '' }],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({
      'channels.1.name': 'Channel name is required',
      'channels.1.max_cost': 'Max cost is required',
    });
    expect((await get(`/api/source/${created._id}`)).json()).toMatchObject({
      name: created.name,
      channels: [{ name: 'google', max_cost: 20 }],
    });
    const empty = await put(`/api/source/${created._id}`, { name: '' });
    expect(empty.json().errors).toEqual({ name: 'Name is required' });
  });

  it('answers 404 for an unknown source, and 403 to a source user, even for its own', async () => {
    expect((await put('/api/source/src_missing', { city: 'Nowhere' })).statusCode).toBe(404);
    const mine = await createSourceWithLogin(t);
    expect((await put(`/api/source/${mine.source.id}`, { name: 'Mine now' }, mine.cookie)).statusCode).toBe(403);
  });

  it('takes a new channel cost into the engine at once: the next ping quotes it', async () => {
    const created = await create({ max_cost: 10, channels: [{ name: 'google', max_cost: 12 }] });
    const { key } = await newKey(created._id);
    expect((await ping(key, { service: 'roofing', zip: '75201', channel: 'google' })).json().price).toBe(12);
    await put(`/api/source/${created._id}`, { channels: [{ name: 'google', max_cost: 14.5 }] });
    expect((await ping(key, { service: 'roofing', zip: '75201', channel: 'google' })).json().price).toBe(14.5);
  });
});

describe('the distribution engine sees source changes at once', () => {
  it('a source and key created through the API sell a lead; a hold refuses the next ping; unhold admits it', async () => {
    const created = await create({ max_cost: 9, canPostLead: true });
    const key = await newKey(created._id);
    expect(key).toMatchObject({ name: 'API Key 1', canPostLead: true, status: 'Active', key: expect.any(String) });

    const quoted = await ping(key.key);
    expect(quoted.json()).toMatchObject({ ok: true, price: 9 });
    const sold = await t.sourceApi('/api/post', key.key, {
      ping_id: quoted.json().ping_id,
      name: 'Pat Lee',
      phone: uniquePhone(),
    });
    expect(sold.json()).toMatchObject({ ok: true, status: 'sold', price: 9 });
    await t.deps.engine.flush();

    const detail = (await get(`/api/source/${created._id}?include=leads`)).json();
    expect(detail.status).toBe('Active');
    expect(detail.lastPingSent).toEqual(expect.any(Number));
    expect(detail.leads).toEqual([
      {
        _id: sold.json().lead_id,
        ts: expect.any(Number),
        name: 'Pat Lee',
        service: 'roofing',
        zip: '75201',
        cost: 9,
        price: 45,
        sold: true,
        test: false,
      },
    ]);

    const held = await put(`/api/source/${created._id}/hold`, { reason: 'Chargebacks' });
    expect(held.statusCode).toBe(200);
    expect(held.json()).toMatchObject({ status: 'On Hold', hold: { reason: 'Chargebacks' } });
    expect((await ping(key.key)).json()).toMatchObject({ ok: false, reason: 'held' });

    const again = await put(`/api/source/${created._id}/hold`);
    expect(again.json().hold).toEqual(held.json().hold);

    const unheld = await put(`/api/source/${created._id}/unhold`);
    expect(unheld.json().hold).toBeUndefined();
    expect(unheld.json().status).toBe('Active');
    expect((await ping(key.key)).json()).toMatchObject({ ok: true, price: 9 });
  });

  it('a source user sees its leads without the buyers’ price', async () => {
    const mine = await createSourceWithLogin(t);
    // The factory's source is a self-signed-up one, not approved to sell yet.
    await t.database.db.update(sources).set({ approvedAt: t.clock.now() }).where(eq(sources.id, mine.source.id));
    await put(`/api/source/${mine.source.id}`, { max_cost: 8 });
    const { key } = await newKey(mine.source.id);
    const quoted = await ping(key);
    await t.sourceApi('/api/post', key, { ping_id: quoted.json().ping_id, name: 'Sam Ortiz', phone: uniquePhone() });
    const own = (await get(`/api/source/${mine.source.id}?include=leads`, mine.cookie)).json();
    expect(own.leads).toHaveLength(1);
    expect(own.leads[0]).toMatchObject({ name: 'Sam Ortiz', cost: 8, sold: true });
    expect(own.leads[0].price).toBeUndefined();
  });
});

describe('API keys', () => {
  it('names new keys uniquely and takes a name, Can Post Lead and an expiration', async () => {
    const created = await create({ canPostLead: true });
    expect((await newKey(created._id)).name).toBe('API Key 1');
    const exp = Math.floor(t.clock.now().getTime() / 1000) + 86_400;
    const staging = await newKey(created._id, { name: 'Staging', canPostLead: false, expiration: exp });
    expect(staging).toMatchObject({ name: 'Staging', canPostLead: false, exp, status: 'Active' });
    expect((await newKey(created._id)).name).toBe('API Key 3');

    const taken = await put(`/api/source/${created._id}/apikey/new`, { name: 'staging' });
    expect(taken.statusCode).toBe(400);
    expect(taken.json().errors).toEqual({ name: 'An API key with this name already exists' });
    const past = await put(`/api/source/${created._id}/apikey/new`, { expiration: exp - 2 * 86_400 });
    expect(past.json().errors).toEqual({ expiration: 'Expiration must be in the future' });
    const bad = await put(`/api/source/${created._id}/apikey/new`, { expiration: 'someday' });
    expect(bad.json().errors).toEqual({ expiration: 'Expiration must be a date' });
    expect((await get(`/api/source/${created._id}`)).json().apikeys).toHaveLength(3);
  });

  it('works without a body (no content type), as a bare PUT', async () => {
    const created = await create();
    const res = await t.request({ method: 'PUT', url: `/api/source/${created._id}/apikey/new`, as: admin.cookie });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().key).toMatch(/^lx_/);
  });

  it('shows a key Expired once its expiration passes, and the engine refuses it', async () => {
    const created = await create({ max_cost: 5 });
    const exp = Math.floor(t.clock.now().getTime() / 1000) + 60;
    const { key } = await newKey(created._id, { expiration: exp });
    expect((await ping(key)).json().ok).toBe(true);
    t.clock.advance(61_000);
    try {
      expect((await get(`/api/source/${created._id}`)).json().apikeys[0].status).toBe('Expired');
      expect((await ping(key)).json()).toMatchObject({ ok: false, reason: 'expired' });
    } finally {
      t.clock.advance(-61_000);
    }
  });

  it('holds a key by name: the engine refuses it at once, and it cannot be held again', async () => {
    const created = await create({ max_cost: 5 });
    const production = await newKey(created._id, { name: 'Production' });
    const backup = await newKey(created._id, { name: 'Backup' });
    const held = await put(`/api/source/${created._id}/apikey/hold`, { name: 'Production' });
    expect(held.statusCode).toBe(200);
    expect(held.json()).toMatchObject({ name: 'Production', status: 'On hold', hold: expect.any(Number) });
    expect((await ping(production.key)).json()).toMatchObject({ ok: false, reason: 'held' });
    expect((await ping(backup.key)).json().ok).toBe(true);

    const twice = await put(`/api/source/${created._id}/apikey/hold`, { name: 'Production' });
    expectFieldRefused(twice, 'name', 'This API key is already on hold');
    // Keys on hold are listed after the others.
    const keys = (await get(`/api/source/${created._id}`)).json().apikeys;
    expect(keys.map((k: { name: string }) => k.name)).toEqual(['Backup', 'Production']);
  });

  it('answers 404 for an unknown key or another source’s key, and 400 without a name', async () => {
    const a = await create();
    const b = await create();
    await newKey(b._id, { name: 'Theirs' });
    expect((await put(`/api/source/${a._id}/apikey/hold`, { name: 'Theirs' })).statusCode).toBe(404);
    expect((await put(`/api/source/src_missing/apikey/hold`, { name: 'Theirs' })).statusCode).toBe(404);
    expect((await put(`/api/source/src_missing/apikey/new`, {})).statusCode).toBe(404);
    const missing = await put(`/api/source/${a._id}/apikey/hold`, {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors).toEqual({ name: 'API key name is required' });
  });

  it('keeps key actions and source holds for admins', async () => {
    const mine = await createSourceWithLogin(t);
    const id = mine.source.id;
    for (const url of [`/api/source/${id}/apikey/new`, `/api/source/${id}/hold`, `/api/source/${id}/unhold`]) {
      expect((await put(url, {}, mine.cookie)).statusCode, url).toBe(403);
    }
    expect((await put(`/api/source/${id}/apikey/hold`, { name: 'x' }, mine.cookie)).statusCode).toBe(403);
    expect((await put('/api/source/src_missing/hold', {})).statusCode).toBe(404);
    expect((await put('/api/source/src_missing/unhold', {})).statusCode).toBe(404);
  });
});

describe('source users', () => {
  it('adds a user (Source User Details), edits it, and names missing fields', async () => {
    const created = await create();
    const missing = await post(`/api/source/${created._id}/user`, {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors).toEqual({ name: 'Name is required', email: 'Email is required' });

    const email = `ops.${counter}@supplier.example`;
    const res = await post(`/api/source/${created._id}/user`, { name: 'Ops Desk', email });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ _id: expect.stringMatching(/^usr_/), name: 'Ops Desk', email });
    const [row] = await t.database.db.select().from(user).where(eq(user.id, res.json()._id));
    expect(row).toMatchObject({ role: 'source', roleId: created._id, welcome: true });

    const taken = await post(`/api/source/${created._id}/user`, { name: 'Again', email: email.toUpperCase() });
    expect(taken.json().errors).toEqual({ email: 'This email already exists.' });

    const edited = await put(`/api/source/${created._id}/user/${res.json()._id}`, { name: 'Renamed', email });
    expect(edited.json().name).toBe('Renamed');
    expect((await post('/api/source/src_missing/user', { name: 'X', email: 'x@y.example' })).statusCode).toBe(404);
  });

  it('sends a welcome email with a set-password link', async () => {
    const created = await create();
    const email = `welcome.${counter}@supplier.example`;
    const added = (await post(`/api/source/${created._id}/user`, { name: 'New Person', email })).json();
    const res = await put(`/api/source/${created._id}/welcome/${added._id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ _id: added._id, email });
    const [mail] = await t.database.db.select().from(outbox).where(eq(outbox.to, email));
    expect(mail?.text).toContain('http://leadex.test/reset-password?token=');
  });

  it('locks a user (ending its sessions at once) and unlocks it', async () => {
    const mine = await createSourceWithLogin(t);
    const session = () => t.request({ method: 'GET', url: '/api/session', as: mine.cookie });
    expect((await session()).statusCode).toBe(200);

    const locked = await put(`/api/source/${mine.source.id}/hold/${mine.user.id}`);
    expect(locked.statusCode).toBe(200);
    expect(locked.json().hold).toEqual({ ts: expect.any(Number) });
    expect((await session()).statusCode).toBe(401);
    await expect(t.signIn(mine.user.email, mine.password)).rejects.toThrow();

    const unlocked = await put(`/api/source/${mine.source.id}/unhold/${mine.user.id}`);
    expect(unlocked.json().hold).toBeUndefined();
    await t.signIn(mine.user.email, mine.password);
  });

  it('answers 404 for a user of another source (or a buyer user) on every user action', async () => {
    const a = await createSourceWithLogin(t);
    const b = await createSourceWithLogin(t);
    const buyer = await createBuyerWithLogin(t);
    for (const other of [b.user.id, buyer.user.id]) {
      for (const action of ['welcome', 'hold', 'unhold']) {
        const res = await put(`/api/source/${a.source.id}/${action}/${other}`);
        expect(res.statusCode, action).toBe(404);
      }
      const edit = await put(`/api/source/${a.source.id}/user/${other}`, { name: 'X', email: 'x@example.com' });
      expect(edit.statusCode).toBe(404);
    }
    expect((await t.request({ method: 'GET', url: '/api/session', as: b.cookie })).statusCode).toBe(200);
  });

  it('keeps user actions for admins', async () => {
    const { source, user: own, cookie } = await createSourceWithLogin(t);
    for (const action of ['welcome', 'hold', 'unhold']) {
      expect((await put(`/api/source/${source.id}/${action}/${own.id}`, {}, cookie)).statusCode, action).toBe(403);
    }
    expect((await post(`/api/source/${source.id}/user`, { name: 'X', email: 'x@z.example' }, cookie)).statusCode).toBe(
      403,
    );
  });
});
