import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../../test/database';
import {
  createBuyer,
  createBuyerWithLogin,
  createCampaign,
  createSourceWithKey,
  createSourceWithLogin,
  insertSale,
  postReturn,
} from '../../../test/factories';
import { expectScoped404, useAdminTestApp } from '../../../test/harness';
import { bills, leadMatches } from '../../db/schema';
import { billingPeriod } from './bills.service';

const { t, admin } = useAdminTestApp();

const get = (url: string, as = admin.cookie) => t.request({ method: 'GET', url, as });
const seconds = (iso: string) => Math.floor(new Date(iso).getTime() / 1000);

/** A sold lead of the buyer at `at` for `dollars`, written directly. */
const sale = (...args: Parameters<typeof insertSale> extends [unknown, ...infer R] ? R : never) =>
  insertSale(t, ...args);

describe('billing periods (DESIGN.md §7: America/New_York, weeks from Monday)', () => {
  it('runs a monthly period from the 1st at midnight New York time, across a DST change', () => {
    const { start, next } = billingPeriod('monthly', new Date('2026-03-15T15:00:00Z'));
    expect(start.toISOString()).toBe('2026-03-01T05:00:00.000Z'); // EST
    expect(next.toISOString()).toBe('2026-04-01T04:00:00.000Z'); // EDT
  });

  it('runs a weekly period from Monday midnight to the next Monday', () => {
    // Sunday 2026-03-08, 11 p.m. in New York is still the week of Monday 2026-03-02.
    const { start, next } = billingPeriod('weekly', new Date('2026-03-09T03:00:00Z'));
    expect(start.toISOString()).toBe('2026-03-02T05:00:00.000Z');
    expect(next.toISOString()).toBe('2026-03-09T04:00:00.000Z');
  });

  it('puts the last evening of a month in New York in that month', () => {
    const { start } = billingPeriod('monthly', new Date('2026-03-01T04:30:00Z'));
    expect(start.toISOString()).toBe('2026-02-01T05:00:00.000Z');
  });
});

/** A buyer (monthly, invoice, 3 grace days by default) with a draft campaign and a source to sell it leads. */
async function buyerWithSales(terms: { period?: 'weekly' | 'monthly'; grace?: number } = {}) {
  const buyer = await createBuyer(t);
  if (terms.period || terms.grace !== undefined) {
    const res = await t.request({
      method: 'PUT',
      url: `/api/buyer/${buyer._id}`,
      as: admin.cookie,
      payload: { bill: { period: terms.period ?? 'monthly', grace: terms.grace ?? 3 } },
    });
    expect(res.statusCode).toBe(200);
  }
  const campaignId = await createCampaign(t, buyer._id, { status: 'draft' });
  const { sourceId } = await createSourceWithKey(t);
  return {
    buyer,
    sell: (at: string, dollars: number, extra: Parameters<typeof sale>[5] = {}) =>
      sale(buyer._id, campaignId, sourceId, at, dollars, extra),
  };
}

const billsOf = async (buyerId: string) => (await get(`/api/bill/buyer/${buyerId}`)).json();
const run = () => t.request({ method: 'POST', url: '/api/sim/billing', as: admin.cookie });
const adjust = (id: string, payload: object) =>
  t.request({ method: 'PUT', url: `/api/bill/${id}`, as: admin.cookie, payload });

