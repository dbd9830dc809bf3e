import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectBillsConsistent } from '../../../test/bill-checks';
import { testDatabaseKind } from '../../../test/database';
import {
  createBuyerWithLogin,
  createCampaign,
  createSourceWithKey,
  createSourceWithLogin,
  insertSale,
  postSoldLead,
  shareSoldLead,
} from '../../../test/factories';
import { expectScoped404, useAdminTestApp } from '../../../test/harness';
import { buyers, leadMatches, leads, messages, sourceChargebacks } from '../../db/schema';
import { newId } from '../../lib/ids';
import { approveRefusedSale } from './returns.service';

const DAY_MS = 86_400_000;
const { t, admin } = useAdminTestApp({ PUBLIC_API_RATE_LIMIT: 0 });

let apiKey: string;
beforeAll(async () => {
  ({ apiKey } = await createSourceWithKey(t, { maxCost: 5 }));
});

/** A buyer with a login and a $20 campaign buying roofing in one state of its own. */
async function buyerIn(state: string, autoApproveReturns = 0) {
  const buyer = await createBuyerWithLogin(t);
  await createCampaign(t, buyer.buyer._id, { price: 20, services: ['roofing'], states: [state] });
  if (autoApproveReturns)
    await t.deps.db.update(buyers).set({ autoApproveReturns }).where(eq(buyers.id, buyer.buyer._id));
  return buyer;
}

/** Sells a lead in `zip` (to the buyer of its state) and answers its lead and match ids. */
async function sell(zip: string) {
  const { leadId, matchId } = await postSoldLead(t, apiKey, { zip, name: 'Robin Shaw', tcpa_consent: 'true' });
  return { leadId, matchId };
}

/** The totals of the buyer's accruing bill, in dollars. */
const billTotal = async (buyerId: string, as: string) =>
  (await t.request({ method: 'GET', url: `/api/bill/buyer/${buyerId}/current`, as })).json().total;

const returnOf = (as: string, sale: { leadId: string; matchId: string }, payload: object) =>
  t.request({ method: 'POST', url: `/api/lead/${sale.leadId}/match/${sale.matchId}/return`, as, payload });

/** Expects the buyer's accruing bill to total these charges, returns and net, without credits or debits. */
const expectReturnsOnly = async (
  buyerId: string,
  as: string,
  totals: { charges: number; returns: number; net: number },
) => expect(await billTotal(buyerId, as)).toEqual({ ...totals, credits: 0, debits: 0 });

