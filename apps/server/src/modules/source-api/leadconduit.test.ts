import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { createBuyer, createCampaign, createSourceWithKey, uniquePhone, ZIP_OF_STATE } from '../../../test/factories';
import { useAdminTestApp } from '../../../test/harness';
import { leads } from '../../db/schema';

/**
 * Issue 32 item 7, "Must show": leads sent to a Leadex server (listening on port 0) through LeadConduit's
 * own published modules, configured as a LeadConduit user would, and Leadex's answers read back with
 * those modules' response parsers. Each module builds its request (`request(vars)`), a real HTTP client
 * sends it, and the module reads the answer (`response(vars, req, res)`) with the response headers named
 * as LeadConduit hands them over (`Content-Type`).
 */

/** A LeadConduit integration's outbound step: what it sends, and how it reads what comes back. */
interface Outbound {
  request(vars: Record<string, unknown>): {
    url: string;
    method: string;
    headers: Record<string, string | number>;
    body?: string;
  };
  response(
    vars: Record<string, unknown>,
    req: unknown,
    res: { status: number; version: string; headers: Record<string, string>; body: string },
  ): LeadConduitEvent;
  validate?(vars: Record<string, unknown>): string | undefined;
}

/** What LeadConduit records of a recipient's answer. */
interface LeadConduitEvent {
  outcome: 'success' | 'failure' | 'error';
  reason?: string;
  price?: number | string;
  reference?: string;
  lead?: { id?: string };
  [field: string]: unknown;
}

const require = createRequire(import.meta.url);
const custom = require('leadconduit-custom') as { outbound: { json: Outbound; form: Outbound; xml: Outbound } };
const standard = require('leadconduit-default') as { outbound: Outbound };
const types = require('leadconduit-types') as Record<string, { parse(raw: string): unknown }>;

const { t, admin } = useAdminTestApp({ PUBLIC_API_RATE_LIMIT: 0 });
let base = '';
let apiKey = '';
let sourceId = '';

const SOLD_ZIP = ZIP_OF_STATE.TX as string;
/** No campaign buys New York in this file. */
const UNSOLD_ZIP = ZIP_OF_STATE.NY as string;

beforeAll(async () => {
  const buyer = await createBuyer(t);
  await createCampaign(t, buyer._id, { price: 60, states: ['TX'], services: ['roofing'] });
  ({ apiKey, sourceId } = await createSourceWithKey(t, { maxCost: 20 }));
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});

/** "content-type" as LeadConduit names response headers for its integrations: "Content-Type". */
const headerName = (name: string) =>
  name.replace(/(^|-)([a-z])/g, (_, dash: string, c: string) => dash + c.toUpperCase());

/** One delivery as LeadConduit makes it: validate the settings, build the request, send it, read the answer. */
async function deliver(integration: Outbound, vars: Record<string, unknown>): Promise<LeadConduitEvent> {
  expect(integration.validate?.(vars)).toBeUndefined();
  const req = integration.request(vars);
  const headers = Object.fromEntries(
    Object.entries(req.headers)
      // fetch computes the length of what it sends itself.
      .filter(([name]) => name.toLowerCase() !== 'content-length')
      .map(([name, value]) => [name, String(value)]),
  );
  const res = await fetch(req.url, { method: req.method, headers, body: req.body });
  const body = await res.text();
  const received: Record<string, string> = {};
  res.headers.forEach((value, name) => {
    received[headerName(name)] = value;
  });
  return integration.response(vars, req, { status: res.status, version: '1.1', headers: received, body });
}

/** A lead as LeadConduit holds it: each value parsed by its type (leadconduit-types), as the flow's fields are. */
function lcLead(overrides: Record<string, string | undefined> = {}) {
  const n = uniquePhone();
  const raw: Record<string, string | undefined> = {
    first_name: 'Pat',
    last_name: 'Lee',
    email: `pat.${n}@example.com`,
    phone_1: `${n.slice(0, 3)}-${n.slice(3, 6)}-${n.slice(6)}`,
    postal_code: SOLD_ZIP,
    ...overrides,
  };
  const typeOf: Record<string, string> = {
    email: 'email',
    phone_1: 'phone',
    postal_code: 'postal_code',
    is_test: 'boolean',
  };
  return Object.fromEntries(
    Object.entries(raw)
      .filter((entry): entry is [string, string] => entry[1] !== undefined)
      .map(([field, value]) => [field, types[typeOf[field] ?? 'string']?.parse(value) ?? value]),
  );
}