describe('the accruing bill (GET /api/bill/buyer/{buyerId})', () => {
  it("is stored from the buyer's first sale, opening at that sale's period, and totals its sold, delivered, not rejected leads", async () => {
    t.clock.set('2026-03-15T15:00:00Z');
    const { buyer, sell } = await buyerWithSales();
    await sell('2026-03-01T05:00:00Z', 40);
    await sell('2026-03-10T18:00:00Z', 55.5);
    await sell('2026-03-12T18:00:00Z', 30, { returnStatus: 'approved' });
    await sell('2026-03-13T18:00:00Z', 25, { returnStatus: 'requested' });
    await sell('2026-03-14T18:00:00Z', 99, { rejected: true });
    await sell('2026-03-14T19:00:00Z', 77, { undelivered: true });
    const other = await buyerWithSales();
    await other.sell('2026-03-10T18:00:00Z', 1000);

    const res = await get(`/api/bill/buyer/${buyer._id}`);
    expect(res.statusCode).toBe(200);
    const [bill] = res.json();
    expect(res.json()).toHaveLength(1);
    expect(bill).toEqual({
      _id: expect.stringMatching(/^bil_/),
      buyer: buyer._id,
      buyer_name: buyer.name,
      buyer_bill: { pay: 'invoice', prepay: 0, period: 'monthly', grace: 3, threshold: 0 },
      start: seconds('2026-03-01T05:00:00Z'),
      end: seconds('2026-04-01T04:00:00Z') - 1,
      grace: seconds('2026-04-01T04:00:00Z') + 3 * 86_400,
      status: { start: true, complete: false, invoiced: false, cancelled: false },
      accruing: true,
      payment: { paid: false },
      ts: seconds('2026-03-15T15:00:00Z'),
      total: { charges: 150.5, returns: 30, credits: 0, debits: 0, net: 120.5 },
    });

    // The same stored bill every time, by its id and as the current one, with its leads.
    expect((await billsOf(buyer._id))[0]._id).toBe(bill._id);
    const current = (await get(`/api/bill/buyer/${buyer._id}/current`)).json();
    const byId = (await get(`/api/bill/${bill._id}`)).json();
    expect(byId).toEqual(current);
    expect(byId).toMatchObject({ ...bill, credits: [], debits: [] });
    expect(byId.leads.map((l: { price: number }) => l.price)).toEqual([40, 55.5, 30, 25]);
    expect(byId.leads[2]).toMatchObject({
      zip: '75201',
      service: 'roofing',
      source_name: expect.any(String),
      match: [{ ts: seconds('2026-03-12T18:00:00Z'), return: { status: 'approved' } }],
    });
  });

  it('does not exist before the first sale: the list is empty and the current bill is not found', async () => {
    const { buyer } = await buyerWithSales();
    expect(await billsOf(buyer._id)).toEqual([]);
    const current = await get(`/api/bill/buyer/${buyer._id}/current`);
    expect(current.statusCode).toBe(404);
    expect(current.json().message).toBe('This buyer has no bill yet: its first sale opens one');
  });

  it("follows the buyer's weekly period", async () => {
    t.clock.set('2026-03-11T12:00:00Z');
    const { buyer, sell } = await buyerWithSales({ period: 'weekly', grace: 0 });
    await sell('2026-03-10T12:00:00Z', 10);
    const [bill] = await billsOf(buyer._id);
    expect(bill).toMatchObject({
      start: seconds('2026-03-09T04:00:00Z'), // the Monday of the sale's week
      end: seconds('2026-03-16T04:00:00Z') - 1,
      grace: seconds('2026-03-16T04:00:00Z'),
      buyer_bill: { period: 'weekly', grace: 0 },
      total: { charges: 10, net: 10 },
    });
  });
});

