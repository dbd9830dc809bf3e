import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { createBuyer, createCampaign, createSourceWithKey, leadInput } from '../../../test/factories';
import { useAdminTestApp } from '../../../test/harness';
import { settings } from '../../db/schema';
import { OffsetClock } from '../../lib/clock';
import { createMockDate, MOCK_DATE_KEY } from './mock-date';

let sourceId: string;
let buyerName: string;
const { t, admin } = useAdminTestApp({ PUBLIC_API_RATE_LIMIT: 0 });
beforeAll(async () => {
  const buyer = await createBuyer(t);
  buyerName = buyer.name;
  await createCampaign(t, buyer._id, { price: 35, services: ['roofing'], states: ['TX'] });
  await createCampaign(t, buyer._id, { price: 35, services: ['roofing'], states: ['CA'] });
  sourceId = (await createSourceWithKey(t, { maxCost: 12 })).sourceId;
});

const sim = (url: string, payload: object) => t.request({ method: 'POST', url, as: admin.cookie, payload });

describe('simulator', () => {
  it('runs a ping-post through the engine and explains every campaign', async () => {
    const res = await sim('/api/sim/pingpost', { Project: 'roofing', Source: sourceId, Zip: '75201' });
    expect(res.statusCode).toBe(200);
    expect(res.json().ping).toMatchObject({ ok: true, price: 12 });
    expect(res.json().post).toMatchObject({ ok: true, status: 'sold' });
    expect(
      res
        .json()
        .explanation.map((e: { eligible: boolean; rule?: string }) => e.rule ?? 'eligible')
        .sort(),
    ).toEqual(['eligible', 'location']);
  });

  it('explains a ping that found no buyer', async () => {
    const res = await sim('/api/sim/pingpost', {
      Project: 'roofing',
      Source: sourceId,
      Zip: '10001',
      minprice: '1.50',
    });
    expect(res.json().ping).toEqual({ ok: false, reason: 'no_match' });
  });

  it('explains a ping answered no_match for its minimum price with nobody winning, and names the buyers (issue 27)', async () => {
    const res = await sim('/api/sim/pingpost', { Project: 'roofing', Source: sourceId, Zip: '75201', minprice: '20' });
    expect(res.json().ping).toEqual({ ok: false, reason: 'no_match' });
    const explanation = res.json().explanation as { eligible: boolean; won?: boolean; buyer_name?: string }[];
    expect(explanation.some((e) => e.eligible)).toBe(true);
    expect(explanation.filter((e) => e.won)).toEqual([]);
    expect(explanation.every((e) => e.buyer_name === buyerName)).toBe(true);
    expect(res.json().outcome).toBe(
      "The ping was answered no_match: the source's payout ($12.00) is below its minimum price ($20.00), so no campaign won.",
    );
  });

  it('refuses a direct lead for a source that may not post directly, as /api/lead does (issue 27)', async () => {
    const pingOnly = await createSourceWithKey(t, { maxCost: 12, canPostLead: false });
    const res = await sim('/api/sim/lead', { Project: 'roofing', Source: pingOnly.sourceId, Zip: '75201' });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('This source is not approved to post leads directly; use ping and post');
    const api = await t.sourceApi('/api/lead', pingOnly.apiKey, leadInput());
    expect(api.statusCode).toBe(403);
    expect(api.json().message).toBe(res.json().message);
    // Its ping-post still runs in the simulator.
    const pingPost = await sim('/api/sim/pingpost', { Project: 'roofing', Source: pingOnly.sourceId, Zip: '75201' });
    expect(pingPost.json().post).toMatchObject({ ok: true, status: 'sold' });
  });

  it('posts a direct lead', async () => {
    const res = await sim('/api/sim/lead', { Project: 'roofing', Source: sourceId, Zip: '75201' });
    expect(res.json().lead).toMatchObject({ ok: true, status: 'sold' });
    expect(res.json().explanation).toHaveLength(2);
  });

  it("answers the simulator forms' messages", async () => {
    expect((await sim('/api/sim/lead', { Project: 'roofing', Source: sourceId, Zip: '123' })).json().errors).toEqual({
      Zip: 'Enter a valid zip.',
    });
    expect(
      (await sim('/api/sim/pingpost', { Project: 'roofing', Source: sourceId, Zip: '75201', minprice: '1.555' })).json()
        .errors,
    ).toEqual({
      minprice: 'Enter a valid min. price.',
    });
    const noKey = await sim('/api/sim/lead', { Project: 'roofing', Source: 'src_missing', Zip: '75201' });
    expect(noKey.statusCode).toBe(404);
  });

  it('reports the environment', async () => {
    const res = await t.request({ method: 'GET', url: '/api/env', as: admin.cookie });
    expect(res.json()).toMatchObject({ ok: true, node_env: 'test', db: expect.any(String), date: expect.any(Number) });
  });
});

