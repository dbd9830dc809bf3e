import { createServer, type IncomingMessage, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  createBuyer,
  createBuyerWithLogin,
  createCampaign,
  uniquePhone,
  ZIP_OF_STATE,
} from '../../../../test/factories';
import { useFixture } from '../../../../test/fixtures';
import {
  createDelivery,
  deliveryAttemptsOf,
  eventually,
  fieldRows,
  listenLocally,
  notifyJobsSettled,
  useDeliveryTestApp,
} from '../../../../test/receivers';
import { leadMatches, leads } from '../../../db/schema';
import { unpackExplanation } from '../../../distribution/explanation';

/**
 * Deliveries to a buyer that runs LeadConduit (issue 32 item 9): the buyer's endpoint is a local
 * HTTP server that reads each request with LeadConduit's own inbound handling (`leadconduit-default`,
 * the module behind a LeadConduit flow's "submit" URL) and answers with its own response builder
 * (`outcome`, `reason`, `lead.id`, `price`), as a LeadConduit flow answers its sources. The delivery
 * is set up as a LeadConduit user's buyer would tell an exchange to: accept `outcome` = `success`,
 * reason in `reason`, lead id in `lead.id`, try again on `outcome` = `error`.
 */

interface LeadConduitRequest {
  method: string;
  uri: string;
  headers: Record<string, string>;
  body: string;
}
interface LeadConduitInbound {
  request(req: LeadConduitRequest): Record<string, unknown>;
  response(
    req: LeadConduitRequest,
    vars: Record<string, unknown>,
  ): { status: number; headers: Record<string, string | number>; body: string };
}
const leadconduit = createRequire(import.meta.url)('leadconduit-default') as { inbound: LeadConduitInbound };

/** What the LeadConduit flow answers a submission: its outcome, reason and lead id. */
interface FlowAnswer {
  outcome: 'success' | 'failure' | 'error';
  reason?: string;
  leadId?: string;
}

/** Node's lower-case header names as LeadConduit's handler reads them (`Content-Type`, `Accept`). */
const titleCase = (headers: IncomingMessage['headers']) =>
  Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [
      name.replace(/(^|-)([a-z])/g, (_, dash: string, c: string) => dash + c.toUpperCase()),
      String(value),
    ]),
  );

/** A LeadConduit flow on a free port: every submission parsed by LeadConduit, answered as `answers[path]` scripts. */
async function startLeadConduitFlow() {
  const submissions: { path: string; lead: Record<string, unknown>; contentType: string }[] = [];
  const scripts = new Map<string, FlowAnswer[]>();
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      const lcRequest = { method: req.method ?? 'POST', uri: req.url ?? '/', headers: titleCase(req.headers), body };
      const lead = leadconduit.inbound.request(lcRequest);
      const path = req.url ?? '/';
      submissions.push({ path, lead, contentType: String(req.headers['content-type']) });
      const list = scripts.get(path) ?? [];
      const answer = (list.length > 1 ? list.shift() : list[0]) ?? { outcome: 'success' };
      const vars = {
        outcome: answer.outcome,
        ...(answer.reason ? { reason: answer.reason } : {}),
        ...(answer.leadId ? { lead: { id: answer.leadId } } : {}),
        price: answer.outcome === 'success' ? 35 : 0,
      };
      const reply = leadconduit.inbound.response(lcRequest, vars);
      res.writeHead(reply.status, reply.headers).end(reply.body);
    });
  });
  const { url, close } = await listenLocally(server);
  return {
    url,
    submissions,
    on: (path: string) => submissions.filter((s) => s.path === path),
    /** The flow's answers to submissions on `path`, in turn; the last one repeats. */
    answer: (path: string, answers: FlowAnswer[]) => scripts.set(path, [...answers]),
    close,
  };
}

const flow = useFixture(startLeadConduitFlow, (f) => f.close());
const { t, admin, source } = useDeliveryTestApp(undefined, () => ({ ALLOW_PRIVATE_DELIVERY_TARGETS: true }));

