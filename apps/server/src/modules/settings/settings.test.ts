import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { createBuyerWithLogin, createSourceWithKey, leadInput } from '../../../test/factories';
import { useAdminTestApp } from '../../../test/harness';

// docs/decisions.md "One clock": one zone for every time the exchange shows or counts, a setting.

const { t, admin } = useAdminTestApp({ PUBLIC_API_RATE_LIMIT: 0 });

const zone = (as = admin.cookie) => t.request({ method: 'GET', url: '/api/setting/zone', as });
const setZone = (payload: unknown, as = admin.cookie) =>
  t.request({ method: 'PUT', url: '/api/setting/zone', as, payload: payload as object });
const today = () => t.request({ method: 'GET', url: '/api/lead/date/today', as: admin.cookie });
const csv = async () =>
  parse(
    (await t.request({ method: 'GET', url: '/api/lead/date/today/export.csv', as: admin.cookie })).body,
  ) as string[][];

/** The lead: 08:31 UTC on November 27, 2026, which is 3:31 AM in New York (EST). */
const STAMP = '2026-11-27T08:31:00Z';

describe('the exchange zone (GET and PUT /api/setting/zone)', () => {
  it('is America/New_York until the admin sets another, and every session learns it', async () => {
    expect((await zone()).json()).toEqual({ zone: 'America/New_York', abbreviation: 'ET' });
    const session = await t.request({ method: 'GET', url: '/api/session', as: admin.cookie });
    expect(session.json()).toMatchObject({ zone: 'America/New_York' });
  });

  it('refuses a name no time zone has with a 400 naming the field, and changes nothing', async () => {
    for (const bad of [{ zone: 'Eastern Time' }, { zone: 'Mars/Olympus_Mons' }, { zone: '+05:00' }]) {
      const res = await setZone(bad);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        ok: false,
        message: 'Time zone must be a time zone name such as America/New_York',
        errors: { zone: 'Time zone must be a time zone name such as America/New_York' },
      });
    }
    const missing = await setZone({});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors).toEqual({ zone: 'Time zone is required' });
    expect((await zone()).json().zone).toBe('America/New_York');
  });

  it('is the admin’s alone', async () => {
    const buyer = await createBuyerWithLogin(t);
    expect((await setZone({ zone: 'UTC' }, buyer.cookie)).statusCode).toBe(403);
    expect((await zone(buyer.cookie)).statusCode).toBe(403);
    expect((await t.request({ method: 'PUT', url: '/api/setting/zone', payload: { zone: 'UTC' } })).statusCode).toBe(
      401,
    );
  });

  it('writes the CSV’s timestamps in ISO 8601 with the zone’s offset, and moves "Today" and the CSV with the setting', async () => {
    t.clock.set(STAMP);
    const { apiKey } = await createSourceWithKey(t, { canPostLead: true });
    const posted = await t.sourceApi('/api/lead', apiKey, leadInput({ name: 'Issue Lead' }));
    expect(posted.statusCode, posted.body).toBe(200);

    // New York: the lead is today's (Nov 27) at 3:31 AM EST.
    expect((await today()).json().data.map((l: { name: string }) => l.name)).toContain('Issue Lead');
    const [header, row] = await csv();
    expect(header?.[0]).toBe('Date');
    expect(row?.[0]).toBe('2026-11-27T03:31:00-05:00');

    // Los Angeles: the same instant is 12:31 AM on Nov 27, PST; at 07:59 UTC it is still Nov 26 there.
    const la = await setZone({ zone: 'America/Los_Angeles' });
    expect(la.statusCode).toBe(200);
    expect(la.json()).toEqual({ zone: 'America/Los_Angeles', abbreviation: 'PT' });
    expect((await csv())[1]?.[0]).toBe('2026-11-27T00:31:00-08:00');
    t.clock.set('2026-11-27T07:59:00Z');
    expect((await today()).json().data.map((l: { name: string }) => l.name)).not.toContain('Issue Lead');
    expect((await t.request({ method: 'GET', url: '/api/session', as: admin.cookie })).json().zone).toBe(
      'America/Los_Angeles',
    );

    // Back to the default, kept in the settings table (a fresh read of it agrees).
    expect((await setZone({ zone: ' America/New_York ' })).json().zone).toBe('America/New_York');
    await t.deps.services.settings.refreshZone();
    expect((await zone()).json().zone).toBe('America/New_York');
    expect((await today()).json().data.map((l: { name: string }) => l.name)).toContain('Issue Lead');
  });
});
