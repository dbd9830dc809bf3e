import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  billedCents,
  createBuyerWithLogin,
  createCampaign,
  createSourceWithKey,
  leadInput,
  postSoldLead,
  shareSoldLead,
  uniquePhone,
} from '../../../test/factories';
import { useAdminTestApp, useRoleCookies } from '../../../test/harness';
import { eventually, QUICK_DELIVERIES, useReceivers } from '../../../test/receivers';
import { rowsOf } from '../../db/client';
import {
  accessLog,
  campaigns,
  erasureNotices,
  leadMatches,
  leads,
  messages,
  pingCalls,
  serviceFields,
} from '../../db/schema';
import { newId } from '../../lib/ids';

/**
 * Issue 35 item 1 with real peers: a sold lead delivered by email (SMTP), SMS (kept in the outbox) and a
 * signed webhook, shared with a second buyer, pinged to a Ping/Post buyer and quoted in a message; an
 * erasure of its phone leaves no copy of the phone in any text or jsonb column of any table.
 */

const { http, smtp } = useReceivers();
const { t, admin } = useAdminTestApp(
  () => ({ PUBLIC_API_RATE_LIMIT: 0, SMTP_URL: smtp.url, ALLOW_PRIVATE_DELIVERY_TARGETS: true, ...QUICK_DELIVERIES }),
  { startJobs: true },
);
const roles = useRoleCookies(t);

const phone = uniquePhone();
const formatted = `(${phone.slice(0, 3)}) ${phone.slice(3, 6)}-${phone.slice(6)}`;
const email = `erase.me.${phone}@example.com`;
let apiKey: string;
let leadId: string;
let matchId: string;
let otherLeadId: string;
let buyerA: Awaited<ReturnType<typeof createBuyerWithLogin>>;
let sharedMatchBuyer: string;

/** Every (table, column) of the database, in every schema, whose text holds `needle`. */
async function everywhere(needle: string): Promise<string[]> {
  const columns = rowsOf<{ schema: string; table: string; column: string }>(
    await t.database.db.execute(sql`
      select c.table_schema as schema, c.table_name as "table", c.column_name as column
      from information_schema.columns c
      join information_schema.tables tb on tb.table_schema = c.table_schema and tb.table_name = c.table_name
      where tb.table_type = 'BASE TABLE' and c.table_schema not in ('pg_catalog', 'information_schema')
        and (c.data_type in ('text', 'character varying', 'character', 'json', 'jsonb') or c.udt_name in ('_text', '_varchar'))`),
  );
  expect(columns.length).toBeGreaterThan(100);
  const found: string[] = [];
  for (const c of columns) {
    const [row] = rowsOf<{ n: number }>(
      await t.database.db.execute(
        sql.raw(
          `select count(*)::int as n from "${c.schema}"."${c.table}" where "${c.column}"::text like '%${needle.replace(/'/g, "''")}%'`,
        ),
      ),
    );
    if ((row?.n ?? 0) > 0) found.push(`${c.schema}.${c.table}.${c.column}`);
  }
  // The consent evidence survives an erasure under the legal-claims exception (issue 35 item 2,
  // docs/compliance.md): its own retention deletes it. Everything else must have let the contact go.
  return found.filter((f) => !f.startsWith('public.consent_evidence.'));
}

const stats = async (report: string) =>
  (await t.request({ method: 'GET', url: `/api/stats/${report}?dateq=ytd`, as: admin.cookie })).json();