describe('the billing run (POST /api/sim/billing)', () => {
  it('rolls a bill at its end, closes it when its grace runs out, and never does either twice', async () => {
    t.clock.set('2026-03-20T15:00:00Z');
    const { buyer, sell } = await buyerWithSales({ grace: 3 });
    await sell('2026-03-10T18:00:00Z', 40);
    const returned = await sell('2026-03-31T20:00:00Z', 25); // March 31, 4 p.m. in New York
    const [initial] = await billsOf(buyer._id);

    // One second before the end: nothing to do. (The run bills every buyer of this file: its own state is checked.)
    t.clock.set('2026-04-01T03:59:59Z');
    await run();
    expect(await billsOf(buyer._id)).toEqual([initial]);

    // At the end, the bill rolls: its sales stay on it, the next bill opens at its end. A second run does nothing.
    t.clock.set('2026-04-01T04:00:00Z');
    expect((await run()).json().rolled).toBeGreaterThanOrEqual(1);
    expect((await run()).json()).toEqual({ ok: true, opened: 0, rolled: 0, closed: 0, invoiced: 0 });
    await sell('2026-04-01T04:00:00Z', 60); // the new period's first second: the next bill
    const [next, rolled] = await billsOf(buyer._id);
    expect(rolled).toMatchObject({ _id: initial._id, accruing: false, status: { complete: false } });
    expect(rolled.total).toEqual({ charges: 65, returns: 0, credits: 0, debits: 0, net: 65 });
    expect(next).toMatchObject({
      accruing: true,
      start: seconds('2026-04-01T04:00:00Z'),
      end: seconds('2026-05-01T04:00:00Z') - 1,
      total: { charges: 60 },
    });

    // In grace, a return and the admin's adjustments still change it.
    const approve = await postReturn(t, admin.cookie, returned, { approve: true });
    expect(approve.statusCode).toBe(200);
    expect(
      (await adjust(initial._id, { credits: [{ amount: 5, description: 'Goodwill' }], debits: [] })).statusCode,
    ).toBe(200);

    // One second before end + grace: still open. At it: closed, with its totals final.
    t.clock.set('2026-04-04T03:59:59Z');
    await run();
    expect((await get(`/api/bill/${initial._id}`)).json().status.complete).toBe(false);
    t.clock.set('2026-04-04T04:00:00Z');
    expect((await run()).json().closed).toBeGreaterThanOrEqual(1);
    expect((await run()).json()).toEqual({ ok: true, opened: 0, rolled: 0, closed: 0, invoiced: 0 });
    const closed = (await get(`/api/bill/${initial._id}`)).json();
    expect(closed).toMatchObject({
      status: { start: true, complete: true, invoiced: false, cancelled: false },
      accruing: false,
      total: { charges: 65, returns: 25, credits: 5, debits: 0, net: 35 },
      credits: [{ amount: 5, description: 'Goodwill' }],
    });
    expect(closed.leads).toHaveLength(2);

    // A closed bill refuses adjustments and returns, each with its reason.
    const refused = await adjust(initial._id, { credits: [], debits: [] });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('This bill is closed: its credits and debits can no longer change');
    const first = (await get(`/api/bill/${initial._id}`)).json().leads[0];
    const late = await postReturn(
      t,
      admin.cookie,
      { leadId: first._id, matchId: first.match[0]._id },
      { approve: true },
    );
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe("This lead's bill is closed: its returns can no longer change");
  });

  it('after a long pause rolls period by period, and opens the first bill of a buyer whose sales have none', async () => {
    t.clock.set('2026-01-10T15:00:00Z');
    const { buyer, sell } = await buyerWithSales({ period: 'monthly', grace: 0 });
    await sell('2026-01-05T15:00:00Z', 10);
    await run(); // opens the first bill: January, the period of the first sale
    await sell('2026-02-05T15:00:00Z', 20);
    t.clock.set('2026-03-15T15:00:00Z');
    await run();
    const list = await billsOf(buyer._id);
    expect(
      list.map((b: { start: number; end: number; total: { charges: number }; status: { complete: boolean } }) => [
        b.start,
        b.end + 1,
        b.total.charges,
        b.status.complete,
      ]),
    ).toEqual([
      [seconds('2026-03-01T05:00:00Z'), seconds('2026-04-01T04:00:00Z'), 0, false],
      [seconds('2026-02-01T05:00:00Z'), seconds('2026-03-01T05:00:00Z'), 20, true],
      [seconds('2026-01-01T05:00:00Z'), seconds('2026-02-01T05:00:00Z'), 10, true],
    ]);
    // Every match is on exactly one bill.
    const stamped = await t.database.db
      .select({ billId: leadMatches.billId })
      .from(leadMatches)
      .where(eq(leadMatches.buyerId, buyer._id));
    expect(new Set(stamped.map((m) => m.billId)).size).toBe(2);
  });

  describe("a weekly buyer's first bill opened by a run days after its first sale (issue 27 item 26)", () => {
    type Row = { start: number; end: number; total: { charges: number; net: number }; status: { complete: boolean } };
    const periods = (list: Row[]) =>
      list.map((b) => [b.start, b.end + 1, b.total.charges, b.total.net, b.status.complete]);

    it('opens at the week of the first sale and rolls week by week, each total to the cent', async () => {
      // Tuesday 2026-11-03, 10 a.m. New York (EST, after the fall-back of 2026-11-01).
      t.clock.set('2026-11-03T15:00:00Z');
      const { buyer, sell } = await buyerWithSales({ period: 'weekly', grace: 0 });
      await sell('2026-11-03T15:00:00Z', 12.34);
      await sell('2026-11-05T20:00:00Z', 0.01);
      await sell('2026-11-10T15:00:00Z', 45.67); // Tuesday of the next week
      await sell('2026-11-13T13:00:00Z', 0.99); // Friday of the next week
      t.clock.set('2026-11-13T14:00:00Z'); // 10 days after the first sale
      expect((await run()).statusCode).toBe(200);
      expect(periods(await billsOf(buyer._id))).toEqual([
        [seconds('2026-11-09T05:00:00Z'), seconds('2026-11-16T05:00:00Z'), 46.66, 46.66, false],
        [seconds('2026-11-02T05:00:00Z'), seconds('2026-11-09T05:00:00Z'), 12.35, 12.35, true],
      ]);
    });

    it.each([
      ['Sunday 23:59', '2026-11-16T04:59:00Z', '2026-11-09T05:00:00Z'],
      ['Monday 00:00', '2026-11-16T05:00:00Z', '2026-11-16T05:00:00Z'],
    ])('puts a first sale on %s New York time in the week it falls in', async (_, at, weekStart) => {
      t.clock.set(at);
      const { buyer, sell } = await buyerWithSales({ period: 'weekly', grace: 0 });
      await sell(at, 19.99);
      t.clock.set('2026-11-26T15:00:00Z'); // ten days later
      await run();
      const list: Row[] = await billsOf(buyer._id);
      const first = list[list.length - 1] as Row;
      expect(first.start).toBe(seconds(weekStart));
      expect(first.end + 1).toBe(seconds(weekStart) + 7 * 86_400);
      expect([first.total.charges, first.status.complete]).toEqual([19.99, true]);
      // Every week from the sale's to the run's has its bill, the last one accruing.
      expect(periods(list)[0]).toEqual([seconds('2026-11-23T05:00:00Z'), seconds('2026-11-30T05:00:00Z'), 0, 0, false]);
      expect(list).toHaveLength(weekStart === '2026-11-09T05:00:00Z' ? 3 : 2);
    });
  });

  it('bills a sale delivered by a resend after its bill rolled on the bill accruing then', async () => {
    t.clock.set('2026-03-20T15:00:00Z');
    const { buyer, sell } = await buyerWithSales({ grace: 0 });
    await sell('2026-03-10T18:00:00Z', 40);
    const late = await sell('2026-03-11T18:00:00Z', 15, { undelivered: true });
    await billsOf(buyer._id); // a read opens the initial bill, to the end of March
    t.clock.set('2026-04-02T15:00:00Z');
    await run();
    await t.database.db
      .update(leadMatches)
      .set({ deliveryStatus: 'delivered' })
      .where(eq(leadMatches.id, late.matchId));
    const [next, closed] = await billsOf(buyer._id);
    expect(closed.total.charges).toBe(40);
    expect(next.total.charges).toBe(15);
  });
});

