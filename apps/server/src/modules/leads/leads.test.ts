import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  createBuyerWithLogin,
  createCampaign,
  createSourceWithKey,
  createSourceWithLogin,
  uniquePhone,
} from '../../../test/factories';
import { expectScoped404, useAdminTestApp } from '../../../test/harness';

let leadId: string;
let mine: Awaited<ReturnType<typeof createBuyerWithLogin>>;
let other: Awaited<ReturnType<typeof createBuyerWithLogin>>;
const { t, admin } = useAdminTestApp({ PUBLIC_API_RATE_LIMIT: 0 });
beforeAll(async () => {
  mine = await createBuyerWithLogin(t);
  other = await createBuyerWithLogin(t);
  await createCampaign(t, mine.buyer._id, { price: 42, services: ['roofing'], states: ['TX'] });
  await createCampaign(t, other.buyer._id, { price: 10, services: ['roofing'], states: ['OK'] });
  const { apiKey } = await createSourceWithKey(t, { maxCost: 11 });
  const sale = await t.sourceApi('/api/lead', apiKey, {
    service: 'roofing',
    zip: '75201',
    name: 'Robin Shaw',
    phone: uniquePhone(),
    tcpa_consent: 'true',
  });
  leadId = sale.json().lead_id;
});

const get = (as: string, id = leadId) => t.request({ method: 'GET', url: `/api/lead/${id}?includeMatchLog=true`, as });

describe('GET /api/lead/{id}', () => {
  it('shows admins everything, with the engine’s explanation', async () => {
    const res = await get(admin.cookie);
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
    expect((await get(admin.cookie, 'lead_missing')).statusCode).toBe(404);
  });
});

describe('PUT /api/lead/{id} (admin)', () => {
  const put = (payload: Record<string, unknown>, as = admin.cookie, id = leadId) =>
    t.request({ method: 'PUT', url: `/api/lead/${id}`, as, payload });

  it('saves the changed fields only and answers the lead', async () => {
    const before = (await get(admin.cookie)).json();
    const res = await put({ name: 'Robin Q. Shaw', zip: '75202', phone: '(512) 555-2199', tags: ['vip'] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ name: 'Robin Q. Shaw', zip: '75202', phone: '5125552199', tags: ['vip'] });
    const after = (await get(admin.cookie)).json();
    expect(after).toMatchObject({ name: 'Robin Q. Shaw', zip: '75202', phone: '5125552199' });
    expect(after.email).toBe(before.email);
    expect(after.tcpa_consent).toBe(before.tcpa_consent);
    const tags = await t.request({ method: 'GET', url: '/api/tag/lead', as: admin.cookie });
    expect(tags.json()).toContain('vip');
  });

  it('marks the quality Good or Bad, keeping what else the quality holds', async () => {
    await t.database.db.execute(sql`update leads set quality = '{"score": 7}'::jsonb where id = ${leadId}`);
    const bad = await put({ quality: { ok: false } });
    expect(bad.json().quality).toEqual({ score: 7, ok: false });
    const good = await put({ quality: { ok: true } });
    expect(good.json().quality).toEqual({ score: 7, ok: true });
  });

  it('refuses what a post would refuse, naming the field, and writes nothing', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ name: 'Changed', zip: '7520' }, 'zip', 'Zip must be 5 digits'],
      [{ phone: '555-2199' }, 'phone', 'Phone must be a 10-digit US phone number'],
      [{ email: 'not-an-email' }, 'email', 'Email must be a valid email address'],
      [{ state: 'XX' }, 'state', 'State must be a US state'],
      [{ name: '' }, 'name', 'Name is required'],
      [{ name: 'x'.repeat(201) }, 'name', 'Name must be at most 200 characters'],
      [{ tcpa_consent: 'maybe' }, 'tcpa_consent', expect.stringContaining('TCPA consent') as unknown as string],
    ];
    for (const [payload, field, message] of cases) {
      const res = await put(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().errors?.[field], JSON.stringify(payload)).toEqual(message);
    }
    expect((await get(admin.cookie)).json().name).toBe('Robin Q. Shaw');
  });

  it('keeps a phone or an email on the lead', async () => {
    const lead = (await get(admin.cookie)).json();
    if (lead.email) expect((await put({ email: null })).statusCode).toBe(200);
    const res = await put({ phone: '' });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({ phone: 'A phone or an email is required' });
    expect((await get(admin.cookie)).json().phone).toBe('5125552199');
  });

  it('refuses a field that is not a lead’s, and answers 404 for an unknown lead', async () => {
    const res = await put({ price: 1 });
    expect(res.statusCode).toBe(400);
    expect((await put({ name: 'X' }, admin.cookie, 'lead_missing')).statusCode).toBe(404);
  });

  it('is for admins only: buyers and sources are refused', async () => {
    expect((await put({ name: 'Mine now' }, mine.cookie)).statusCode).toBe(403);
    const source = await createSourceWithLogin(t);
    expect((await put({ name: 'Mine now' }, source.cookie)).statusCode).toBe(403);
    expect((await get(admin.cookie)).json().name).toBe('Robin Q. Shaw');
  });
});