describe('a buyer asks to return a lead', () => {
  it('waits for an admin, raises a message for it, and shows on the lead and the Returns screen', async () => {
    const buyer = await buyerIn('TX');
    const sale = await sell('75201');
    const res = await returnOf(buyer.cookie, sale, { reason: 'Duplicate Lead', comment: 'Bought it last week' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      _id: sale.matchId,
      status: 'requested',
      reason: 'Duplicate Lead',
      comment: 'Bought it last week',
    });
    const raised = await t.deps.db.select().from(messages);
    expect(raised.find((m) => (m.data as { match_id?: string }).match_id === sale.matchId)).toMatchObject({
      data: { kind: 'return_requested', lead_id: sale.leadId, buyer_id: buyer.buyer._id, link: `/lead/${sale.leadId}` },
    });
    const lead = await t.request({ method: 'GET', url: `/api/lead/${sale.leadId}`, as: buyer.cookie });
    expect(lead.json().match[0].return).toMatchObject({ reason: 'Duplicate Lead', comment: 'Bought it last week' });
    const list = await t.request({ method: 'GET', url: '/api/lead/returns?status=requested', as: admin.cookie });
    expect(list.json().data).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          _id: sale.matchId,
          lead_id: sale.leadId,
          buyer: { _id: buyer.buyer._id, name: buyer.buyer.name },
          price: 20,
          status: 'requested',
          reason: 'Duplicate Lead',
        }),
      ]),
    );
    // Asked once: a second request changes nothing.
    const again = await returnOf(buyer.cookie, sale, { reason: 'Location' });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('A return was already requested for this lead');
  });

  it("resolves the request's admin message once an admin decides, approved or denied (issue 27)", async () => {
    const buyer = await buyerIn('WA');
    const listed = async (matchId: string) => {
      const res = await t.request({ method: 'GET', url: '/api/message/admin?pageSize=100', as: admin.cookie });
      return res.json().data.some((m: { data?: { match_id?: string } }) => m.data?.match_id === matchId);
    };
    for (const decision of [{ approve: true }, { deny: true }]) {
      const sale = await sell('98101');
      expect((await returnOf(buyer.cookie, sale, { reason: 'Location' })).statusCode).toBe(200);
      expect(await listed(sale.matchId)).toBe(true);
      expect((await returnOf(admin.cookie, sale, decision)).statusCode).toBe(200);
      expect(await listed(sale.matchId)).toBe(false);
      const [message] = (await t.deps.db.select().from(messages)).filter(
        (m) => (m.data as { match_id?: string }).match_id === sale.matchId,
      );
      expect(message?.hiddenAt).not.toBeNull();
      expect(message?.data).toMatchObject({
        kind: 'return_requested',
        resolved: 'approve' in decision ? 'approved' : 'denied',
      });
    }
  });

  it('names the reason when it is missing or not one of the four', async () => {
    const buyer = await buyerIn('OK');
    const sale = await sell('73102');
    const missing = await returnOf(buyer.cookie, sale, { comment: 'no reason' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ message: 'Reason is required', errors: { reason: 'Reason is required' } });
    const unknown = await returnOf(buyer.cookie, sale, { reason: 'Changed my mind' });
    expect(unknown.json().errors).toEqual({
      reason: 'Reason must be Duplicate Lead, Location, Wrong Service or Bad Information',
    });
    const admins = await returnOf(admin.cookie, sale, { approve: false });
    expect(admins.statusCode).toBe(400);
    expect(admins.json().message).toBe('Send approve: true or deny: true');
    const [row] = await t.deps.db.select().from(leadMatches).where(eq(leadMatches.id, sale.matchId));
    expect(row?.returnStatus).toBeNull();
  });

  it('is allowed up to the end of the return window (7 days after the sale), not a second later', async () => {
    const buyer = await buyerIn('CO');
    const soldAt = t.clock.now();
    const onTime = await sell('80202');
    const late = await sell('80202');
    // The buyer's lead says whether Request Lead Return can still be used.
    const returnable = async (sale: { leadId: string }) =>
      (await t.request({ method: 'GET', url: `/api/lead/${sale.leadId}`, as: buyer.cookie })).json().match[0]
        .returnable;
    try {
      t.clock.set(new Date(soldAt.getTime() + 7 * DAY_MS));
      expect(await returnable(onTime)).toBe(true);
      expect((await returnOf(buyer.cookie, onTime, { reason: 'Location' })).statusCode).toBe(200);
      expect(await returnable(onTime)).toBe(false);
      t.clock.set(new Date(soldAt.getTime() + 7 * DAY_MS + 1000));
      expect(await returnable(late)).toBe(false);
      const refused = await returnOf(buyer.cookie, late, { reason: 'Location' });
      expect(refused.statusCode).toBe(409);
      expect(refused.json().message).toBe(
        'The return window has closed: a lead may be returned within 7 days of its sale',
      );
    } finally {
      t.clock.set(soldAt);
    }
  });

  it('is approved at once while the approved returns stay within the buyer’s share of its leads on the bill', async () => {
    // 20 % of 10 leads: two returns approved at once, the third waits for an admin.
    const buyer = await buyerIn('AZ', 0.2);
    const sales = [];
    for (let i = 0; i < 10; i++) sales.push(await sell('85004'));
    const statuses = [];
    for (const sale of sales.slice(0, 3))
      statuses.push((await returnOf(buyer.cookie, sale, { reason: 'Bad Information' })).json().status);
    expect(statuses).toEqual(['approved', 'approved', 'requested']);
    await expectReturnsOnly(buyer.buyer._id, buyer.cookie, { charges: 200, returns: 40, net: 160 });
  });

  it('answers 404 for another buyer’s match, and refuses sources', async () => {
    const owner = await buyerIn('NV');
    const other = await createBuyerWithLogin(t);
    const sale = await sell('89501');
    const url = `/api/lead/${sale.leadId}/match/${sale.matchId}/return`;
    await expectScoped404(t, other.cookie, 'Lead', [{ method: 'POST', url, payload: { reason: 'Location' } }]);
    // A match of another lead is not found either, even for its own buyer.
    const elsewhere = await sell('89501');
    await expectScoped404(t, owner.cookie, 'Lead', [
      {
        method: 'POST',
        url: `/api/lead/${elsewhere.leadId}/match/${sale.matchId}/return`,
        payload: { reason: 'Location' },
      },
    ]);
    const source = await createSourceWithLogin(t);
    expect(
      (await t.request({ method: 'POST', url, as: source.cookie, payload: { reason: 'Location' } })).statusCode,
    ).toBe(403);
    expect((await t.request({ method: 'GET', url: '/api/lead/returns', as: owner.cookie })).statusCode).toBe(403);
    const [row] = await t.deps.db.select().from(leadMatches).where(eq(leadMatches.id, sale.matchId));
    expect(row?.returnStatus).toBeNull();
  });
});

