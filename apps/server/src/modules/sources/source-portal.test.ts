import { describe, expect, it } from 'vitest';
import { createBuyer, createCampaign, createSourceWithLogin } from '../../../test/factories';
import { expectScoped404, useAdminTestApp } from '../../../test/harness';

/**
 * The source portal (portals spec §2, issue 15) as a signed-in source user calls it: the welcome page
 * (its own record with the first API key in clear, the services, a test ping with the key in the body,
 * closing the page) and the details page; never another source's record.
 */
const { t, admin } = useAdminTestApp({ PUBLIC_API_RATE_LIMIT: 0 });

const get = (url: string, as: string) => t.request({ method: 'GET', url, as });
const put = (url: string, as: string, payload?: object) => t.request({ method: 'PUT', url, as, payload });

/** A source user on its welcome page, and an API key the admin made for its source. */
async function sourceWithKey(options: { canPostLead?: boolean } = {}) {
  const login = await createSourceWithLogin(t, options);
  const res = await put(`/api/source/${login.source.id}/apikey/new`, admin.cookie, { name: 'First key' });
  expect(res.statusCode, res.body).toBe(200);
  return { ...login, key: res.json() as { _id: string; key: string; name: string } };
}

describe('the welcome page’s calls', () => {
  it('read the own source with its first key in clear, list the services, send a test ping, and close the page', async () => {
    const buyer = await createBuyer(t);
    await createCampaign(t, buyer._id, { price: 40, states: ['TX'], services: ['roofing'] });
    const { source, cookie, key } = await sourceWithKey();

    expect((await get('/api/session', cookie)).json()).toMatchObject({
      role: 'source',
      role_id: source.id,
      welcome: true,
    });

    const own = await get(`/api/source/${source.id}`, cookie);
    expect(own.statusCode).toBe(200);
    expect(own.json()).toMatchObject({
      _id: source.id,
      canPostLead: false,
      apikeys: [{ name: 'First key', key: key.key }],
    });
    expect(key.key).toMatch(/^lx_/);

    const services = await get('/api/services', cookie);
    expect(services.statusCode).toBe(200);
    expect(services.json()).toContain('roofing');

    // The page posts the key in the body (portals §7); an unapproved source may still test.
    const ping = await t.request({
      method: 'POST',
      url: '/api/ping',
      as: cookie,
      payload: { apikey: key.key, service: 'roofing', zip: '99999', test: true },
    });
    expect(ping.statusCode, ping.body).toBe(200);
    expect(typeof ping.json().ok).toBe('boolean');

    const closed = await put('/api/session/claims', cookie, { welcome: false });
    expect(closed.statusCode).toBe(200);
    expect(closed.json()).toMatchObject({ role: 'source', welcome: false });
    expect((await get('/api/session', cookie)).json().welcome).toBe(false);
  });

  it('answers the welcome claim 400 naming the field for anything but false', async () => {
    const { cookie } = await createSourceWithLogin(t);
    for (const welcome of [true, 'no', null]) {
      const res = await put('/api/session/claims', cookie, { welcome });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ ok: false, errors: { welcome: 'Welcome can only be set to false' } });
    }
    expect((await get('/api/session', cookie)).json().welcome).toBe(true);
  });

  it('says whether the source may post direct, as the direct lead endpoint is shown only then', async () => {
    const direct = await sourceWithKey({ canPostLead: true });
    expect((await get('/api/session', direct.cookie)).json().canPostLead).toBe(true);
    expect((await get(`/api/source/${direct.source.id}`, direct.cookie)).json().canPostLead).toBe(true);
  });
});

describe('the details page’s call (GET /api/source/{role_id}?include=users)', () => {
  it('answers keys on hold last, the source’s hold date without its reason, channels and users', async () => {
    const { source, cookie, user } = await sourceWithKey();
    await put(`/api/source/${source.id}/apikey/new`, admin.cookie, { name: 'Second key' });
    expect((await put(`/api/source/${source.id}/apikey/hold`, admin.cookie, { name: 'First key' })).statusCode).toBe(
      200,
    );
    await put(`/api/source/${source.id}`, admin.cookie, { channels: [{ name: 'facebook', max_cost: 12 }] });
    expect((await put(`/api/source/${source.id}/hold`, admin.cookie, { reason: 'Quality review' })).statusCode).toBe(
      200,
    );

    const res = await get(`/api/source/${source.id}?include=users`, cookie);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.apikeys.map((k: { name: string; status: string }) => [k.name, k.status])).toEqual([
      ['Second key', 'Active'],
      ['First key', 'On hold'],
    ]);
    expect(body.hold).toEqual({ ts: expect.any(Number) });
    expect(body.channels).toEqual([{ name: 'facebook', max_cost: 12 }]);
    expect(body.users).toEqual([{ _id: user.id, name: user.name, email: user.email }]);
  });

  it('answers 400 naming include for a part it does not know', async () => {
    const { source, cookie } = await createSourceWithLogin(t);
    const res = await get(`/api/source/${source.id}?include=users,secrets`, cookie);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ ok: false, errors: { include: 'include takes users and leads' } });
  });

  it('answers another source’s id 404, whatever is included, as for an unknown id', async () => {
    const mine = await sourceWithKey();
    const other = await sourceWithKey();
    await expectScoped404(t, mine.cookie, 'Source', [
      { method: 'GET', url: `/api/source/${other.source.id}` },
      { method: 'GET', url: `/api/source/${other.source.id}?include=users` },
      { method: 'GET', url: `/api/source/${other.source.id}?include=users&include=leads` },
      { method: 'GET', url: '/api/source/src_missing' },
    ]);
  });

  it('keeps a source user from the admin’s source calls, even on its own record', async () => {
    const { source, cookie } = await sourceWithKey();
    const calls = [
      put(`/api/source/${source.id}/apikey/new`, cookie, {}),
      put(`/api/source/${source.id}/apikey/hold`, cookie, { name: 'First key' }),
      put(`/api/source/${source.id}`, cookie, { name: 'Renamed' }),
      get('/api/source', cookie),
    ];
    for (const res of await Promise.all(calls)) expect(res.statusCode).toBe(403);
    expect((await get(`/api/source/${source.id}`, cookie)).json().apikeys).toHaveLength(1);
  });
});