beforeAll(async () => {
  buyerA = await createBuyerWithLogin(t);
  const campaignId = await createCampaign(t, buyerA.buyer._id, { price: 40.17, services: ['roofing'], states: ['TX'] });
  await t.database.db
    .update(campaigns)
    .set({
      notify: { email: ['ops@buyer-a.example'], sms: ['5125550142'], webhook: http.url('/a'), broadcast_webhooks: [] },
    })
    .where(eq(campaigns.id, campaignId));
  apiKey = (await createSourceWithKey(t, { maxCost: 10.33 })).apiKey;
  const sale = await postSoldLead(t, apiKey, { phone: formatted, email, name: 'Erin Example', address: '1 Main St' });
  leadId = sale.leadId;
  matchId = sale.matchId;
  // Delivered on its three channels: the logs, the outbox and the peers hold the phone.
  await eventually(
    async () => {
      const [m] = await t.database.db.select().from(leadMatches).where(eq(leadMatches.id, matchId));
      return m?.deliveryStatus === 'delivered' && http.on('/a').length > 0 && smtp.mails.length > 0;
    },
    15_000,
    'the sale delivered',
  );
  const shared = await shareSoldLead(t, leadId, 1_234);
  const [m] = await t.database.db.select().from(leadMatches).where(eq(leadMatches.id, shared.matchId));
  sharedMatchBuyer = m?.buyerId ?? '';
  // A Ping/Post buyer's ping of the lead, and a message quoting the phone.
  await t.database.db.insert(pingCalls).values({
    id: newId('pcl'),
    leadId,
    buyerId: buyerA.buyer._id,
    deliveryId: 'whk_x',
    outcome: 'bid',
    request: JSON.stringify({ phone, email }),
    response: `{"ok":true,"echo":"${formatted}"}`,
    at: t.clock.now(),
  });
  await t.database.db.insert(messages).values({
    id: newId('msg'),
    text: `Buyer says: call ${phone.slice(0, 3)}-${phone.slice(3, 6)}-${phone.slice(6)} back`,
    createdAt: t.clock.now(),
  });
  otherLeadId = (await postSoldLead(t, apiKey, leadInput())).leadId;
}, 180_000);