/** The answer settings a LeadConduit user gives its Custom step for Leadex's LeadConduit-style JSON answer. */
const JSON_ANSWER_SETTINGS = {
  outcome_search_term: 'success',
  outcome_search_path: 'outcome',
  reason_path: 'reason',
  price_path: 'price',
  reference_path: 'lead.id',
};
/** The same for the XML answer: XPath into `<response>`, to each element's text. */
const XML_ANSWER_SETTINGS = {
  outcome_search_term: 'success',
  outcome_search_path: '/response/outcome/text()',
  reason_path: '/response/reason/text()',
  price_path: '/response/price/text()',
  reference_path: '/response/lead/id/text()',
};

/**
 * The lead's fields mapped in a Custom step as a LeadConduit user maps them onto Leadex's names (a
 * field the lead lacks is not sent: LeadConduit leaves out a mapping whose template is empty).
 */
const mapped = (lead: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries({
      service: 'roofing',
      first_name: lead.first_name,
      last_name: lead.last_name,
      email: lead.email,
      phone: lead.phone_1,
      zip: lead.postal_code,
      is_test: lead.is_test,
    }).filter(([, value]) => value !== undefined),
  );

/** The lead a step's `reference` names: an XML step's is a DOM text node, read as its text (as LeadConduit does). */
const leadRow = async (reference: unknown) =>
  (
    await t.database.db
      .select()
      .from(leads)
      .where(eq(leads.id, String(reference)))
  )[0];

/** How each Custom body is set up: its module, where the key goes, the answer format in the URL. */
const CUSTOM_STEPS: [string, (lead: Record<string, unknown>, key: string) => { step: Outbound; vars: object }][] = [
  [
    'JSON, the key as a Bearer header',
    (lead, key) => ({
      step: custom.outbound.json,
      vars: {
        url: `${base}/api/lead?response_format=leadconduit`,
        json_property: mapped(lead),
        header: { Authorization: `Bearer ${key}` },
        ...JSON_ANSWER_SETTINGS,
      },
    }),
  ],
  [
    'form, the key as the HTTP Basic password',
    (lead, key) => ({
      step: custom.outbound.form,
      vars: {
        url: `${base}/api/lead?response_format=leadconduit`,
        form_field: mapped(lead),
        basic_username: 'leadconduit',
        basic_password: key,
        ...JSON_ANSWER_SETTINGS,
      },
    }),
  ],
  [
    'XML, the key as a query parameter, the answer as XML',
    (lead, key) => ({
      step: custom.outbound.xml,
      vars: {
        url: `${base}/api/lead?response_format=leadconduit_xml&apikey=${encodeURIComponent(key)}`,
        xml_path: Object.fromEntries(Object.entries(mapped(lead)).map(([field, value]) => [`lead.${field}`, value])),
        ...XML_ANSWER_SETTINGS,
      },
    }),
  ],
];

describe.each(CUSTOM_STEPS)('LeadConduit Custom outbound: %s', (_, configure) => {
  const send = (lead: Record<string, unknown>, key = apiKey) => {
    const { step, vars } = configure(lead, key);
    return deliver(step, vars as Record<string, unknown>);
  };

  it('reads a sale as success, with the price the source is paid and the lead id as reference', async () => {
    const event = await send(lcLead());
    expect(event).toMatchObject({ outcome: 'success' });
    expect(Number(event.price)).toBe(20);
    const row = await leadRow(event.reference as string);
    expect(row).toMatchObject({ sourceId, sold: true, test: false, zip: SOLD_ZIP });
  });

  it('reads no match as failure, with the reason', async () => {
    const event = await send(lcLead({ postal_code: UNSOLD_ZIP }));
    expect(event).toMatchObject({ outcome: 'failure', reason: expect.stringMatching(/^No buyer takes this lead now/) });
    expect(Number(event.price)).toBe(0);
    expect(await leadRow(event.reference as string)).toMatchObject({ sold: false });
  });

  it('reads a test lead as success at the price it would have sold at, nothing sold', async () => {
    const event = await send(lcLead({ is_test: 'true' }));
    expect(event).toMatchObject({ outcome: 'success' });
    expect(Number(event.price)).toBe(20);
    expect(await leadRow(event.reference as string)).toMatchObject({ test: true, sold: false, priceCents: 0 });
  });

  it('reads a lead without its ZIP (400) as failure naming the field', async () => {
    const event = await send(lcLead({ postal_code: undefined }));
    expect(event).toMatchObject({ outcome: 'failure', reason: 'zip is required' });
  });

  it('reads an unknown key (401) as failure with the reason, never as a sale', async () => {
    const event = await send(lcLead(), 'lx_not-a-key');
    expect(event).toMatchObject({ outcome: 'failure', reason: 'Unknown API key' });
    expect(Number(event.price)).toBe(0);
  });
});

