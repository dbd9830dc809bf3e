import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { createSourceWithKey } from '../../../test/factories';
import { useFixture } from '../../../test/fixtures';
import { useRoleCookies, useTestApp } from '../../../test/harness';
import { connectIntegration, useOAuthServer } from '../../../test/oauth-server';
import { listenLocally } from '../../../test/receivers';
import { adSpend, sources } from '../../db/schema';

interface ProviderRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * A local server answering as the Facebook Graph API and the Google Ads API do (their documented
 * shapes: `data` and `paging.next`; `resourceNames`, `results` and `nextPageToken`). `answers` maps
 * "METHOD path" (path without the query) to a function of the request; anything else is a 404.
 */
async function startAdsApi() {
  const requests: ProviderRequest[] = [];
  const answers = new Map<string, (r: ProviderRequest, url: URL) => { status?: number; body: unknown }>();
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => {
      body += c.toString();
    });
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const request = { method: req.method ?? 'GET', path: `${url.pathname}${url.search}`, headers: req.headers, body };
      requests.push(request);
      const answer = answers.get(`${request.method} ${url.pathname}`)?.(request, url) ?? {
        status: 404,
        body: { error: { message: 'Unknown path' } },
      };
      res.writeHead(answer.status ?? 200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer.body));
    });
  });
  const { url, close } = await listenLocally(server);
  return { base: url(), requests, answers, close };
}

/**
 * Issue 14: ad spend is the cost of internal sources. An admin enters a day's spend or uploads a CSV
 * (no integration needed); connected ad integrations import yesterday's and today's spend hourly. The
 * dashboard's cost and the reports count it by New York day.
 */
const oauth = useOAuthServer();
const api = useFixture(startAdsApi, (a) => a.close());
const t = useTestApp(() => ({
  ...oauth.config(),
  FACEBOOK_API_URL: api.base,
  GOOGLE_API_URL: `${api.base}/google/`,
  GOOGLE_ADS_DEVELOPER_TOKEN: 'dev-token-1',
}));
const cookies = useRoleCookies(t);
let internal = { id: '', name: '' };
let paid = '';

const put = (payload: Record<string, unknown>) =>
  t.request({ method: 'PUT', url: '/api/ad-spend', payload, as: cookies.admin });
const upload = (csv: string) =>
  t.request({
    method: 'POST',
    url: '/api/ad-spend/csv',
    payload: csv,
    headers: { 'content-type': 'text/csv' },
    as: cookies.admin,
  });
const spendRows = async () =>
  (await t.database.db.select().from(adSpend))
    .map((r) => `${r.day} ${r.sourceId === internal.id ? 'internal' : r.sourceId} ${r.origin} ${r.amountCents}`)
    .sort();

beforeAll(async () => {
  t.clock.set('2026-10-20T16:00:00Z');
  const source = await createSourceWithKey(t, { maxCost: null });
  const [row] = await t.database.db.select().from(sources).where(eq(sources.id, source.sourceId));
  internal = { id: source.sourceId, name: String(row?.name) };
  paid = (await createSourceWithKey(t, { maxCost: 5 })).sourceId;
});