describe('credits and debits (PUT /api/bill/{id})', () => {
  it('replaces both lists whole and moves the net: charges - returns - credits + debits', async () => {
    t.clock.set('2026-05-10T15:00:00Z');
    const { buyer, sell } = await buyerWithSales();
    await sell('2026-05-02T15:00:00Z', 100);
    const [bill] = await billsOf(buyer._id);
    const res = await adjust(bill._id, {
      credits: [
        { amount: 12.5, description: 'Bad batch' },
        { amount: '2.25', description: 'Rounding' },
      ],
      debits: [{ amount: 30, description: 'Setup fee' }],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      credits: [
        { amount: 12.5, description: 'Bad batch' },
        { amount: 2.25, description: 'Rounding' },
      ],
      debits: [{ amount: 30, description: 'Setup fee' }],
      total: { charges: 100, returns: 0, credits: 14.75, debits: 30, net: 115.25 },
    });
    const cleared = await adjust(bill._id, { credits: [], debits: [{ amount: 0.01, description: 'Cent' }] });
    expect(cleared.json()).toMatchObject({ credits: [], total: { credits: 0, debits: 0.01, net: 100.01 } });
  });

  it.each([
    [{ credits: [{ amount: 0, description: 'x' }], debits: [] }, 'credits.0.amount', 'Amount must be more than 0'],
    [{ credits: [{ amount: -1, description: 'x' }], debits: [] }, 'credits.0.amount', 'Amount must be at least 0'],
    [
      { credits: [], debits: [{ amount: 100_000.01, description: 'x' }] },
      'debits.0.amount',
      'Amount must be less than or equal to 100000',
    ],
    [
      { credits: [], debits: [{ amount: 1.005, description: 'x' }] },
      'debits.0.amount',
      'Amount must have at most 2 decimals',
    ],
    [{ credits: [{ amount: '', description: 'x' }], debits: [] }, 'credits.0.amount', 'Amount is required'],
    [{ credits: [{ amount: 5, description: '  ' }], debits: [] }, 'credits.0.description', 'Description is required'],
  ])('refuses %j naming the field', async (payload, field, message) => {
    const { buyer, sell } = await buyerWithSales();
    await sell(t.clock.now().toISOString(), 10);
    const [bill] = await billsOf(buyer._id);
    const res = await adjust(bill._id, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message, errors: { [field]: message } });
    // Nothing half-written.
    expect((await get(`/api/bill/${bill._id}`)).json()).toMatchObject({ credits: [], debits: [] });
  });

  it('answers 404 for an unknown bill, 403 for a buyer and 401 for a guest', async () => {
    expect((await adjust('bil_missing', { credits: [], debits: [] })).statusCode).toBe(404);
    const buyer = await createBuyerWithLogin(t);
    expect(
      (
        await t.request({
          method: 'PUT',
          url: '/api/bill/bil_x',
          as: buyer.cookie,
          payload: { credits: [], debits: [] },
        })
      ).statusCode,
    ).toBe(403);
    expect((await t.request({ method: 'PUT', url: '/api/bill/bil_x', payload: {} })).statusCode).toBe(401);
  });
});