describe('erasure on request (issue 35 item 1)', () => {
  let before: { billsA: number; billsB: number; sources: unknown; buyers: unknown };

  it('finds every lead and row holding the phone, and the buyers to tell', async () => {
    expect((await everywhere(phone)).length).toBeGreaterThan(3);
    before = {
      billsA: await billedCents(t, admin.cookie, buyerA.buyer._id),
      billsB: await billedCents(t, admin.cookie, sharedMatchBuyer),
      sources: await stats('sources'),
      buyers: await stats('buyers'),
    };
    const res = await t.request({
      method: 'POST',
      url: '/api/compliance/erasure/search',
      as: admin.cookie,
      payload: { phone: formatted },
    });
    expect(res.statusCode).toBe(200);
    const preview = res.json();
    expect(preview.leads.map((l: { _id: string }) => l._id)).toEqual([leadId]);
    expect(preview.counts).toMatchObject({ leads: 1, lead_matches: 2, ping_calls: 1, messages: 1 });
    expect(preview.counts.delivery_attempts).toBeGreaterThanOrEqual(3);
    expect(preview.counts.outbox).toBeGreaterThanOrEqual(2);
    expect(preview.buyers.map((b: { _id: string }) => b._id).sort()).toEqual(
      [buyerA.buyer._id, sharedMatchBuyer].sort(),
    );
    const a = preview.buyers.find((b: { _id: string }) => b._id === buyerA.buyer._id);
    expect(a.targets).toEqual([
      { channel: 'email', target: 'ops@buyer-a.example' },
      { channel: 'sms', target: '5125550142' },
      { channel: 'webhook', target: http.url('/a') },
    ]);
  });

  it('erases it everywhere in one step: no table holds the phone or the email afterwards', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/compliance/erasure',
      as: admin.cookie,
      payload: { phone, requested_by: 'The consumer, by email (ticket 4711)' },
    });
    expect(res.statusCode).toBe(200);
    const record = res.json();
    expect(record).toMatchObject({
      kind: 'request',
      requested_by: 'The consumer, by email (ticket 4711)',
      erased_by: { _id: admin.id },
      matched_on: 'phone',
      lead_ids: [leadId],
      counts: { leads: 1, lead_matches: 2, ping_calls: 1, messages: 1 },
    });
    expect(JSON.stringify(record)).not.toContain(phone);
    expect(await everywhere(phone)).toEqual([]);
    expect(await everywhere(`${phone.slice(3, 6)}-${phone.slice(6)}`)).toEqual([]);
    expect(await everywhere(email)).toEqual([]);
    // Another person's lead keeps its contact.
    const [other] = await t.database.db.select().from(leads).where(eq(leads.id, otherLeadId));
    expect(other?.phone).toMatch(/^\d{10}$/);
  });

  it('keeps the lead as a sale: bills and stats totals unchanged to the cent', async () => {
    const [lead] = await t.database.db.select().from(leads).where(eq(leads.id, leadId));
    expect(lead).toMatchObject({
      phone: null,
      email: null,
      name: null,
      address: null,
      costCents: 1033,
      priceCents: 4017,
    });
    expect(await billedCents(t, admin.cookie, buyerA.buyer._id)).toBe(before.billsA);
    expect(await billedCents(t, admin.cookie, sharedMatchBuyer)).toBe(before.billsB);
    expect(await stats('sources')).toEqual(before.sources);
    expect(await stats('buyers')).toEqual(before.buyers);
  });

  it('puts the phone on the exchange-wide suppression list as a keyed hash', async () => {
    expect(await t.deps.services.suppression.isSuppressed({ scope: 'global', kind: 'phone', value: phone })).toBe(true);
  });

  it('tells every buyer that received the lead on its channels, without the person’s data', async () => {
    await eventually(
      async () => {
        await t.deps.services.erasure.sendPendingNotices();
        const rows = await t.database.db.select().from(erasureNotices);
        return rows.length === 4 && rows.every((n) => n.status === 'sent');
      },
      15_000,
      'the notices sent',
    );
    const hook = http
      .on('/a')
      .map((r) => JSON.parse(r.body))
      .find((b) => b.type === 'lead.erased');
    expect(hook.data).toMatchObject({ leads: [{ lead_id: leadId, match_id: matchId }] });
    const mails = smtp.mails.filter((m) => /Erasure request/.test(m.raw));
    expect(mails.map((m) => m.to[0]).sort()).toEqual(['ops@buyer-a.example', expect.stringContaining('@')].sort());
    expect(mails.some((m) => m.raw.includes(phone))).toBe(false);
    const records = (await t.request({ method: 'GET', url: '/api/compliance/erasures', as: admin.cookie })).json();
    expect(records.total).toBe(1);
    expect(records.data[0].notices.map((n: { status: string }) => n.status)).toEqual(['sent', 'sent', 'sent', 'sent']);
    expect(records.data[0].buyers.map((b: { _id: string }) => b._id).sort()).toEqual(
      [buyerA.buyer._id, sharedMatchBuyer].sort(),
    );
  });

  it('leaves one access log entry for the erasure (and one for its search), without the contact', async () => {
    const rows = await t.database.db.select().from(accessLog).where(eq(accessLog.action, 'erasure'));
    expect(rows).toMatchObject([{ userId: admin.id, role: 'admin', leadIds: [leadId] }]);
    const searches = await t.database.db.select().from(accessLog).where(eq(accessLog.action, 'erasure.search'));
    expect(searches).toHaveLength(1);
  });

  it('refuses the next lead with that phone before pricing', async () => {
    const res = await t.sourceApi('/api/lead', apiKey, leadInput({ phone: formatted }));
    expect(res.json()).toMatchObject({ ok: false, reason: 'suppressed' });
    // Refused before pricing: no buyer was offered it, nothing was paid for it.
    const refused = res.json().lead_id as string;
    expect(await t.database.db.select().from(leadMatches).where(eq(leadMatches.leadId, refused))).toEqual([]);
    const [row] = await t.database.db.select().from(leads).where(eq(leads.id, refused));
    expect(row?.costCents ?? 0).toBe(0);
  });
});

describe('the service fields of an erased lead', () => {
  it('loses its personal fields and a date of birth, and keeps the ones that describe the request', async () => {
    await t.database.db
      .insert(serviceFields)
      .values({
        service: 'roofing',
        key: 'spouse_name',
        position: 90,
        label: 'Spouse',
        type: 'text',
        personal: true,
        createdAt: t.clock.now(),
        updatedAt: t.clock.now(),
      })
      .onConflictDoNothing();
    const person = uniquePhone();
    const sale = await postSoldLead(t, apiKey, leadInput({ phone: person }));
    await t.database.db
      .update(leads)
      .set({ fields: { spouse_name: 'Sam Example', dob: '01/02/1980', roof_age: 12 } })
      .where(eq(leads.id, sale.leadId));
    const res = await t.request({
      method: 'POST',
      url: '/api/compliance/erasure',
      as: admin.cookie,
      payload: { phone: person, requested_by: 'The consumer, by phone' },
    });
    expect(res.statusCode).toBe(200);
    const [erased] = await t.database.db.select().from(leads).where(eq(leads.id, sale.leadId));
    expect(erased?.fields).toEqual({ roof_age: 12 });
    expect(await everywhere('Sam Example')).toEqual([]);
  });
});

