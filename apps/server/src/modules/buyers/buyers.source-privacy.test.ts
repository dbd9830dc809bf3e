import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createBuyerWithLogin, createCampaign, createSourceWithKey, postSoldLead } from '../../../test/factories';
import { useAdminTestApp } from '../../../test/harness';
import { sources } from '../../db/schema';

// Issue 27: exchanges keep their suppliers from their buyers. A buyer reads its leads' source (id and
// name) only when an admin turns Show Lead Sources on for it; every route a buyer can read is checked.

const { t, admin } = useAdminTestApp({ PUBLIC_API_RATE_LIMIT: 0 });

/** A buyer with a sold lead on its accruing bill, from a source whose id and name are known. */
async function buyerWithALead() {
  const buyer = await createBuyerWithLogin(t);
  await createCampaign(t, buyer.buyer._id, { price: 40, states: ['TX'], services: ['roofing'] });
  const source = await createSourceWithKey(t, { maxCost: 10 });
  const [row] = await t.database.db.select({ name: sources.name }).from(sources).where(eq(sources.id, source.sourceId));
  const sale = await postSoldLead(t, source.apiKey);
  return { buyer, source: { id: source.sourceId, name: row?.name ?? '' }, sale };
}

/** Every route of the buyer that shows its leads or bills, as the buyer calls it: path and body. */
async function buyerReads(buyerId: string, leadId: string, cookie: string) {
  const get = async (url: string) => {
    const res = await t.request({ method: 'GET', url, as: cookie });
    expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
    return res;
  };
  const bills = (await get(`/api/bill/buyer/${buyerId}`)).json() as { _id: string; accruing: boolean }[];
  const urls = [
    `/api/lead/${leadId}?includeMatchLog=true&includeNotifyLogs=true`,
    '/api/lead/date/today',
    '/api/lead/date/today/export.csv',
    `/api/bill/buyer/${buyerId}`,
    `/api/bill/buyer/${buyerId}/current`,
    ...bills.map((b) => `/api/bill/${b._id}`),
    `/api/buyer/${buyerId}?include=leads,matches`,
  ];
  return Promise.all(urls.map(async (url) => ({ url, body: (await get(url)).body })));
}

/** The lead's detail and the buyer's current bill, as `cookie` reads them. */
async function leadAndBill(buyerId: string, leadId: string, cookie: string) {
  const lead = await t.request({ method: 'GET', url: `/api/lead/${leadId}`, as: cookie });
  const bill = await t.request({ method: 'GET', url: `/api/bill/buyer/${buyerId}/current`, as: cookie });
  return { lead: lead.json(), bill: bill.json() };
}

/** `cookie` reads the lead's source (id and name) on its detail, and its name on the current bill. */
async function expectSourceShown(
  buyerId: string,
  leadId: string,
  cookie: string,
  source: { id: string; name: string },
) {
  const { lead, bill } = await leadAndBill(buyerId, leadId, cookie);
  expect(lead.source).toEqual({ _id: source.id, name: source.name });
  expect(bill.leads[0].source_name).toBe(source.name);
}

describe('Show Lead Sources (issue 27)', () => {
  it('hides each lead’s source from a buyer by default, on every route the buyer reads', async () => {
    const { buyer, source, sale } = await buyerWithALead();
    expect(buyer.buyer.showSource).toBe(false);
    const reads = await buyerReads(buyer.buyer._id, sale.leadId, buyer.cookie);
    expect(reads.length).toBeGreaterThanOrEqual(7);
    for (const { url, body } of reads) {
      expect(body, url).not.toContain(source.id);
      expect(body, url).not.toContain(source.name);
    }
    // The lead detail and the bill still answer the lead; only its source is left out.
    const { lead, bill } = await leadAndBill(buyer.buyer._id, sale.leadId, buyer.cookie);
    expect(lead).not.toHaveProperty('source');
    expect(bill.leads).toEqual([expect.objectContaining({ _id: sale.leadId, price: 40 })]);
    expect(bill.leads[0]).not.toHaveProperty('source_name');

    // The admin always sees it.
    await expectSourceShown(buyer.buyer._id, sale.leadId, admin.cookie, source);
  });

  it('shows it once an admin turns the setting on, and only an admin can', async () => {
    const { buyer, source, sale } = await buyerWithALead();
    const byBuyer = await t.request({
      method: 'PUT',
      url: `/api/buyer/${buyer.buyer._id}`,
      as: buyer.cookie,
      payload: { showSource: true },
    });
    expect(byBuyer.statusCode).toBe(403);

    const saved = await t.request({
      method: 'PUT',
      url: `/api/buyer/${buyer.buyer._id}`,
      as: admin.cookie,
      payload: { showSource: true },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().showSource).toBe(true);

    await expectSourceShown(buyer.buyer._id, sale.leadId, buyer.cookie, source);
    const bills = (
      await t.request({ method: 'GET', url: `/api/bill/buyer/${buyer.buyer._id}`, as: buyer.cookie })
    ).json() as { _id: string }[];
    for (const { _id } of bills) {
      const one = await t.request({ method: 'GET', url: `/api/bill/${_id}`, as: buyer.cookie });
      expect(one.json().leads[0].source_name).toBe(source.name);
    }

    // Off again: hidden again.
    await t.request({
      method: 'PUT',
      url: `/api/buyer/${buyer.buyer._id}`,
      as: admin.cookie,
      payload: { showSource: false },
    });
    for (const { url, body } of await buyerReads(buyer.buyer._id, sale.leadId, buyer.cookie)) {
      expect(body, url).not.toContain(source.name);
    }
  });

  it('refuses a setting that is not on or off, naming the field', async () => {
    const { buyer } = await buyerWithALead();
    const res = await t.request({
      method: 'PUT',
      url: `/api/buyer/${buyer.buyer._id}`,
      as: admin.cookie,
      payload: { showSource: 'maybe' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({ showSource: 'Show Lead Sources must be on or off' });
  });
});
