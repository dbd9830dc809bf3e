import { PAUSE_ALL_REASON } from '@leadex/domain';
import { and, eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  buyerInput,
  createBuyer,
  createBuyerWithLogin,
  createCampaign,
  createSourceWithKey,
  leadInput,
  postSoldLead,
} from '../../../test/factories';
import { expectScoped404, useAdminTestApp, useRoleCookies } from '../../../test/harness';
import { campaignStatusEvents, campaigns, leadMatches, leads, outbox, user } from '../../db/schema';
import { newId } from '../../lib/ids';

const { t, admin } = useAdminTestApp({ PUBLIC_API_RATE_LIMIT: 0 });
const roles = useRoleCookies(t);

const get = (url: string, as = admin.cookie) => t.request({ method: 'GET', url, as });
const put = (url: string, payload?: object, as = admin.cookie) => t.request({ method: 'PUT', url, as, payload });
/** Adds a user to the buyer (Buyer User Details), as the admin. */
const addUser = (buyerId: string, payload: object) =>
  t.request({ method: 'POST', url: `/api/buyer/${buyerId}/user`, as: admin.cookie, payload });
const pause = (buyerId: string, as = admin.cookie, payload: object = { reason: PAUSE_ALL_REASON }) =>
  put(`/api/buyer/${buyerId}/pause`, payload, as);

/** Sells a lead through the public API (`/api/lead`, ping and post in one call). */
async function sellLead(apiKey: string, service: string, zip: string, name = 'Pat Lee') {
  const res = await t.sourceApi('/api/lead', apiKey, leadInput({ service, zip, name }));
  return res.json() as { ok: boolean; lead_id?: string; reason?: string };
}

/** A lead and one match of it written directly, at a chosen time (for ordering and limits). */
async function insertSale(
  o: { buyerId: string; campaignId: string; sourceId: string; at: Date; cents: number },
  extra: { rejected?: boolean; name?: string } = {},
) {
  const leadId = newId('lead');
  await t.database.db.insert(leads).values({
    id: leadId,
    sourceId: o.sourceId,
    service: 'roofing',
    zip: '75201',
    state: 'TX',
    name: extra.name ?? 'Direct Sale',
    priceCents: o.cents,
    createdAt: o.at,
  });
  await t.database.db.insert(leadMatches).values({
    id: newId('mat'),
    leadId,
    campaignId: o.campaignId,
    buyerId: o.buyerId,
    kind: 'exclusive',
    priceCents: o.cents,
    rejected: extra.rejected ?? false,
    createdAt: o.at,
  });
  return leadId;
}