describe('ad spend entered by hand', () => {
  it('lists only internal sources to enter it for', async () => {
    const res = await t.request({ method: 'GET', url: '/api/ad-spend/sources', as: cookies.admin });
    const listed = res.json().data as { _id: string; name: string }[];
    expect(listed).toContainEqual({ _id: internal.id, name: internal.name });
    expect(listed.map((s) => s._id)).not.toContain(paid);
  });

  it("records a day's spend and replaces it when entered again", async () => {
    const first = await put({ sourceId: internal.id, day: '2026-10-05', amount: 120.5 });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({
      day: '2026-10-05',
      sourceId: internal.id,
      sourceName: internal.name,
      origin: 'manual',
      amount: 120.5,
    });
    expect((await put({ sourceId: internal.id, day: '2026-10-05', amount: '99.99' })).json().amount).toBe(99.99);
    expect(await spendRows()).toEqual(['2026-10-05 internal manual 9999']);
  });

  it('refuses bad input naming the field, and writes nothing', async () => {
    const paidSource = await put({ sourceId: paid, day: '2026-10-06', amount: 10 });
    expect(paidSource.statusCode).toBe(400);
    expect(paidSource.json().errors.sourceId).toContain('is not an internal source');
    const negative = await put({ sourceId: internal.id, day: '2026-10-06', amount: -1 });
    expect(negative.json().errors).toEqual({ amount: 'Amount must be at least 0' });
    const badDay = await put({ sourceId: internal.id, day: '2026-10-32', amount: 1 });
    expect(badDay.json().errors).toEqual({ day: 'Date must be a real date' });
    expect(await spendRows()).toEqual(['2026-10-05 internal manual 9999']);
    expect(
      (
        await t.request({
          method: 'PUT',
          url: '/api/ad-spend',
          payload: { sourceId: internal.id, day: '2026-10-06', amount: 1 },
          as: cookies.buyer,
        })
      ).statusCode,
    ).toBe(403);
  });

  it('takes a CSV of date, source (name or id) and amount, the last line of a day winning', async () => {
    const res = await upload(
      `Date,Source,Amount\n2026-10-07,${internal.name},10.00\n2026-10-08,${internal.id},20\n2026-10-07,${internal.name.toUpperCase()},12.5\n`,
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ imported: 2 });
    expect(await spendRows()).toEqual([
      '2026-10-05 internal manual 9999',
      '2026-10-07 internal manual 1250',
      '2026-10-08 internal manual 2000',
    ]);
  });

  it('refuses a CSV with a bad line as a whole, naming the line', async () => {
    const before = await spendRows();
    const bad = await upload(`date,source,amount\n2026-10-09,${internal.name},5\n2026-10-10,${internal.name},five\n`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Line 3: Amount must be a number');
    const wrongHeader = await upload('day,who,cost\n2026-10-09,x,5\n');
    expect(wrongHeader.json().message).toBe(
      'The header must name the columns date, source and amount (missing: date, source, amount).',
    );
    const paidLine = await upload(`date,source,amount\n2026-10-09,${paid},5\n`);
    expect(paidLine.json().message).toMatch(/^Line 2: .* is not an internal source/);
    expect(await spendRows()).toEqual(before);
  });
});