describe('the admin Bills list (GET /api/bill/date/all)', () => {
  it('lists the accruing bills first, then by end, newest first; filters on buyer name; pages by 25', async () => {
    const { buyer, sell } = await buyerWithSales({ grace: 0 });
    await sell('2026-05-10T15:00:00Z', 10);
    t.clock.set('2026-05-10T15:00:00Z');
    await run(); // opens the initial bill, to the end of May
    t.clock.set('2026-06-10T15:00:00Z');
    await run();
    await sell('2026-06-02T15:00:00Z', 20);
    const name = encodeURIComponent(buyer.name.toUpperCase());
    const res = await get(`/api/bill/date/all?buyer=${name}`);
    expect(res.statusCode).toBe(200);
    const { data, total } = res.json();
    expect(total).toBe(2);
    expect(data.map((b: { accruing: boolean; total: { net: number } }) => [b.accruing, b.total.net])).toEqual([
      [true, 20],
      [false, 10],
    ]);
    expect((await get(`/api/bill/date/all?buyer=${name}&invoice=in_nothing`)).json()).toEqual({ data: [], total: 0 });
    expect((await get('/api/bill/date/all?pageSize=1')).json().data).toHaveLength(1);
    expect((await get('/api/bill/date/all')).json().data.length).toBeLessThanOrEqual(25);
  });

  it('is for admins only', async () => {
    const login = await createBuyerWithLogin(t);
    expect((await get('/api/bill/date/all', login.cookie)).statusCode).toBe(403);
  });
});

describe('who sees a bill', () => {
  it('shows a buyer its own bills and answers 404 for another buyer, an unknown one, or a bill not its own', async () => {
    const mine = await createBuyerWithLogin(t);
    const other = await createBuyerWithLogin(t);
    const campaignId = await createCampaign(t, other.buyer._id, { status: 'draft' });
    const { sourceId } = await createSourceWithKey(t);
    await sale(other.buyer._id, campaignId, sourceId, t.clock.now().toISOString(), 10);
    const [otherBill] = await billsOf(other.buyer._id);
    expect((await get(`/api/bill/buyer/${mine.buyer._id}`, mine.cookie)).statusCode).toBe(200);
    expect((await get(`/api/bill/${otherBill._id}`, other.cookie)).statusCode).toBe(200);
    await expectScoped404(t, mine.cookie, 'Buyer', [
      { method: 'GET', url: `/api/bill/buyer/${other.buyer._id}` },
      { method: 'GET', url: `/api/bill/buyer/${other.buyer._id}/current` },
    ]);
    await expectScoped404(t, mine.cookie, 'Bill', [{ method: 'GET', url: `/api/bill/${otherBill._id}` }]);
    expect((await get('/api/bill/buyer/buy_missing')).statusCode).toBe(404);
    expect((await get('/api/bill/bil_missing')).statusCode).toBe(404);
  });

  it('answers a source 403 and a guest 401', async () => {
    const buyer = await createBuyer(t);
    const source = await createSourceWithLogin(t);
    expect((await get(`/api/bill/buyer/${buyer._id}`, source.cookie)).statusCode).toBe(403);
    expect((await get('/api/bill/bil_x', source.cookie)).statusCode).toBe(403);
    expect((await t.request({ method: 'GET', url: `/api/bill/buyer/${buyer._id}` })).statusCode).toBe(401);
  });
});