describe('GET /api/buyer/{id}?include=matches,leads,users', () => {
  it("answers the buyer's campaigns with their location, price, exclusivity and status", async () => {
    const buyer = await createBuyer(t);
    const byState = await createCampaign(t, buyer._id, { price: 45.5, states: ['TX', 'OK'], services: ['roofing'] });
    const byZip = await createCampaign(t, buyer._id, {
      price: 30,
      shared: 12.25,
      location: 'zip',
      states: [],
      zips: ['75201', '75202'],
      services: ['gutters', 'roofing'],
      status: 'draft',
    });
    const other = await createBuyer(t);
    await createCampaign(t, other._id);

    const res = await get(`/api/buyer/${buyer._id}?include=matches,leads,users`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.users).toHaveLength(1);
    expect(body.leads).toEqual([]);
    expect(body.matches).toHaveLength(2);
    const byId = Object.fromEntries(body.matches.map((m: { _id: string }) => [m._id, m]));
    expect(byId[byState]).toEqual({
      _id: byState,
      name: expect.any(String),
      fixed_id: expect.any(String),
      services: ['roofing'],
      location: 'state',
      state: ['TX', 'OK'],
      zips: [],
      price: 45.5,
      exclusive: 1,
      status: { live: true, draft: false, pause: false },
      delivery_failure: null,
    });
    expect(byId[byZip]).toMatchObject({
      location: 'zip',
      zips: ['75201', '75202'],
      price: 30,
      exclusive: 0,
      shared_price: 12.25,
      status: { live: false, draft: true, pause: false },
    });
    // Without include, none of them.
    const plain = (await get(`/api/buyer/${buyer._id}`)).json();
    expect(plain.matches).toBeUndefined();
    expect(plain.leads).toBeUndefined();
    expect(plain.users).toBeUndefined();
  });

  it('answers the latest 50 leads sold to the buyer, newest first, at the price it paid', async () => {
    const buyer = await createBuyer(t);
    const campaignId = await createCampaign(t, buyer._id, { status: 'draft' });
    const { sourceId } = await createSourceWithKey(t);
    const base = new Date('2026-02-01T12:00:00Z').getTime();
    for (let i = 0; i < 52; i++)
      await insertSale({ buyerId: buyer._id, campaignId, sourceId, at: new Date(base + i * 60_000), cents: 1000 + i });
    const rejected = await insertSale(
      { buyerId: buyer._id, campaignId, sourceId, at: new Date(base + 3_600_000), cents: 999 },
      { rejected: true },
    );
    // Another buyer's sale never shows.
    const other = await createBuyer(t);
    const otherCampaign = await createCampaign(t, other._id, { status: 'draft' });
    await insertSale({
      buyerId: other._id,
      campaignId: otherCampaign,
      sourceId,
      at: new Date(base + 7_200_000),
      cents: 5,
    });

    const body = (await get(`/api/buyer/${buyer._id}?include=leads`)).json();
    expect(body.leads).toHaveLength(50);
    expect(body.leads[0]).toEqual({
      _id: expect.stringMatching(/^lead_/),
      ts: Math.floor((base + 51 * 60_000) / 1000),
      name: 'Direct Sale',
      service: 'roofing',
      zip: '75201',
      price: 10.51,
    });
    expect(body.leads.at(-1).price).toBe(10.02);
    expect(body.leads.map((l: { _id: string }) => l._id)).not.toContain(rejected);
  });

  it('lists a lead sold through the public API', async () => {
    const buyer = await createBuyer(t);
    await createCampaign(t, buyer._id, { price: 41, services: ['siding'], states: ['TX'] });
    const { apiKey } = await createSourceWithKey(t);
    const sold = await sellLead(apiKey, 'siding', '75201', 'Robin Diaz');
    expect(sold.ok).toBe(true);
    const body = (await get(`/api/buyer/${buyer._id}?include=leads`)).json();
    expect(body.leads).toEqual([expect.objectContaining({ _id: sold.lead_id, name: 'Robin Diaz', price: 41 })]);
  });

  it('accepts the includes repeated or comma-separated', async () => {
    const buyer = await createBuyer(t);
    const body = (await get(`/api/buyer/${buyer._id}?include=users&include=matches`)).json();
    expect(body.users).toHaveLength(1);
    expect(body.matches).toEqual([]);
    expect(body.leads).toBeUndefined();
  });
});