describe('ad spend imported from the ad integrations', () => {
  beforeAll(async () => {
    // Facebook: two ad accounts, the first's insights over two pages.
    api.answers.set('GET /v21.0/me/adaccounts', () => ({
      body: {
        data: [
          { id: 'act_1', account_id: '1' },
          { id: 'act_2', account_id: '2' },
        ],
        paging: {},
      },
    }));
    api.answers.set('GET /v21.0/act_1/insights', (_r, url) =>
      url.searchParams.get('after') === 'p2'
        ? { body: { data: [{ spend: '40.10', date_start: '2026-10-20', date_stop: '2026-10-20' }] } }
        : {
            body: {
              data: [{ spend: '100.25', date_start: '2026-10-19', date_stop: '2026-10-19' }],
              paging: { next: `${api.base}/v21.0/act_1/insights?after=p2` },
            },
          },
    );
    api.answers.set('GET /v21.0/act_2/insights', () => ({
      body: { data: [{ spend: '0.75', date_start: '2026-10-19', date_stop: '2026-10-19' }] },
    }));
    // Google Ads: one customer, cost in micros over two pages.
    api.answers.set('GET /google/v18/customers:listAccessibleCustomers', () => ({
      body: { resourceNames: ['customers/5551234567'] },
    }));
    api.answers.set('POST /google/v18/customers/5551234567/googleAds:search', (r) =>
      JSON.parse(r.body).pageToken === 'next-1'
        ? { body: { results: [{ segments: { date: '2026-10-20' }, metrics: { costMicros: '2500000' } }] } }
        : {
            body: {
              results: [{ segments: { date: '2026-10-19' }, metrics: { costMicros: '33333333' } }],
              nextPageToken: 'next-1',
            },
          },
    );
  });

  it('imports nothing and says why until a source is chosen', async () => {
    await connectIntegration(t, cookies.admin, 'facebook-ads');
    expect(await t.deps.services.adSpend.importFrom('facebook-ads')).toEqual({
      imported: 0,
      error: 'Choose the internal source its spend is the cost of.',
    });
    const listed = (
      await t.request({ method: 'GET', url: '/api/setting/allForCat/integration', as: cookies.admin })
    ).json();
    expect(listed.find((i: { name: string }) => i.name === 'facebook-ads')).toMatchObject({
      lastImportError: 'Choose the internal source its spend is the cost of.',
      lastImportAt: Math.floor(t.clock.now().getTime() / 1000),
    });
    // Only an internal source may be chosen; the mail integration has none.
    const refused = await t.request({
      method: 'PUT',
      url: '/api/setting/integration/facebook-ads',
      payload: { sourceId: paid },
      as: cookies.admin,
    });
    expect(refused.statusCode).toBe(400);
    const gmail = await t.request({
      method: 'PUT',
      url: '/api/setting/integration/gmail',
      payload: { sourceId: internal.id },
      as: cookies.admin,
    });
    expect(gmail.json().errors.sourceId).toBe('Gmail imports no ad spend.');
  });

  it("imports yesterday's and today's spend (New York days) of every account, following the pages", async () => {
    await connectIntegration(t, cookies.admin, 'google-ads');
    for (const name of ['facebook-ads', 'google-ads']) {
      const res = await t.request({
        method: 'PUT',
        url: `/api/setting/integration/${name}`,
        payload: { sourceId: internal.id },
        as: cookies.admin,
      });
      expect(res.json().sourceId).toBe(internal.id);
    }
    api.requests.length = 0;
    expect(await t.deps.services.adSpend.importAll()).toEqual({
      'facebook-ads': { imported: 2, error: null },
      'google-ads': { imported: 2, error: null },
    });
    const rows = (await spendRows()).filter((r) => !r.includes('manual'));
    expect(rows).toEqual([
      '2026-10-19 internal facebook-ads 10100',
      '2026-10-19 internal google-ads 3333',
      '2026-10-20 internal facebook-ads 4010',
      '2026-10-20 internal google-ads 250',
    ]);
    // Asked with the stored tokens, the developer token and the New York days.
    const fbToken = (await t.deps.services.integrations.accessToken('facebook-ads'))?.token;
    const insights = api.requests.find((r) => r.path.startsWith('/v21.0/act_1/insights?'));
    expect(insights?.headers.authorization).toBe(`Bearer ${fbToken}`);
    expect(new URL(insights?.path ?? '', 'http://x').searchParams.get('time_range')).toBe(
      '{"since":"2026-10-19","until":"2026-10-20"}',
    );
    const search = api.requests.find((r) => r.path.endsWith('googleAds:search'));
    expect(search?.headers['developer-token']).toBe('dev-token-1');
    expect(JSON.parse(search?.body ?? '{}').query).toContain("segments.date BETWEEN '2026-10-19' AND '2026-10-20'");
  });

  it('a later import replaces the day it imported before, never a manual entry', async () => {
    await put({ sourceId: internal.id, day: '2026-10-20', amount: 1 });
    api.answers.set('GET /v21.0/act_2/insights', () => ({
      body: { data: [{ spend: '5.00', date_start: '2026-10-20', date_stop: '2026-10-20' }] },
    }));
    await t.deps.services.adSpend.importFrom('facebook-ads');
    const day = (await spendRows()).filter((r) => r.startsWith('2026-10-20'));
    expect(day).toEqual([
      '2026-10-20 internal facebook-ads 4510',
      '2026-10-20 internal google-ads 250',
      '2026-10-20 internal manual 100',
    ]);
  });

  it("records the provider's refusal and keeps what was imported", async () => {
    const before = await spendRows();
    api.answers.set('GET /v21.0/me/adaccounts', () => ({
      status: 401,
      body: { error: { message: 'Invalid OAuth access token.', code: 190 } },
    }));
    expect(await t.deps.services.adSpend.importFrom('facebook-ads')).toEqual({
      imported: 0,
      error: 'Facebook answered 401: Invalid OAuth access token.',
    });
    expect(await spendRows()).toEqual(before);
  });

  it('counts the spend in the dashboard cost, the daily chart and the source report, by New York day', async () => {
    // October: manual 99.99 (5th) + 12.50 (7th) + 20 (8th) + 1 (20th) + 0.01 (31st); imported, as the last
    // import left them: Facebook 100.25 + Google 33.33 (19th), Facebook 45.10 + Google 2.50 (20th).
    await put({ sourceId: internal.id, day: '2026-09-30', amount: 1000 }); // September: not this month
    await put({ sourceId: internal.id, day: '2026-10-31', amount: 0.01 }); // the month's last day
    const stats = (await t.request({ method: 'GET', url: '/api/stats/', as: cookies.admin })).json();
    expect(stats.leadCost).toBe(314.68);
    const daily = (await t.request({ method: 'GET', url: '/api/stats/daily', as: cookies.admin })).json();
    const cost = Object.fromEntries(daily.map((d: { day: string; cost: number }) => [d.day, d.cost]));
    expect(cost['2026-10-19']).toBe(133.58);
    expect(cost['2026-10-20']).toBe(48.6);
    expect(cost['2026-10-01']).toBe(0);
    const report = (
      await t.request({
        method: 'GET',
        url: '/api/stats/sources?dateq=range&begin=2026-10-19&end=2026-10-19',
        as: cookies.admin,
      })
    ).json();
    expect(report).toEqual([expect.objectContaining({ _id: internal.id, cost: 133.58, revenue: 0, profit: -133.58 })]);
  });
});