describe.skipIf(testDatabaseKind !== 'postgres')('billing runs at once on PostgreSQL', () => {
  it('two runs and a reader at once open one bill per period and stamp each sale once', async () => {
    t.clock.set('2026-06-10T15:00:00Z');
    const { buyer, sell } = await buyerWithSales({ grace: 0 });
    for (let i = 0; i < 5; i += 1) await sell(`2026-06-0${i + 1}T15:00:00Z`, 10);
    await billsOf(buyer._id); // the initial bill, to the end of June
    t.clock.set('2026-07-10T15:00:00Z');
    for (let i = 0; i < 3; i += 1) await sell(`2026-07-0${i + 1}T15:00:00Z`, 5);
    const results = await Promise.all([run(), run(), get(`/api/bill/buyer/${buyer._id}`), run()]);
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
    const rows = await t.database.db.select().from(bills).where(eq(bills.buyerId, buyer._id));
    expect(rows.filter((b) => b.status === 'accruing')).toHaveLength(1);
    const list = await billsOf(buyer._id);
    expect(list.map((b: { total: { charges: number } }) => b.total.charges)).toEqual([15, 50]);
  });
});

describe('without STRIPE_SECRET_KEY', () => {
  it('lists no cards, refuses a card form with a reason, and a paying run pays nothing', async () => {
    const login = await createBuyerWithLogin(t);
    const base = `/api/buyer/${login.buyer._id}/stripe`;
    expect((await get(`${base}/paymentMethods`, login.cookie)).json()).toEqual({ enabled: false, paymentMethods: [] });
    const intent = await get(`${base}/setupPaymentIntent`, login.cookie);
    expect(intent.statusCode).toBe(409);
    expect(intent.json().message).toBe('Card payments are not set up on this exchange yet');
    const paying = await t.request({ method: 'POST', url: '/api/sim/billing?doPayments=true', as: admin.cookie });
    expect(paying.json().invoiced).toBe(0);
  });
});

describe('the auto-pay threshold (DESIGN.md §7)', () => {
  async function autoBuyer(thresholdDollars: number) {
    t.clock.set('2026-09-10T15:00:00Z');
    const seller = await buyerWithSales();
    const res = await t.request({
      method: 'PUT',
      url: `/api/buyer/${seller.buyer._id}`,
      as: admin.cookie,
      payload: { bill: { pay: 'auto', prepay: 0, period: 'monthly', grace: 3, threshold: thresholdDollars } },
    });
    expect(res.statusCode).toBe(200);
    return seller;
  }

  it('closes the bill at once when its charges reach the threshold, and the period goes on on the next bill', async () => {
    const { buyer, sell } = await autoBuyer(100);
    await sell('2026-09-02T15:00:00Z', 60);
    await sell('2026-09-03T15:00:00Z', 40); // exactly 100
    await run();
    const [next, charged] = await billsOf(buyer._id);
    expect(charged).toMatchObject({
      accruing: false,
      status: { complete: true },
      end: seconds('2026-09-10T15:00:00Z') - 1,
      buyer_bill: { pay: 'auto', grace: 0 },
      total: { charges: 100, net: 100 },
    });
    expect(next).toMatchObject({
      accruing: true,
      start: seconds('2026-09-10T15:00:00Z'),
      end: seconds('2026-10-01T04:00:00Z') - 1,
      total: { charges: 0 },
    });
    // The next sale accrues on the next bill; a second run charges nothing more.
    await sell('2026-09-10T16:00:00Z', 30);
    t.clock.set('2026-09-10T17:00:00Z');
    expect((await run()).json()).toMatchObject({ rolled: 0, closed: 0 });
    expect((await billsOf(buyer._id))[0].total.charges).toBe(30);
  });

  it('leaves the bill accruing one cent below the threshold, and without a threshold', async () => {
    const below = await autoBuyer(100);
    await below.sell('2026-09-02T15:00:00Z', 99.99);
    const none = await autoBuyer(0);
    await none.sell('2026-09-02T15:00:00Z', 5000);
    await run();
    expect((await billsOf(below.buyer._id)).map((b: { accruing: boolean }) => b.accruing)).toEqual([true]);
    expect((await billsOf(none.buyer._id)).map((b: { accruing: boolean }) => b.accruing)).toEqual([true]);
  });
});

/**
 * Issue 30 area 3: the weeks that hold a daylight-saving change are 167 hours long in spring (the
 * second Sunday of March) and 169 in the autumn (the first Sunday of November), so a week is never
 * "start + 7 days". Each edge is tested on both sides, and the hour the change adds or removes.
 */