describe('PUT /api/buyer/{id}/pause', () => {
  it('pauses only the live campaigns, writes their history, and the engine stops selling to them at once', async () => {
    const buyer = await createBuyer(t);
    const liveA = await createCampaign(t, buyer._id, { services: ['pest_control'], states: ['TX'], price: 50 });
    const liveB = await createCampaign(t, buyer._id, { services: ['pest_control'], states: ['OK'], price: 50 });
    const draft = await createCampaign(t, buyer._id, { services: ['pest_control'], status: 'draft' });
    const paused = await createCampaign(t, buyer._id, { services: ['pest_control'], status: 'pause' });
    const other = await createBuyer(t);
    const otherLive = await createCampaign(t, other._id, { services: ['pest_control'], states: ['TX'], price: 20 });
    const { apiKey } = await createSourceWithKey(t);

    // Before: the buyer's campaign wins the TX lead (it bids more).
    const before = await postSoldLead(t, apiKey, { service: 'pest_control', zip: '75201' });
    expect(before.match.buyerId).toBe(buyer._id);

    const res = await pause(buyer._id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ paused: 2 });

    const statuses = await t.database.db
      .select({ id: campaigns.id, status: campaigns.status })
      .from(campaigns)
      .where(inArray(campaigns.id, [liveA, liveB, draft, paused, otherLive]));
    expect(Object.fromEntries(statuses.map((s) => [s.id, s.status]))).toEqual({
      [liveA]: 'pause',
      [liveB]: 'pause',
      [draft]: 'draft',
      [paused]: 'pause',
      [otherLive]: 'live',
    });

    const events = await t.database.db
      .select()
      .from(campaignStatusEvents)
      .where(inArray(campaignStatusEvents.campaignId, [liveA, liveB, draft, paused]));
    expect(events).toHaveLength(2);
    expect(events).toEqual(
      expect.arrayContaining(
        [liveA, liveB].map((campaignId) =>
          expect.objectContaining({
            campaignId,
            status: 'pause',
            reason: 'Admin paused all campaigns',
            actor: admin.id,
            at: t.clock.now(),
          }),
        ),
      ),
    );

    // After: the next TX lead goes to the other buyer; an OK lead finds no one.
    const after = await postSoldLead(t, apiKey, { service: 'pest_control', zip: '75201' });
    expect(after.match.buyerId).toBe(other._id);
    expect(await sellLead(apiKey, 'pest_control', '73102')).toMatchObject({ ok: false, reason: 'no_match' });

    // The detail shows them paused; a second pause finds nothing live and writes no history.
    const detail = (await get(`/api/buyer/${buyer._id}?include=matches`)).json();
    expect(detail.matches.filter((m: { status: { live: boolean } }) => m.status.live)).toEqual([]);
    expect((await pause(buyer._id)).json()).toEqual({ paused: 0 });
    const again = await t.database.db
      .select()
      .from(campaignStatusEvents)
      .where(inArray(campaignStatusEvents.campaignId, [liveA, liveB]));
    expect(again).toHaveLength(2);
  });

  it("answers 400 naming 'reason' when it is missing, and pauses nothing", async () => {
    const buyer = await createBuyer(t);
    const live = await createCampaign(t, buyer._id);
    for (const payload of [{}, { reason: '   ' }]) {
      const res = await pause(buyer._id, admin.cookie, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        ok: false,
        message: 'Reason is required',
        errors: { reason: 'Reason is required' },
      });
    }
    const [row] = await t.database.db.select().from(campaigns).where(eq(campaigns.id, live));
    expect(row?.status).toBe('live');
  });

  it('answers 404 for an unknown buyer', async () => {
    expect((await pause('buy_missing')).statusCode).toBe(404);
  });

  it('is for admins: a buyer (even for itself) and a source get 403, and nothing is paused', async () => {
    const mine = await createBuyerWithLogin(t);
    const live = await createCampaign(t, mine.buyer._id);
    expect((await pause(mine.buyer._id, mine.cookie)).statusCode).toBe(403);
    expect((await pause(mine.buyer._id, roles.source)).statusCode).toBe(403);
    const guest = await t.request({
      method: 'PUT',
      url: `/api/buyer/${mine.buyer._id}/pause`,
      payload: { reason: PAUSE_ALL_REASON },
    });
    expect(guest.statusCode).toBe(401);
    const [row] = await t.database.db.select().from(campaigns).where(eq(campaigns.id, live));
    expect(row?.status).toBe('live');
  });
});

describe("a buyer user reaches only its own buyer's routes", () => {
  it('answers 404 for another buyer on every buyer route a buyer may call, and 200 for its own', async () => {
    const mine = await createBuyerWithLogin(t);
    const other = await createBuyerWithLogin(t);
    await createCampaign(t, other.buyer._id);
    // A sale, so the buyer has an accruing bill (GET …/current answers 404 before the first sale).
    const { sourceId } = await createSourceWithKey(t);
    const campaignId = await createCampaign(t, mine.buyer._id, { status: 'draft' });
    await insertSale({ buyerId: mine.buyer._id, campaignId, sourceId, at: t.clock.now(), cents: 1000 });
    const routes = (id: string) => [
      `/api/buyer/${id}`,
      `/api/buyer/${id}?include=matches,leads,users`,
      `/api/bill/buyer/${id}`,
      `/api/bill/buyer/${id}/current`,
    ];
    await expectScoped404(
      t,
      mine.cookie,
      'Buyer',
      routes(other.buyer._id).map((url) => ({ method: 'GET', url })),
    );
    for (const url of routes(mine.buyer._id)) expect((await get(url, mine.cookie)).statusCode, url).toBe(200);
  });

  it('answers 403 on the admin-only buyer routes, even for its own buyer', async () => {
    const mine = await createBuyerWithLogin(t);
    const id = mine.buyer._id;
    const userId = mine.user.id;
    const calls = [
      { method: 'PUT', url: `/api/buyer/${id}`, payload: { city: 'Nope' } },
      { method: 'PUT', url: `/api/buyer/${id}/pause`, payload: { reason: 'x' } },
      { method: 'POST', url: `/api/buyer/${id}/user`, payload: { name: 'X', email: 'x@example.com' } },
      { method: 'PUT', url: `/api/buyer/${id}/user/${userId}`, payload: { name: 'X', email: 'x@example.com' } },
      { method: 'PUT', url: `/api/buyer/${id}/welcome/${userId}` },
      { method: 'PUT', url: `/api/buyer/${id}/hold/${userId}` },
      { method: 'PUT', url: `/api/buyer/${id}/unhold/${userId}` },
    ] as const;
    for (const call of calls) {
      const res = await t.request({ ...call, as: mine.cookie });
      expect(res.statusCode, call.url).toBe(403);
    }
  });
});