describe('the erasure routes', () => {
  it('refuse a bad contact with 400 naming the field', async () => {
    const post = (url: string, payload: object) => t.request({ method: 'POST', url, as: admin.cookie, payload });
    const neither = await post('/api/compliance/erasure/search', {});
    expect(neither.statusCode).toBe(400);
    expect(Object.keys(neither.json().errors)).toEqual(['email']);
    const badPhone = await post('/api/compliance/erasure/search', { phone: '12' });
    expect(Object.keys(badPhone.json().errors)).toEqual(['phone']);
    const noWho = await post('/api/compliance/erasure', { email: 'a@b.example' });
    expect(Object.keys(noWho.json().errors)).toEqual(['requested_by']);
  });

  it('are the admin’s only: a buyer and a source get 403, a guest 401', async () => {
    const calls = [
      { method: 'POST' as const, url: '/api/compliance/erasure/search', payload: { phone } },
      { method: 'POST' as const, url: '/api/compliance/erasure', payload: { phone, requested_by: 'x' } },
      { method: 'GET' as const, url: '/api/compliance/erasures' },
      { method: 'GET' as const, url: '/api/compliance/retention' },
      { method: 'PUT' as const, url: '/api/compliance/retention', payload: { lead_days: 30 } },
    ];
    for (const call of calls) {
      expect((await t.request({ ...call, as: roles.buyer })).statusCode, call.url).toBe(403);
      expect((await t.request({ ...call, as: roles.source })).statusCode, call.url).toBe(403);
      expect((await t.request(call)).statusCode, call.url).toBe(401);
    }
    expect((await t.request({ ...calls[2], as: roles.admin } as never)).statusCode).toBe(200);
  });
});

describe('retention (issue 35 item 4)', () => {
  it('is off by default: the job erases nothing', async () => {
    expect((await t.request({ method: 'GET', url: '/api/compliance/retention', as: admin.cookie })).json()).toEqual({
      lead_days: null,
    });
    expect(await t.deps.services.erasure.runRetention()).toBe(0);
  });

  it('erases the personal fields of leads older than the days set, and only those', async () => {
    const now = t.clock.now();
    t.clock.set(new Date(now.getTime() - 40 * 86_400_000));
    const old = await postSoldLead(t, apiKey, leadInput());
    t.clock.set(now);
    const fresh = await postSoldLead(t, apiKey, leadInput());
    const bad = await t.request({
      method: 'PUT',
      url: '/api/compliance/retention',
      as: admin.cookie,
      payload: { lead_days: 0 },
    });
    expect(Object.keys(bad.json().errors)).toEqual(['lead_days']);
    const set = await t.request({
      method: 'PUT',
      url: '/api/compliance/retention',
      as: admin.cookie,
      payload: { lead_days: 30 },
    });
    expect(set.json()).toEqual({ lead_days: 30 });
    expect(await t.deps.services.erasure.runRetention()).toBe(1);
    const [o] = await t.database.db.select().from(leads).where(eq(leads.id, old.leadId));
    const [f] = await t.database.db.select().from(leads).where(eq(leads.id, fresh.leadId));
    expect(o).toMatchObject({ phone: null, email: null, name: null });
    expect(f?.phone).toMatch(/^\d{10}$/);
    const records = (await t.request({ method: 'GET', url: '/api/compliance/erasures', as: admin.cookie })).json();
    expect(records.data[0]).toMatchObject({ kind: 'retention', lead_ids: [old.leadId] });
    expect(await t.database.db.select().from(accessLog).where(eq(accessLog.action, 'retention'))).toHaveLength(1);
    // A second run finds nothing left to erase.
    expect(await t.deps.services.erasure.runRetention()).toBe(0);
  });
});