/** Every template field a lead carries, under LeadConduit's standard field names where it has one. */
const LEADCONDUIT_MAPPING = fieldRows({
  lead_id: 'reference',
  ts: 'submitted_at',
  service: 'service',
  name: 'full_name',
  first_name: 'first_name',
  last_name: 'last_name',
  phone: 'phone_1',
  email: 'email',
  address: 'address_1',
  city: 'city',
  state: 'state',
  zip: 'postal_code',
  homeowner: 'owner',
  tcpa_consent: 'tcpa_consent',
  tcpa_language: 'tcpa_language',
  trusted_form: 'trustedform_cert_url',
  jornaya: 'leadid_token',
  ip: 'ip_address',
  user_agent: 'user_agent',
  pub_id: 'pub_id',
  sub_id: 'sub_id',
  price: 'price',
  test: 'test',
});

/** The answer settings of a LeadConduit flow: success, its reason, its lead id, and "error" to try again. */
const LEADCONDUIT_ANSWER = {
  accept: fieldRows({ outcome: 'success' }),
  reason_field: 'reason',
  return_id: 'lead.id',
  retry: fieldRows({ outcome: 'error' }),
};

async function leadConduitBuyer(state: string, path: string, overrides: object = {}, price = 40) {
  const login = await createBuyerWithLogin(t);
  const campaignId = await createCampaign(t, login.buyer._id, { price, states: [state] });
  const delivery = await createDelivery(t, admin.cookie, {
    buyer: login.buyer._id,
    name: `LeadConduit ${path}`,
    url: flow.url(path),
    map: LEADCONDUIT_MAPPING,
    ...LEADCONDUIT_ANSWER,
    status: 'live',
    ...overrides,
  });
  return { buyerId: login.buyer._id, cookie: login.cookie, campaignId, delivery };
}

const CERT = `https://cert.trustedform.com/${'0123456789abcdef'.repeat(2)}01234567`;

function consumer(state: string) {
  return {
    service: 'roofing',
    zip: ZIP_OF_STATE[state],
    first_name: 'Jane',
    last_name: 'Doe',
    phone: uniquePhone(),
    email: `jane.${Math.random().toString(36).slice(2)}@example.com`,
    address: '100 Congress Ave',
    city: 'Springfield',
    homeowner: true,
    tcpa_consent: true,
    tcpa_language: 'By clicking Submit I agree to be contacted.',
    trusted_form: CERT,
    jornaya: 'A1B2C3D4-E5F6-4A7B-8C9D-0E1F2A3B4C5D',
    ip: '203.0.113.10',
    user_agent: 'Mozilla/5.0 (X11; Linux x86_64)',
    pub_id: 'pub-7',
    sub_id: 'sub-9',
  };
}

async function post(state: string) {
  const sent = consumer(state);
  const res = await t.sourceApi('/api/lead', source.apiKey, sent);
  expect(res.statusCode, res.body).toBe(200);
  return { sent, answer: res.json() as { ok: boolean; lead_id: string; status?: string } };
}

const matchesOf = (leadId: string) => t.database.db.select().from(leadMatches).where(eq(leadMatches.leadId, leadId));
const leadDetail = (leadId: string, as: string, query = '') =>
  t.request({ method: 'GET', url: `/api/lead/${leadId}${query}`, as });

