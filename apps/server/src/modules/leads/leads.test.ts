import { beforeAll, describe, expect, it } from 'vitest';
import {
  createBuyerWithLogin,
  createCampaign,
  createSourceWithKey,
  createSourceWithLogin,
  uniquePhone,
} from '../../../test/factories';
import { ADMIN, expectScoped404, useTestApp } from '../../../test/harness';

let admin: string;
let leadId: string;
let mine: Awaited<ReturnType<typeof createBuyerWithLogin>>;
let other: Awaited<ReturnType<typeof createBuyerWithLogin>>;
const t = useTestApp({ PUBLIC_API_RATE_LIMIT: 0 });
beforeAll(async () => {
  admin = await t.signIn(ADMIN.email, ADMIN.password);
  mine = await createBuyerWithLogin(t);
  other = await createBuyerWithLogin(t);
  await createCampaign(t, mine.buyer._id, { price: 42, services: ['roofing'], states: ['TX'] });
  await createCampaign(t, other.buyer._id, { price: 10, services: ['roofing'], states: ['OK'] });
  const { apiKey } = await createSourceWithKey(t, { maxCost: 11 });
  const sale = await t.request({
    method: 'POST',
    url: '/api/lead',
    headers: { authorization: `Bearer ${apiKey}` },
    payload: { service: 'roofing', zip: '75201', name: 'Robin Shaw', phone: uniquePhone(), tcpa_consent: 'true' },
  });
  leadId = sale.json().lead_id;
});

const get = (as: string, id = leadId) => t.request({ method: 'GET', url: `/api/lead/${id}?includeMatchLog=true`, as });

describe('GET /api/lead/{id}', () => {
  it('shows admins everything, with the engine’s explanation', async () => {
    const res = await get(admin);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      _id: leadId,
      name: 'Robin Shaw',
      service: 'roofing',
      tcpa_consent: true,
      cost: 11,
      price: 42,
      buyers: [mine.buyer.name],
      match: [{ buyer: { _id: mine.buyer._id, name: mine.buyer.name }, price: 42, kind: 'exclusive' }],
    });
    expect(res.json().explanation).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ buyer: mine.buyer._id, eligible: true, won: true }),
        expect.objectContaining({ buyer: other.buyer._id, eligible: false, rule: 'location' }),
      ]),
    );
  });

  it('shows the buying buyer its own match, without the cost or the explanation', async () => {
    const res = await get(mine.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ _id: leadId, price: 42 });
    expect(res.json().cost).toBeUndefined();
    expect(res.json().explanation).toBeUndefined();
    expect(res.json().match[0].buyer.name).toBeUndefined();
  });

  it('answers 404 to a buyer that did not buy it and to another source', async () => {
    const url = `/api/lead/${leadId}?includeMatchLog=true`;
    await expectScoped404(t, other.cookie, 'Lead', [{ method: 'GET', url }]);
    const stranger = await createSourceWithLogin(t);
    await expectScoped404(t, stranger.cookie, 'Lead', [{ method: 'GET', url }]);
    expect((await get(admin, 'lead_missing')).statusCode).toBe(404);
  });
});