describe('an admin decides', () => {
  let buyer: Awaited<ReturnType<typeof buyerIn>>;
  beforeAll(async () => {
    buyer = await buyerIn('NM');
  });

  it('approves a request (the bill is credited) or denies one; a decided return stays decided', async () => {
    const approved = await sell('87501');
    const denied = await sell('87501');
    await returnOf(buyer.cookie, approved, { reason: 'Wrong Service' });
    await returnOf(buyer.cookie, denied, { reason: 'Location' });
    const yes = await returnOf(admin.cookie, approved, { approve: true });
    expect(yes.json()).toMatchObject({ status: 'approved', reason: 'Wrong Service' });
    const no = await returnOf(admin.cookie, denied, { deny: true });
    expect(no.json()).toMatchObject({ status: 'denied' });
    const [row] = await t.deps.db.select().from(leadMatches).where(eq(leadMatches.id, approved.matchId));
    expect(row).toMatchObject({ returnDecidedBy: admin.id });
    expect(row?.returnDecidedAt).toBeInstanceOf(Date);
    const twice = await returnOf(admin.cookie, denied, { approve: true });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toBe('This return was already decided');
    await expectReturnsOnly(buyer.buyer._id, admin.cookie, { charges: 40, returns: 20, net: 20 });
  });

  it('may approve a sale nobody asked to return, but not deny one', async () => {
    const sale = await sell('87501');
    const deny = await returnOf(admin.cookie, sale, { deny: true });
    expect(deny.statusCode).toBe(409);
    expect(deny.json().message).toBe('There is no return request to deny');
    const approve = await returnOf(admin.cookie, sale, { approve: true });
    expect(approve.json()).toMatchObject({ status: 'approved' });
    // The buyer cannot ask for what is already returned.
    expect((await returnOf(buyer.cookie, sale, { reason: 'Location' })).statusCode).toBe(409);
  });
});

describe.skipIf(testDatabaseKind !== 'postgres')('concurrent requests on PostgreSQL', () => {
  it('approve at once no more than the buyer’s share, however many arrive together', async () => {
    // 30 % of 10 leads: exactly three of ten simultaneous requests are approved at once.
    const buyer = await buyerIn('UT', 0.3);
    const sales = [];
    for (let i = 0; i < 10; i++) sales.push(await sell('84101'));
    const answers = await Promise.all(sales.map((sale) => returnOf(buyer.cookie, sale, { reason: 'Duplicate Lead' })));
    const statuses = answers.map((res) => res.json().status).sort();
    expect(statuses).toEqual([...Array(7).fill('requested'), ...Array(3).fill('approved')].sort());
  });
});