describe('a custom delivery to a LeadConduit flow', () => {
  it('maps every field of the lead as LeadConduit reads it, and keeps its lead id on the match', async () => {
    const buyer = await leadConduitBuyer('TX', '/flows/tx/sources/leadex/submit');
    flow.answer('/flows/tx/sources/leadex/submit', [{ outcome: 'success', leadId: 'LC-5f2a9c' }]);

    const { sent, answer } = await post('TX');
    expect(answer).toMatchObject({ ok: true, status: 'sold' });
    const [submission] = flow.on('/flows/tx/sources/leadex/submit');
    expect(submission?.contentType).toBe('application/json');
    const [lead] = await t.database.db.select().from(leads).where(eq(leads.id, answer.lead_id));
    expect(submission?.lead).toEqual({
      reference: answer.lead_id,
      submitted_at: Math.floor((lead?.createdAt.getTime() ?? 0) / 1000),
      service: 'roofing',
      full_name: 'Jane Doe',
      first_name: sent.first_name,
      last_name: sent.last_name,
      phone_1: sent.phone,
      email: sent.email,
      address_1: sent.address,
      city: sent.city,
      state: 'TX',
      postal_code: sent.zip,
      owner: true,
      tcpa_consent: true,
      tcpa_language: sent.tcpa_language,
      trustedform_cert_url: CERT,
      leadid_token: sent.jornaya,
      ip_address: sent.ip,
      user_agent: sent.user_agent,
      pub_id: sent.pub_id,
      sub_id: sent.sub_id,
      price: 40,
      test: false,
    });

    const [match] = await matchesOf(answer.lead_id);
    expect(match).toMatchObject({ rejected: false, buyerLeadId: 'LC-5f2a9c' });
    const adminView = await leadDetail(answer.lead_id, admin.cookie, '?includeNotifyLogs=true');
    expect(adminView.json().match[0]).toMatchObject({ buyer_lead_id: 'LC-5f2a9c' });
    expect(adminView.json().match[0].delivery_reason).toBeUndefined();
    const buyerView = await leadDetail(answer.lead_id, buyer.cookie);
    expect(buyerView.statusCode).toBe(200);
    expect(buyerView.json().match).toEqual([expect.objectContaining({ buyer_lead_id: 'LC-5f2a9c' })]);
  });

  it("a failure is read as Not Accepted: the next buyer takes the lead, and LeadConduit's reason is shown on it", async () => {
    const refusing = await leadConduitBuyer('CA', '/flows/ca/submit', {}, 60);
    const next = await createBuyer(t);
    const nextCampaign = await createCampaign(t, next._id, { price: 40, states: ['CA'] });
    flow.answer('/flows/ca/submit', [{ outcome: 'failure', reason: 'Duplicate lead (seen 3 days ago)' }]);

    const { answer } = await post('CA');
    expect(answer).toMatchObject({ ok: true, status: 'sold' });
    const matches = await matchesOf(answer.lead_id);
    expect(matches.map((m) => [m.campaignId, m.rejected]).sort()).toEqual(
      [
        [refusing.campaignId, true],
        [nextCampaign, false],
      ].sort(),
    );
    const [lead] = await t.database.db.select().from(leads).where(eq(leads.id, answer.lead_id));
    expect(await unpackExplanation(t.database.db, lead?.explanation ?? null)).toContainEqual(
      expect.objectContaining({
        campaign: refusing.campaignId,
        rule: 'delivery',
        detail: `Not Accepted by ${refusing.delivery.name}: Duplicate lead (seen 3 days ago)`,
      }),
    );

    const adminView = (
      await leadDetail(answer.lead_id, admin.cookie, '?includeNotifyLogs=true&includeMatchLog=true')
    ).json();
    const refused = adminView.match.find((m: { campaign: { _id: string } }) => m.campaign._id === refusing.campaignId);
    expect(refused).toMatchObject({ reject: true, delivery_reason: 'Duplicate lead (seen 3 days ago)' });
    expect(refused.custom).toEqual([
      expect.objectContaining({
        accept: false,
        reason: 'Duplicate lead (seen 3 days ago)',
        error: 'Not Accepted: Duplicate lead (seen 3 days ago)',
      }),
    ]);
    // The refusing buyer sees its own system's reason on its match.
    const buyerView = await leadDetail(answer.lead_id, refusing.cookie);
    expect(buyerView.json().match).toEqual([
      expect.objectContaining({ reject: true, delivery_reason: 'Duplicate lead (seen 3 days ago)' }),
    ]);
  });

  it('reads an XML answer the same way: the reason of a failure, sent and answered as XML', async () => {
    const refusing = await leadConduitBuyer('NY', '/flows/ny/submit', {
      send_content_type: 'xml',
      return_content_type: 'xml',
    });
    flow.answer('/flows/ny/submit', [{ outcome: 'failure', reason: 'Outside service area' }]);

    const { sent, answer } = await post('NY');
    const [submission] = flow.on('/flows/ny/submit');
    expect(submission?.contentType).toBe('application/xml');
    // XML carries text: LeadConduit reads every value as such.
    expect(submission?.lead).toMatchObject({ phone_1: sent.phone, owner: 'true', postal_code: sent.zip });
    const refused = (await matchesOf(answer.lead_id)).find((m) => m.campaignId === refusing.campaignId);
    expect(refused?.rejected).toBe(true);
    const [attempt] = await deliveryAttemptsOf(t.database.db, refused?.id as string);
    expect(attempt).toMatchObject({ accepted: false, last: true, reason: 'Outside service area' });
  });

  it('an outcome of error is retried with the backoff, and the lead is delivered when the flow takes it', async () => {
    const buyer = await leadConduitBuyer('AZ', '/flows/az/submit');
    flow.answer('/flows/az/submit', [
      { outcome: 'error', reason: 'Database timeout' },
      { outcome: 'success', leadId: 'LC-after-retry' },
    ]);

    const { answer } = await post('AZ');
    // The buyer did not refuse the lead: the sale stands, and a job delivers it again.
    expect(answer).toMatchObject({ ok: true, status: 'sold' });
    const [match] = await matchesOf(answer.lead_id);
    expect(match).toMatchObject({ campaignId: buyer.campaignId, rejected: false });
    const id = match?.id as string;
    await eventually(async () => (await deliveryAttemptsOf(t.database.db, id)).some((a) => a.accepted), 10_000);
    const attempts = await deliveryAttemptsOf(t.database.db, id);
    expect(attempts.map((a) => [a.attempt, a.accepted, a.last, a.reason])).toEqual([
      [1, false, false, 'Database timeout'],
      [2, true, false, null],
    ]);
    expect(flow.on('/flows/az/submit')).toHaveLength(2);
    const [after] = await matchesOf(answer.lead_id);
    expect(after).toMatchObject({ deliveryStatus: 'delivered', buyerLeadId: 'LC-after-retry', returnStatus: null });
    // Delivered at last: no reason stands on the match.
    const view = await leadDetail(answer.lead_id, buyer.cookie);
    expect(view.json().match[0].delivery_reason).toBeUndefined();
  });

  it('an outcome of error until the retries run out is a failure: undelivered, unbilled, with the reason', async () => {
    const buyer = await leadConduitBuyer('FL', '/flows/fl/submit');
    flow.answer('/flows/fl/submit', [{ outcome: 'error', reason: 'Service unavailable' }]);

    const { answer } = await post('FL');
    const [match] = await matchesOf(answer.lead_id);
    const id = match?.id as string;
    await eventually(async () => (await matchesOf(answer.lead_id))[0]?.deliveryStatus === 'undelivered', 10_000);
    await eventually(() => notifyJobsSettled(t.database.db, id), 10_000, 'jobs settled');
    const attempts = await deliveryAttemptsOf(t.database.db, id);
    // The sale's try, then one per retry delay (QUICK_DELIVERIES: two).
    expect(attempts.map((a) => [a.attempt, a.accepted, a.last])).toEqual([
      [1, false, false],
      [2, false, false],
      [3, false, true],
    ]);
    expect(attempts.every((a) => a.reason === 'Service unavailable')).toBe(true);
    const view = await leadDetail(answer.lead_id, buyer.cookie);
    expect(view.json().match[0]).toMatchObject({ delivery_reason: 'Service unavailable' });
  });
});