/**
 * LeadConduit's Standard recipient (`leadconduit-default`) with NO answer settings: it posts the lead's
 * own field names (`postal_code`, `phone_1`, …) form-encoded, carries no key header (the key goes in the
 * URL), and reads the answer's `outcome`, `reason` and `price` as they are. The service comes as a custom
 * field of the step.
 */
describe('LeadConduit Standard recipient, no answer settings', () => {
  const send = (lead: Record<string, unknown>, key = apiKey) =>
    deliver(standard.outbound, {
      url: `${base}/api/lead?apikey=${encodeURIComponent(key)}&response_format=leadconduit`,
      method: 'POST',
      lead,
      default: { custom: { service: 'roofing' } },
    });

  it('reads a sale as success, with the price and the lead id', async () => {
    const event = await send(lcLead());
    expect(event).toMatchObject({ outcome: 'success', price: 20, lead: { id: expect.stringMatching(/^lead_/) } });
    const row = await leadRow(event.lead?.id as string);
    expect(row).toMatchObject({ sourceId, sold: true, test: false, zip: SOLD_ZIP });
  });

  it('reads no match as failure, with the reason', async () => {
    const event = await send(lcLead({ postal_code: UNSOLD_ZIP }));
    expect(event).toMatchObject({ outcome: 'failure', reason: expect.stringMatching(/^No buyer takes this lead now/) });
    expect(event.price).toBeUndefined();
  });

  it("reads a test lead (LeadConduit's is_test) as success, nothing sold", async () => {
    const event = await send(lcLead({ is_test: 'true' }));
    expect(event).toMatchObject({ outcome: 'success', price: 20, test: true });
    expect(await leadRow(event.lead?.id as string)).toMatchObject({ test: true, sold: false, priceCents: 0 });
  });

  it('reads a lead without its ZIP (400) as failure naming the field', async () => {
    const event = await send(lcLead({ postal_code: undefined }));
    expect(event).toMatchObject({ outcome: 'failure', reason: 'zip is required', code: 'invalid' });
  });

  it('reads an unknown key (401) as error: not the lead refused, the step misconfigured', async () => {
    const event = await send(lcLead(), 'lx_not-a-key');
    expect(event).toEqual({ outcome: 'error', reason: 'Unknown API key', code: 'unauthorized' });
  });
});

/**
 * "Nothing to set but the URL" (docs/api.md "Connect from LeadConduit"): a source whose answer format
 * and default service the exchange's admin set. The Standard recipient's URL carries only the key: no
 * `response_format`, no custom `service` field, no answer settings.
 */
describe('LeadConduit Standard recipient, nothing set but the URL with the key', () => {
  let ownKey = '';
  beforeAll(async () => {
    const own = await createSourceWithKey(t, { maxCost: 20 });
    ownKey = own.apiKey;
    const set = await t.request({
      method: 'PUT',
      url: `/api/source/${own.sourceId}`,
      as: admin.cookie,
      payload: { answer_format: 'leadconduit', default_service: 'roofing' },
    });
    expect(set.statusCode).toBe(200);
  });
  const send = (lead: Record<string, unknown>, key = ownKey) =>
    deliver(standard.outbound, { url: `${base}/api/lead?apikey=${encodeURIComponent(key)}`, method: 'POST', lead });

  it('reads a sale as success with the price and lead id, no match as failure, a test as success selling nothing', async () => {
    const sold = await send(lcLead());
    expect(sold).toMatchObject({ outcome: 'success', price: 20, lead: { id: expect.stringMatching(/^lead_/) } });
    expect(await leadRow(sold.lead?.id as string)).toMatchObject({ service: 'roofing', sold: true, test: false });

    const unsold = await send(lcLead({ postal_code: UNSOLD_ZIP }));
    expect(unsold).toMatchObject({
      outcome: 'failure',
      reason: expect.stringMatching(/^No buyer takes this lead now/),
    });

    const test = await send(lcLead({ is_test: 'true' }));
    expect(test).toMatchObject({ outcome: 'success', price: 20, test: true });
    expect(await leadRow(test.lead?.id as string)).toMatchObject({ test: true, sold: false, priceCents: 0 });

    const refused = await send(lcLead({ postal_code: undefined }));
    expect(refused).toMatchObject({ outcome: 'failure', reason: 'zip is required' });
  });

  it("reads an unknown key as error: the key's source, and so its answer format, is unknown", async () => {
    const event = await send(lcLead(), 'lx_not-a-key');
    // The default JSON answer has no outcome: the Standard recipient makes an error of it.
    expect(event).toMatchObject({ outcome: 'error' });
  });
});
