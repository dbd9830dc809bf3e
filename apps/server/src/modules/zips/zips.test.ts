import type { ZipSearchResult, ZipSuggestion, Zipset } from '@leadex/domain';
import { count, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { createBuyerWithLogin, createSourceWithLogin } from '../../../test/factories';
import { expectScoped404, useAdminTestApp } from '../../../test/harness';
import { zipsets } from '../../db/schema';
import { readZipData, type ZipRow } from '../../db/zips';
import { readEngineVersion } from '../../distribution/engine-version';
import { parseCountyText, ZIPSET_NAME_TAKEN } from './zips.service';

let zipData: ZipRow[];
const { t, admin } = useAdminTestApp();
beforeAll(async () => {
  zipData = readZipData();
});

/** The great-circle distance in miles, computed here independently of the SQL. */
function haversineMiles(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const rad = (d: number) => (d * Math.PI) / 180;
  const a =
    Math.sin(rad(lat2 - lat1) / 2) ** 2 +
    Math.cos(rad(lat1)) * Math.cos(rad(lat2)) * Math.sin(rad(lon2 - lon1) / 2) ** 2;
  return 2 * 3958.7613 * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** Every ZIP of the data file within `radius` miles of `zip`, by a full scan. */
function expectedWithin(zip: string, radius: number): Set<string> {
  const center = zipData.find((z) => z.zip === zip);
  if (!center?.lat || !center.lon) throw new Error(`no ${zip} in the data`);
  const { lat, lon } = center as { lat: number; lon: number };
  return new Set(
    zipData
      .filter((z) => z.lat != null && z.lon != null && haversineMiles(lat, lon, z.lat, z.lon) <= radius)
      .map((z) => z.zip),
  );
}

const get = (url: string, as = admin.cookie) => t.request({ method: 'GET', url, as });

describe('GET /api/zip/search?type=radius', () => {
  it('finds exactly the ZIPs within 10 miles of 10001, nearest first', async () => {
    const res = await get('/api/zip/search?type=radius&zip=10001&radius=10');
    expect(res.statusCode).toBe(200);
    const found: ZipSearchResult[] = res.json();
    const zips = found.map((r) => r.zip);
    expect(new Set(zips)).toEqual(expectedWithin('10001', 10));
    expect(zips.length).toBeGreaterThan(250);
    // Midtown and its neighbours, and the edges: Staten Island and Newark across the river.
    for (const inside of ['10001', '10011', '10018', '10036', '11201', '10301', '07102'])
      expect(zips).toContain(inside);
    // Yonkers (15 mi), Far Rockaway (16 mi), Staten Island's 10314 (12.7 mi).
    for (const outside of ['10701', '11691', '10314']) expect(zips).not.toContain(outside);
    expect(found[0]).toEqual({ zip: '10001', city: 'New York', state: 'NY', county: 'New York', distance: 0 });
    const distances = found.map((r) => r.distance as number);
    expect(distances).toEqual([...distances].sort((a, b) => a - b));
    expect(Math.max(...distances)).toBeLessThanOrEqual(10);
    expect(found.find((r) => r.zip === '10018')?.distance).toBeCloseTo(0.49, 2);
  });

  it('uses a 5-mile radius by default', async () => {
    const found: ZipSearchResult[] = (await get('/api/zip/search?type=radius&zip=10001')).json();
    expect(new Set(found.map((r) => r.zip))).toEqual(expectedWithin('10001', 5));
    expect(found.map((r) => r.zip)).not.toContain('07102');
  });

  it('is exact far from New York too (Anchorage, 25 miles)', async () => {
    const found: ZipSearchResult[] = (await get('/api/zip/search?type=radius&zip=99501&radius=25')).json();
    expect(new Set(found.map((r) => r.zip))).toEqual(expectedWithin('99501', 25));
  });

  it('answers 400 naming the field for an unknown or malformed ZIP and a bad radius', async () => {
    const unknown = await get('/api/zip/search?type=radius&zip=00000&radius=10');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toEqual({
      ok: false,
      message: 'Zip 00000 was not found',
      errors: { zip: 'Zip 00000 was not found' },
    });
    const cases: [string, string, string][] = [
      ['type=radius', 'zip', 'Zip is required'],
      ['type=radius&zip=1001', 'zip', 'Zip must be 5 digits'],
      ['type=radius&zip=10001&radius=ten', 'radius', 'Radius must be a number'],
      ['type=radius&zip=10001&radius=0', 'radius', 'Radius must be greater than 0'],
      ['type=radius&zip=10001&radius=500', 'radius', 'Radius must be less than or equal to 200'],
      ['type=town&zip=10001', 'type', 'Type must be radius or county'],
      ['zip=10001', 'type', 'Type must be radius or county'],
    ];
    for (const [query, field, message] of cases) {
      const res = await get(`/api/zip/search?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().errors?.[field], query).toBe(message);
    }
  });
});

describe('GET /api/zip/search?type=county', () => {
  const kings = () =>
    new Set(zipData.filter((z) => z.state === 'NY' && z.county === 'Kings').map((z) => z.zip as string));

  it('finds every ZIP of a county named with or without the word County, in any case', async () => {
    expect(kings().size).toBeGreaterThan(30);
    for (const county of ['Kings', 'Kings County', 'kings county', ' KINGS ']) {
      const res = await get(`/api/zip/search?type=county&county=${encodeURIComponent(county)}&state=ny`);
      expect(res.statusCode, county).toBe(200);
      const found: ZipSearchResult[] = res.json();
      expect(new Set(found.map((r) => r.zip)), county).toEqual(kings());
      expect(found[0]?.distance).toBeUndefined();
    }
    const found: ZipSearchResult[] = (await get('/api/zip/search?type=county&county=Kings&state=NY')).json();
    expect(found.find((r) => r.zip === '11201')).toEqual({
      zip: '11201',
      city: 'Brooklyn',
      state: 'NY',
      county: 'Kings',
    });
  });

  it('keeps to the state, and reads Parish like County', async () => {
    const texas: ZipSearchResult[] = (await get('/api/zip/search?type=county&county=Kings&state=TX')).json();
    expect(texas.every((r) => r.state === 'TX')).toBe(true);
    expect(texas.map((r) => r.zip)).not.toContain('11201');
    const orleans: ZipSearchResult[] = (
      await get('/api/zip/search?type=county&county=Orleans%20Parish&state=LA')
    ).json();
    expect(orleans.map((r) => r.zip)).toContain('70112');
  });

  it('answers an empty list for a county that does not exist, and 400 without county or state', async () => {
    expect((await get('/api/zip/search?type=county&county=Atlantis&state=NY')).json()).toEqual([]);
    const res = await get('/api/zip/search?type=county');
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({ county: 'County is required', state: 'State is required' });
    expect((await get('/api/zip/search?type=county&county=Kings&state=XX')).json().errors).toEqual({
      state: 'Choose a US state',
    });
  });
});

describe('GET /api/zip/suggestions', () => {
  it('starts at 2 characters', async () => {
    for (const q of ['', '1', 'k', ' 1 ']) {
      const res = await get(`/api/zip/suggestions?q=${encodeURIComponent(q)}`);
      expect(res.statusCode).toBe(200);
      expect(res.json(), q).toEqual([]);
    }
    expect((await get('/api/zip/suggestions')).json()).toEqual([]);
  });

  it('suggests ZIPs by prefix, at most 20', async () => {
    const found: ZipSuggestion[] = (await get('/api/zip/suggestions?q=100')).json();
    expect(found).toHaveLength(20);
    expect(found.every((s) => s.type === 'Zip' && s.name.startsWith('100'))).toBe(true);
    const exact: ZipSuggestion[] = (await get('/api/zip/suggestions?q=10001')).json();
    expect(exact).toEqual([
      { key: 'zip:10001', displayName: '10001 - New York, NY', name: '10001', state: 'NY', type: 'Zip' },
    ]);
  });

  it('suggests counties by name, shown like "Kings County, NY"', async () => {
    const found: ZipSuggestion[] = (await get('/api/zip/suggestions?q=kings')).json();
    expect(found).toContainEqual({
      key: 'county:NY:Kings',
      displayName: 'Kings County, NY',
      name: 'Kings',
      state: 'NY',
      type: 'County',
    });
    expect(found.length).toBeLessThanOrEqual(20);
    expect(found.every((s) => s.type === 'County' && s.name.toLowerCase().includes('kings'))).toBe(true);
    const inNewYork: ZipSuggestion[] = (await get('/api/zip/suggestions?q=Kings%20County%2C%20NY')).json();
    expect(inNewYork.map((s) => s.displayName)).toEqual(['Kings County, NY']);
    const byWord: ZipSuggestion[] = (await get('/api/zip/suggestions?q=francisco')).json();
    expect(byWord.map((s) => s.displayName)).toContain('City and County of San Francisco, CA');
  });

  it('is for admins and buyers only', async () => {
    const buyer = await createBuyerWithLogin(t);
    expect((await get('/api/zip/suggestions?q=100', buyer.cookie)).statusCode).toBe(200);
    expect((await get('/api/zip/search?type=radius&zip=10001', buyer.cookie)).statusCode).toBe(200);
    const source = await createSourceWithLogin(t);
    expect((await get('/api/zip/suggestions?q=100', source.cookie)).statusCode).toBe(403);
    expect((await get('/api/zip/search?type=radius&zip=10001', source.cookie)).statusCode).toBe(403);
    expect((await t.request({ method: 'GET', url: '/api/zip/suggestions?q=100' })).statusCode).toBe(401);
  });
});

describe('parseCountyText', () => {
  it('reads a trailing state and a (half-typed) County', () => {
    expect(parseCountyText('Kings')).toEqual({ name: 'Kings', state: undefined });
    expect(parseCountyText('Kings, ny')).toEqual({ name: 'Kings', state: 'NY' });
    expect(parseCountyText('Kings County NY')).toEqual({ name: 'Kings', state: 'NY' });
    expect(parseCountyText('kings cou')).toEqual({ name: 'kings', state: undefined });
    // "Co" here is the start of County, not Colorado.
    expect(parseCountyText('Kings Co')).toEqual({ name: 'Kings', state: undefined });
    expect(parseCountyText('Contra Costa')).toEqual({ name: 'Contra Costa', state: undefined });
  });
});

describe('/api/zipset', () => {
  const post = (payload: Record<string, unknown>, as = admin.cookie) =>
    t.request({ method: 'POST', url: '/api/zipset', payload, as });
  const list = async (as = admin.cookie, query = ''): Promise<Zipset[]> =>
    (await get(`/api/zipset${query}`, as)).json();
  const rows = async () => (await t.database.db.select({ n: count() }).from(zipsets))[0]?.n ?? 0;

  it('saves a region with its ZIPs once each and answers it with _id', async () => {
    const res = await post({
      name: 'Midtown 2 mi',
      description: 'Around Penn Station',
      zips: ['10001', '10018', '10001'],
    });
    expect(res.statusCode).toBe(201);
    const created: Zipset = res.json();
    expect(created).toEqual({
      _id: expect.stringMatching(/^zst_/),
      name: 'Midtown 2 mi',
      description: 'Around Penn Station',
      zips: ['10001', '10018'],
      ts: Math.floor(t.clock.now().getTime() / 1000),
    });
    const [row] = await t.database.db.select().from(zipsets).where(eq(zipsets.id, created._id));
    expect(row?.buyerId).toBeNull();
    expect((await list()).map((z) => z._id)).toContain(created._id);
  });

  it('answers 400 naming the field and writes nothing for bad input', async () => {
    const before = await rows();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ zips: ['10001'] }, 'name', 'Name is required'],
      [{ name: '  ', zips: ['10001'] }, 'name', 'Name is required'],
      [{ name: 'Empty', zips: [] }, 'zips', 'At least one zip code is required'],
      [{ name: 'None' }, 'zips', 'At least one zip code is required'],
      [{ name: 'Bad', zips: ['10001', '1001'] }, 'zips', 'Zip codes must be 5 digits'],
      [{ name: 'Bad', zips: ['10001', 10002] }, 'zips', 'Zip codes must be 5 digits'],
    ];
    for (const [payload, field, message] of cases) {
      const res = await post(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().errors?.[field], JSON.stringify(payload)).toBe(message);
    }
    expect(await rows()).toBe(before);
  });

  it("keeps a buyer's region to that buyer: another buyer gets 404 and never sees it in the list", async () => {
    const a = await createBuyerWithLogin(t);
    const b = await createBuyerWithLogin(t);
    const shared: Zipset = (await post({ name: 'Exchange-wide', zips: ['10001'] })).json();
    const res = await post({ name: 'Buyer A region', zips: ['11201', '11215'] }, a.cookie);
    expect(res.statusCode).toBe(201);
    const mine: Zipset = res.json();
    expect(mine.buyer).toBe(a.buyer._id);

    const seenByA = (await list(a.cookie)).map((z) => z._id);
    expect(seenByA).toEqual(expect.arrayContaining([shared._id, mine._id]));
    const seenByB = (await list(b.cookie)).map((z) => z._id);
    expect(seenByB).toContain(shared._id);
    expect(seenByB).not.toContain(mine._id);

    expect((await get(`/api/zipset/${mine._id}`, a.cookie)).statusCode).toBe(200);
    await expectScoped404(t, b.cookie, 'Region', [{ method: 'GET', url: `/api/zipset/${mine._id}` }]);
    expect((await get(`/api/zipset/${shared._id}`, b.cookie)).json().name).toBe('Exchange-wide');

    // A buyer cannot widen its scope with the admin's filter.
    expect((await list(b.cookie, `?buyer=${a.buyer._id}`)).map((z) => z._id)).not.toContain(mine._id);
    // The admin sees every region, or narrows to what one buyer can use.
    expect((await list()).map((z) => z._id)).toEqual(expect.arrayContaining([shared._id, mine._id]));
    const forB = (await list(admin.cookie, `?buyer=${b.buyer._id}`)).map((z) => z._id);
    expect(forB).toContain(shared._id);
    expect(forB).not.toContain(mine._id);
  });

  it('is closed to sources and guests', async () => {
    const source = await createSourceWithLogin(t);
    expect((await get('/api/zipset', source.cookie)).statusCode).toBe(403);
    expect((await post({ name: 'x', zips: ['10001'] }, source.cookie)).statusCode).toBe(403);
    expect((await t.request({ method: 'GET', url: '/api/zipset' })).statusCode).toBe(401);
  });

  it('refuses a name another region already has, trimmed and in any case, on the name field', async () => {
    const first = await post({ name: 'Dallas North', zips: ['75201'] });
    expect(first.statusCode).toBe(201);
    const before = await rows();
    for (const name of ['Dallas North', 'dallas north', '  DALLAS NORTH  ']) {
      const res = await post({ name, zips: ['75202'] });
      expect(res.statusCode, name).toBe(400);
      expect(res.json(), name).toEqual({
        ok: false,
        message: ZIPSET_NAME_TAKEN,
        errors: { name: ZIPSET_NAME_TAKEN },
      });
    }
    expect(await rows()).toBe(before);
    // Another name passes.
    expect((await post({ name: 'Dallas North 2', zips: ['75202'] })).statusCode).toBe(201);
  });

  it('keeps names unique in what each buyer sees: exchange-wide ones and its own', async () => {
    const a = await createBuyerWithLogin(t);
    const b = await createBuyerWithLogin(t);
    expect((await post({ name: 'Exchange Austin', zips: ['73301'] })).statusCode).toBe(201);
    // A buyer's picker shows the exchange-wide regions: the same name would show twice.
    expect((await post({ name: 'exchange austin', zips: ['73301'] }, a.cookie)).json().errors).toEqual({
      name: ZIPSET_NAME_TAKEN,
    });
    expect((await post({ name: 'My Austin', zips: ['73301'] }, a.cookie)).statusCode).toBe(201);
    expect((await post({ name: 'MY AUSTIN', zips: ['73344'] }, a.cookie)).statusCode).toBe(400);
    // Another buyer never sees A's regions: the name is free for it, and says nothing of A's.
    expect((await post({ name: 'My Austin', zips: ['73301'] }, b.cookie)).statusCode).toBe(201);
    // An exchange-wide region is seen by every buyer: a buyer's name is taken for it.
    const adminTry = await post({ name: 'my austin', zips: ['73301'] });
    expect(adminTry.statusCode).toBe(400);
    expect(adminTry.json().errors).toEqual({ name: ZIPSET_NAME_TAKEN });
  });

  it('lets only one of simultaneous creates of a name through (PostgreSQL: the name lock)', async () => {
    const name = 'Concurrent Region';
    const answers = await Promise.all([
      post({ name, zips: ['10001'] }),
      post({ name: name.toLowerCase(), zips: ['10002'] }),
      post({ name: ` ${name.toUpperCase()} `, zips: ['10003'] }),
    ]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([201, 400, 400]);
  });

  it('renames a region: to its own name or a free one, never to a taken one', async () => {
    const zipsService = t.deps.services.zips;
    const adminViewer = { userId: 'admin', role: 'admin' as const, roleId: null };
    const one: Zipset = (await post({ name: 'Rename One', zips: ['10001'] })).json();
    const two: Zipset = (await post({ name: 'Rename Two', zips: ['10002'] })).json();
    // Its own name, even differently cased, passes.
    expect((await zipsService.rename(adminViewer, one._id, 'Rename One')).name).toBe('Rename One');
    expect((await zipsService.rename(adminViewer, one._id, ' rename ONE ')).name).toBe('rename ONE');
    // Another region's name is refused on the name field.
    const taken = await zipsService.rename(adminViewer, one._id, 'RENAME two').catch((e: unknown) => e);
    expect(taken).toMatchObject({ code: 'bad_request', errors: { name: ZIPSET_NAME_TAKEN } });
    expect((await get(`/api/zipset/${two._id}`)).json().name).toBe('Rename Two');
    // A free name passes, and frees the old one.
    expect((await zipsService.rename(adminViewer, one._id, 'Rename Three')).name).toBe('Rename Three');
    expect((await post({ name: 'Rename One', zips: ['10003'] })).statusCode).toBe(201);

    // A buyer renames only its own regions; another buyer's is not found.
    const a = await createBuyerWithLogin(t);
    const b = await createBuyerWithLogin(t);
    const asBuyer = (buyerId: string) => ({ userId: 'u', role: 'buyer' as const, roleId: buyerId });
    const mine: Zipset = (await post({ name: 'Buyer Rename', zips: ['11201'] }, a.cookie)).json();
    expect((await zipsService.rename(asBuyer(a.buyer._id), mine._id, 'Buyer Renamed')).name).toBe('Buyer Renamed');
    await expect(zipsService.rename(asBuyer(b.buyer._id), mine._id, 'Stolen')).rejects.toMatchObject({
      code: 'not_found',
    });
    await expect(zipsService.rename(asBuyer(a.buyer._id), two._id, 'Mine now')).rejects.toMatchObject({
      code: 'forbidden',
    });
  });

  it('moves the engine version and reloads the engine at once', async () => {
    const version = await readEngineVersion(t.database.db);
    const snapshot = t.deps.engine.snapshot();
    await post({ name: 'Engine region', zips: ['10001'] });
    expect(await readEngineVersion(t.database.db)).not.toBe(version);
    expect(t.deps.engine.snapshot()).not.toBe(snapshot);
  });
});

describe('OpenAPI', () => {
  it('documents the ZIP and region routes', async () => {
    const res = await get('/api/openapi.json');
    expect(res.statusCode).toBe(200);
    const paths = Object.keys(res.json().paths);
    expect(paths).toEqual(expect.arrayContaining(['/api/zip/suggestions', '/api/zip/search', '/api/zipset']));
  });
});