describe('the mock date (POST /api/sim/mockDate)', () => {
  const env = async () => (await t.request({ method: 'GET', url: '/api/env', as: admin.cookie })).json().date as number;
  const stored = async () =>
    (await t.database.db.select().from(settings).where(eq(settings.key, MOCK_DATE_KEY)))[0]?.value as
      | number
      | undefined;

  it('moves the clock to a date, shares it through the settings, and resets to the real time', async () => {
    const res = await sim('/api/sim/mockDate', { date: '2027-02-01T15:00:00Z' });
    expect(res.statusCode).toBe(200);
    const target = Date.parse('2027-02-01T15:00:00Z') / 1000;
    expect(Math.abs(res.json().date - target)).toBeLessThanOrEqual(2);
    expect(Math.abs((await env()) - target)).toBeLessThanOrEqual(2);
    // The offset from the real time is what another process reads.
    const offset = await stored();
    expect(Math.abs((offset ?? 0) - (target * 1000 - Date.now()))).toBeLessThan(5000);

    // Epoch seconds work too, and the billing run follows the moved clock.
    const seconds = Date.parse('2027-03-01T16:00:00Z') / 1000;
    expect((await sim('/api/sim/mockDate', { date: seconds })).json().date).toBeGreaterThanOrEqual(seconds - 2);

    const reset = await sim('/api/sim/mockDate', { reset: true });
    expect(reset.statusCode).toBe(200);
    expect(Math.abs(reset.json().date - Date.now() / 1000)).toBeLessThanOrEqual(2);
    expect(await stored()).toBeUndefined();
  });

  it("another process's clock takes the stored date when it refreshes", async () => {
    await sim('/api/sim/mockDate', { date: '2027-06-15T12:00:00Z' });
    const elsewhere = new OffsetClock();
    await createMockDate({ db: t.database.db, clock: elsewhere }).refresh();
    expect(Math.abs(elsewhere.now().getTime() - Date.parse('2027-06-15T12:00:00Z'))).toBeLessThan(5000);
    await sim('/api/sim/mockDate', { reset: true });
    await createMockDate({ db: t.database.db, clock: elsewhere }).refresh();
    expect(Math.abs(elsewhere.now().getTime() - Date.now())).toBeLessThan(1000);
  });

  it.each([
    [{}, 'Send a date or reset: true'],
    [{ date: 'not a date' }, 'Send a date or reset: true'],
    [{ reset: false }, 'Send a date or reset: true'],
    [{ date: '9999-12-31' }, 'Date must be between 2000-01-01 and 2100-12-31'],
  ])('refuses %j', async (payload, message) => {
    const res = await sim('/api/sim/mockDate', payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(message);
  });

  it('is for admins only', async () => {
    const res = await t.request({ method: 'POST', url: '/api/sim/mockDate', payload: { reset: true } });
    expect(res.statusCode).toBe(401);
  });
});
