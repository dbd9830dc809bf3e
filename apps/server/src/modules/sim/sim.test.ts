import { beforeAll, describe, expect, it } from 'vitest';
import { createBuyer, createCampaign, createSourceWithKey } from '../../../test/factories';
import { useAdminTestApp } from '../../../test/harness';

let sourceId: string;
const { t, admin } = useAdminTestApp({ PUBLIC_API_RATE_LIMIT: 0 });
beforeAll(async () => {
  const buyer = await createBuyer(t);
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