describe('returns charged back to the source (its payout)', () => {
  const chargebacksOf = (matchId: string) =>
    t.deps.db.select().from(sourceChargebacks).where(eq(sourceChargebacks.matchId, matchId));

  it('takes back the $5 payout of an approved return, once, and nothing for a denied one', async () => {
    const buyer = await buyerIn('OK');
    const approved = await sell('73102');
    const denied = await sell('73102');
    await returnOf(buyer.cookie, denied, { reason: 'Location' });
    await returnOf(admin.cookie, denied, { deny: true });
    expect(await chargebacksOf(denied.matchId)).toEqual([]);
    expect((await returnOf(admin.cookie, approved, { approve: true })).statusCode).toBe(200);
    expect((await returnOf(admin.cookie, approved, { approve: true })).statusCode).toBe(409);
    const [lead] = await t.deps.db.select().from(leads).where(eq(leads.id, approved.leadId));
    expect(await chargebacksOf(approved.matchId)).toEqual([
      expect.objectContaining({ sourceId: lead?.sourceId, leadId: approved.leadId, amountCents: 500 }),
    ]);
  });

  it('charges back an auto-approved return too', async () => {
    const buyer = await buyerIn('KS', 1);
    const sale = await sell('66603');
    expect((await returnOf(buyer.cookie, sale, { reason: 'Bad Information' })).json().status).toBe('approved');
    expect((await chargebacksOf(sale.matchId)).map((c) => c.amountCents)).toEqual([500]);
  });

  it('splits a shared lead’s payout over its sales by price: both returned give back the whole payout', async () => {
    await buyerIn('NE');
    const first = await sell('68508');
    // A second buyer shares the same lead at $60 (the first paid $20): $1.25 and $3.75 of the $5 payout.
    const { matchId: second } = await shareSoldLead(t, first.leadId, 6000);
    await returnOf(admin.cookie, first, { approve: true });
    await returnOf(admin.cookie, { leadId: first.leadId, matchId: second }, { approve: true });
    expect((await chargebacksOf(first.matchId)).map((c) => c.amountCents)).toEqual([125]);
    expect((await chargebacksOf(second)).map((c) => c.amountCents)).toEqual([375]);
  });

  it('charges nothing back to a source paid nothing (an internal source)', async () => {
    const buyer = await buyerIn('IA');
    const campaignId = await createCampaign(t, buyer.buyer._id, { status: 'draft' });
    const { sourceId } = await createSourceWithKey(t);
    const sale = await insertSale(t, buyer.buyer._id, campaignId, sourceId, t.clock.now().toISOString(), 30);
    expect((await returnOf(admin.cookie, sale, { approve: true })).statusCode).toBe(200);
    expect(await chargebacksOf(sale.matchId)).toEqual([]);
  });
});

describe('a late Not Accepted from a retried custom delivery (DESIGN.md §6)', () => {
  const refuse = (matchId: string) => approveRefusedSale(t.deps.db, matchId, 'Not Accepted: duplicate', t.clock.now());

  it('makes an open bill’s sale an approved return, charged back to the source', async () => {
    const buyer = await buyerIn('AR');
    const sale = await sell('72201');
    await refuse(sale.matchId);
    await refuse(sale.matchId);
    const [row] = await t.deps.db.select().from(leadMatches).where(eq(leadMatches.id, sale.matchId));
    expect(row).toMatchObject({
      returnStatus: 'approved',
      returnReason: "Not Accepted by the buyer's custom delivery",
      returnComment: 'Not Accepted: duplicate',
    });
    expect(await billTotal(buyer.buyer._id, admin.cookie)).toMatchObject({ charges: 20, returns: 20, net: 0 });
    expect(
      (await t.deps.db.select().from(sourceChargebacks).where(eq(sourceChargebacks.matchId, sale.matchId))).length,
    ).toBe(1);
  });

  it('leaves a closed bill as invoiced and credits the price on the next bill, once', async () => {
    const buyer = await buyerIn('LA');
    await t.deps.db.update(buyers).set({ graceDays: 0 }).where(eq(buyers.id, buyer.buyer._id));
    const sale = await sell('70112');
    expect(await billTotal(buyer.buyer._id, admin.cookie)).toMatchObject({ charges: 20 });
    // A month later the sale's bill has closed; then the buyer's system says no.
    t.clock.advance(40 * DAY_MS);
    await t.request({ method: 'POST', url: '/api/sim/billing', as: admin.cookie });
    const list = (
      await t.request({ method: 'GET', url: `/api/bill/buyer/${buyer.buyer._id}`, as: admin.cookie })
    ).json();
    const closed = list.at(-1); // the first bill: the list runs newest first
    expect(closed?.status.complete).toBe(true);
    await refuse(sale.matchId);
    await refuse(sale.matchId);

    const [row] = await t.deps.db.select().from(leadMatches).where(eq(leadMatches.id, sale.matchId));
    expect(row?.returnStatus).toBeNull();
    const current = (
      await t.request({ method: 'GET', url: `/api/bill/buyer/${buyer.buyer._id}/current`, as: admin.cookie })
    ).json();
    expect(current.credits).toEqual([
      { amount: 20, description: "Lead Robin Shaw refused by the buyer's custom delivery after its bill closed" },
    ]);
    expect(current.total).toMatchObject({ charges: 0, credits: 20, net: -20 });
    expect(
      (await t.request({ method: 'GET', url: `/api/bill/${closed._id}`, as: admin.cookie })).json().total,
    ).toMatchObject({ charges: 20, returns: 0, net: 20 });
    await expectBillsConsistent(t, admin.cookie, buyer.buyer._id, [sale.matchId]);
  });
});