describe('buyer users: what the Users table and its toasts need', () => {
  it('adds, edits, welcomes, locks and unlocks a user', async () => {
    const created = (
      await t.request({ method: 'POST', url: '/api/buyer', as: admin.cookie, payload: buyerInput() })
    ).json();
    const base = `/api/buyer/${created._id}`;

    const added = await addUser(created._id, { name: 'Dana Cruz', email: 'Dana.Cruz@Acme.example' });
    expect(added.statusCode).toBe(201);
    const userId = added.json()._id;
    expect(added.json()).toEqual({
      _id: expect.stringMatching(/^usr_/),
      name: 'Dana Cruz',
      email: 'dana.cruz@acme.example',
    });

    const edited = await put(`${base}/user/${userId}`, { name: 'Dana Cruz-Lee', email: 'dana@acme.example' });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({ _id: userId, name: 'Dana Cruz-Lee', email: 'dana@acme.example' });

    const welcomed = await put(`${base}/welcome/${userId}`);
    expect(welcomed.statusCode).toBe(200);
    expect(welcomed.json()).toMatchObject({ _id: userId, email: 'dana@acme.example' });
    const mail = await t.database.db.select().from(outbox).where(eq(outbox.to, 'dana@acme.example'));
    expect(mail).toHaveLength(1);
    expect(mail[0]?.text).toContain('/reset-password?token=');

    const locked = await put(`${base}/hold/${userId}`);
    expect(locked.statusCode).toBe(200);
    expect(locked.json()).toMatchObject({ _id: userId, email: 'dana@acme.example', hold: { ts: expect.any(Number) } });
    const lockedRow = (await get(`${base}?include=users`)).json().users.find((u: { _id: string }) => u._id === userId);
    expect(lockedRow.hold).toEqual({ ts: Math.floor(t.clock.now().getTime() / 1000) });

    const unlocked = await put(`${base}/unhold/${userId}`);
    expect(unlocked.statusCode).toBe(200);
    expect(unlocked.json().hold).toBeUndefined();
    expect(unlocked.json().email).toBe('dana@acme.example');
  });

  it('ends the sessions of a locked user, and lets it sign in again once unlocked', async () => {
    const { buyer, user: primary, cookie, password } = await createBuyerWithLogin(t);
    expect((await get(`/api/buyer/${buyer._id}`, cookie)).statusCode).toBe(200);
    await put(`/api/buyer/${buyer._id}/hold/${primary.id}`);
    expect((await get(`/api/buyer/${buyer._id}`, cookie)).statusCode).toBe(401);
    await put(`/api/buyer/${buyer._id}/unhold/${primary.id}`);
    const again = await t.signIn(buyer.email, password);
    expect((await get(`/api/buyer/${buyer._id}`, again)).statusCode).toBe(200);
  });

  it('answers 400 naming the field for a bad user, and 404 for an unknown one', async () => {
    const buyer = await createBuyer(t);
    const bad = await addUser(buyer._id, { name: 'X', email: 'nope' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual({ email: 'Invalid email address.' });
    for (const action of ['welcome', 'hold', 'unhold'])
      expect((await put(`/api/buyer/${buyer._id}/${action}/usr_missing`)).statusCode, action).toBe(404);
    const users = await t.database.db
      .select()
      .from(user)
      .where(and(eq(user.role, 'buyer'), eq(user.roleId, buyer._id)));
    expect(users).toHaveLength(1);
  });
});