describe('weekly bills across both daylight-saving changes (America/New_York)', () => {
  const weeks = [
    {
      change: 'spring (2026-03-08, 167 hours)',
      previous: '2026-02-23T05:00:00Z',
      start: '2026-03-02T05:00:00Z', // Monday 00:00 EST
      end: '2026-03-09T04:00:00Z', // Monday 00:00 EDT
      following: '2026-03-16T04:00:00Z',
      // Monday 00:30 EDT: "start + 7 days" (05:00Z) would keep it in the week of the change.
      hourAfter: '2026-03-09T04:30:00Z',
    },
    {
      change: 'autumn (2026-11-01, 169 hours)',
      previous: '2026-10-19T04:00:00Z',
      start: '2026-10-26T04:00:00Z', // Monday 00:00 EDT
      end: '2026-11-02T05:00:00Z', // Monday 00:00 EST
      following: '2026-11-09T05:00:00Z',
      // Sunday 23:30 EST: "start + 7 days" (04:00Z) would put it on the next week's bill.
      hourBefore: '2026-11-02T04:30:00Z',
    },
  ];
  const ms = (iso: string) => new Date(iso).getTime();
  const iso = (at: number) => new Date(at).toISOString();

  it.each(weeks)('billingPeriod: the week of the $change change, both sides of each edge', (w) => {
    const period = (at: number) => {
      const { start, next } = billingPeriod('weekly', new Date(at));
      return [start.toISOString(), next.toISOString()];
    };
    expect(period(ms(w.start) - 1)).toEqual([iso(ms(w.previous)), iso(ms(w.start))]);
    expect(period(ms(w.start))).toEqual([iso(ms(w.start)), iso(ms(w.end))]);
    expect(period(ms(w.end) - 1)).toEqual([iso(ms(w.start)), iso(ms(w.end))]);
    if (w.hourBefore) expect(period(ms(w.hourBefore))).toEqual([iso(ms(w.start)), iso(ms(w.end))]);
    expect(period(ms(w.end))).toEqual([iso(ms(w.end)), iso(ms(w.following))]);
    if (w.hourAfter) expect(period(ms(w.hourAfter))).toEqual([iso(ms(w.end)), iso(ms(w.following))]);
  });

  it.each(weeks)('the billing run: each sale at an edge of the $change week lands on its own bill', async (w) => {
    type Row = { start: number; end: number; total: { charges: number }; status: { complete: boolean } };
    const seconds = (at: number) => Math.floor(at / 1000);
    const { buyer, sell } = await buyerWithSales({ period: 'weekly', grace: 0 });
    // Prices in powers of two: each bill's charges say which sales it holds.
    t.clock.set(new Date(ms(w.end) - 1000));
    await sell(iso(ms(w.start) - 1000), 1); // the previous week's last second
    await sell(iso(ms(w.start)), 2); // the week's first second
    if (w.hourBefore) await sell(w.hourBefore, 4); // the hour the autumn change adds
    await sell(iso(ms(w.end) - 1000), 8); // the week's last second
    const bills = async () =>
      ((await billsOf(buyer._id)) as Row[]).map((b) => [b.start, b.end + 1, b.total.charges, b.status.complete]);

    // One second before the week ends, the run rolls and closes only the week before.
    expect((await run()).statusCode).toBe(200);
    const week = [seconds(ms(w.start)), seconds(ms(w.end))];
    const inWeek = 2 + (w.hourBefore ? 4 : 0) + 8;
    expect(await bills()).toEqual([
      [...week, inWeek, false],
      [seconds(ms(w.previous)), seconds(ms(w.start)), 1, true],
    ]);

    // At its end (Monday 00:00 New York time), the week rolls and closes; the next one takes the sales from then.
    t.clock.set(new Date(ms(w.end)));
    await sell(iso(ms(w.end)), 16); // the next week's first second
    if (w.hourAfter) await sell(w.hourAfter, 32); // the hour the spring change removes
    expect((await run()).statusCode).toBe(200);
    expect(await bills()).toEqual([
      [seconds(ms(w.end)), seconds(ms(w.following)), 16 + (w.hourAfter ? 32 : 0), false],
      [...week, inWeek, true],
      [seconds(ms(w.previous)), seconds(ms(w.start)), 1, true],
    ]);
  });
});
