import { leadConduitAnswerSchema, SOURCE_API_REASONS, saleAnswerSchema } from '@leadex/domain';
import { XMLParser } from 'fast-xml-parser';
import { beforeAll, describe, expect, it } from 'vitest';
import { createBuyer, createCampaign, createSourceWithKey, leadInput, ZIP_OF_STATE } from '../../../test/factories';
import { useAdminTestApp } from '../../../test/harness';
import { documentedRoutes } from '../../../test/openapi';
import { toLeadConduit } from './source-api.answers';

/**
 * Issue 32 item 7: the answer in the format the request asks for (`response_format`, or an Accept header
 * preferring XML): today's JSON unchanged by default, the same content as XML, or LeadConduit's shape.
 */
const { t, admin } = useAdminTestApp({ PUBLIC_API_RATE_LIMIT: 0 });
let apiKey = '';
let sourceId = '';

const SOLD = { service: 'roofing', zip: ZIP_OF_STATE.CO };
const UNSOLD = { service: 'roofing', zip: ZIP_OF_STATE.OH };

beforeAll(async () => {
  const buyer = await createBuyer(t);
  await createCampaign(t, buyer._id, { price: 60, states: ['CO'], services: ['roofing'] });
  ({ apiKey, sourceId } = await createSourceWithKey(t, { maxCost: 20 }));
});

const lead = (url: string, payload: Record<string, unknown>, headers: Record<string, string> = {}) =>
  t.sourceApi(url, apiKey, leadInput(payload), headers);
const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', parseTagValue: false });

describe('the default answer', () => {
  it('stays JSON, as before, with no response_format, with json, and for an Accept preferring JSON', async () => {
    for (const [url, headers] of [
      ['/api/lead', {}],
      ['/api/lead?response_format=json', {}],
      ['/api/lead', { accept: 'application/json;q=0.9,text/xml;q=0.8,application/xml;q=0.7' }],
      ['/api/lead', { accept: '*/*' }],
      ['/api/lead', { accept: 'text/html' }],
    ] as const) {
      const res = await lead(url, SOLD, headers);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      const body = res.json();
      expect(Object.keys(body)).toEqual(['ok', 'lead_id', 'price', 'status']);
      expect(saleAnswerSchema.parse(body)).toMatchObject({ ok: true, price: 20, status: 'sold' });
    }
  });
});

describe('response_format=leadconduit', () => {
  it('answers a sale as success with the price and lead.id', async () => {
    const res = await lead('/api/lead?response_format=leadconduit', SOLD);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.json()).toEqual({ outcome: 'success', lead: { id: expect.stringMatching(/^lead_/) }, price: 20 });
  });

  it('answers no match as failure with a reason a person reads, the code and the lead kept', async () => {
    const res = await lead('/api/lead?RESPONSE_FORMAT=LeadConduit', UNSOLD);
    expect(res.json()).toEqual({
      outcome: 'failure',
      reason: expect.stringMatching(/^No buyer takes this lead now/),
      code: 'no_match',
      lead: { id: expect.stringMatching(/^lead_/) },
    });
  });

  it('answers a ping with its price and ping_id', async () => {
    const res = await t.sourceApi('/api/ping?response_format=leadconduit', apiKey, SOLD);
    expect(res.json()).toEqual({
      outcome: 'success',
      ping_id: expect.any(String),
      price: 20,
      expires: expect.any(Number),
    });
  });

  it('answers a bad field (400) as failure with the message, and an unknown key (401) as error', async () => {
    const invalid = await lead('/api/lead?response_format=leadconduit', { ...SOLD, zip: '1' });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json()).toMatchObject({
      outcome: 'failure',
      reason: 'zip must be a 5-digit ZIP code',
      code: 'invalid',
      errors: { zip: 'zip must be a 5-digit ZIP code' },
    });
    const unknown = await t.sourceApi('/api/lead?response_format=leadconduit', 'lx_nope', leadInput(SOLD));
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json()).toEqual({ outcome: 'error', reason: 'Unknown API key', code: 'unauthorized' });
  });

  it('answers a body it cannot read (415, before any route) in the format asked too', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/lead?response_format=leadconduit',
      payload: 'x',
      headers: { 'content-type': 'application/pdf', authorization: `Bearer ${apiKey}` },
    });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toMatchObject({ outcome: 'failure', code: 'invalid' });
  });
});

describe('XML answers', () => {
  it('answers the same content as XML with response_format=xml', async () => {
    const json = (await lead('/api/lead', UNSOLD)).json();
    const res = await lead('/api/lead?response_format=xml', UNSOLD);
    expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(res.body.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<response>')).toBe(true);
    const { response } = xml.parse(res.body);
    expect(Object.keys(response)).toEqual(Object.keys(json));
    expect(response).toMatchObject({ ok: 'false', reason: 'no_match', lead_id: expect.stringMatching(/^lead_/) });
  });

  it('answers XML to an Accept header preferring it, as text/xml when that is what it takes', async () => {
    const res = await lead('/api/lead', SOLD, { accept: 'text/xml' });
    expect(res.headers['content-type']).toBe('text/xml; charset=utf-8');
    expect(xml.parse(res.body).response).toMatchObject({ ok: 'true', price: '20', status: 'sold' });
    const lc = await lead('/api/lead?response_format=leadconduit', SOLD, { accept: 'application/xml' });
    expect(lc.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(xml.parse(lc.body).response).toMatchObject({
      outcome: 'success',
      price: '20',
      lead: { id: expect.any(String) },
    });
  });

  it('writes field errors as <error field="…"> elements, whatever the field is called', async () => {
    const res = await lead('/api/lead?response_format=xml', { ...SOLD, zip: '1', test: 'maybe' });
    expect(res.statusCode).toBe(400);
    const { response } = xml.parse(res.body);
    expect(response.errors.error).toEqual(
      expect.arrayContaining([
        { field: 'zip', '#text': 'zip must be a 5-digit ZIP code' },
        { field: 'test', '#text': 'test must be true or false' },
      ]),
    );
  });
});

describe("the source's own answer format, set by an admin", () => {
  const setFormat = (answer_format: unknown) =>
    t.request({ method: 'PUT', url: `/api/source/${sourceId}`, as: admin.cookie, payload: { answer_format } });

  it('answers the source in it when a request names none; a request naming one wins; empty is JSON again', async () => {
    try {
      const set = await setFormat('leadconduit');
      expect(set.statusCode).toBe(200);
      expect(set.json()).toMatchObject({ answer_format: 'leadconduit' });
      expect((await lead('/api/lead', SOLD)).json()).toMatchObject({ outcome: 'success', price: 20 });
      // Refusals after the key too, in the source's format.
      expect((await lead('/api/lead', { ...SOLD, zip: '1' })).json()).toMatchObject({ outcome: 'failure' });
      // An Accept preferring XML gives its XML form; response_format=json the default JSON.
      const asXml = await lead('/api/lead', SOLD, { accept: 'application/xml' });
      expect(xml.parse(asXml.body).response).toMatchObject({ outcome: 'success' });
      expect((await lead('/api/lead?response_format=json', SOLD)).json()).toMatchObject({ ok: true, status: 'sold' });
      // An unknown key is not the source's: its 401 stays in the default JSON.
      const unknown = await t.sourceApi('/api/lead', 'lx_nope', leadInput(SOLD));
      expect(unknown.json()).toMatchObject({ ok: false, reason: 'unauthorized' });

      const cleared = await setFormat('');
      expect(cleared.statusCode).toBe(200);
      expect(cleared.json().answer_format).toBeUndefined();
      expect((await lead('/api/lead', SOLD)).json()).toMatchObject({ ok: true, status: 'sold' });
    } finally {
      await setFormat(null);
    }
  });

  it('refuses an unknown format with 400 naming the field', async () => {
    const res = await setFormat('yaml');
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({
      answer_format: 'Answer format must be one of json, xml, leadconduit, leadconduit_xml',
    });
  });
});

describe('an unknown response_format', () => {
  it('is refused with 400 naming the parameter, after the key is checked', async () => {
    const res = await lead('/api/lead?response_format=yaml', SOLD);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      ok: false,
      reason: 'invalid',
      errors: { response_format: 'response_format must be one of json, xml, leadconduit, leadconduit_xml' },
    });
    const noKey = await t.request({ method: 'POST', url: '/api/lead?response_format=yaml', payload: leadInput(SOLD) });
    expect(noKey.statusCode).toBe(401);
  });
});

describe('toLeadConduit', () => {
  it('makes a failure of the reasons that refuse the lead itself, an error of every other', () => {
    const outcomes = Object.fromEntries(
      [...new Set(SOURCE_API_REASONS.map(({ reason }) => reason))].map((reason) => [
        reason,
        toLeadConduit({ ok: false, reason }).outcome,
      ]),
    );
    expect(outcomes).toEqual({
      no_match: 'failure',
      duplicate: 'failure',
      suppressed: 'failure',
      invalid: 'failure',
      expired: 'failure',
      unauthorized: 'error',
      held: 'error',
      forbidden: 'error',
      not_approved: 'error',
      no_payout: 'error',
      conflict: 'error',
      idempotency_key_reused: 'error',
      rate_limited: 'error',
      error: 'error',
      unavailable: 'error',
    });
  });

  it('keeps a test sale a success, marked test, and checks its shape', () => {
    const answer = toLeadConduit({ ok: true, lead_id: 'lead_1', price: 12.5, status: 'sold', test: true });
    expect(answer).toEqual({ outcome: 'success', lead: { id: 'lead_1' }, price: 12.5, test: true });
    expect(leadConduitAnswerSchema.parse(answer)).toEqual(answer);
  });
});

describe('the OpenAPI document', () => {
  it('declares the response_format parameter and the LeadConduit and XML answers of each public route', () => {
    const routes = documentedRoutes(t.app).filter((route) =>
      ['/api/ping', '/api/post', '/api/lead'].includes(route.path),
    );
    expect(routes).toHaveLength(3);
    for (const route of routes) {
      const operation = route.operation as unknown as {
        parameters?: { name: string; in: string }[];
        responses: Record<string, { content?: Record<string, { schema?: { anyOf?: unknown[] } }> }>;
      };
      expect(operation.parameters).toContainEqual(expect.objectContaining({ name: 'response_format', in: 'query' }));
      const ok = operation.responses['200']?.content ?? {};
      expect(Object.keys(ok)).toEqual(['application/json', 'application/xml']);
      expect(JSON.stringify(ok['application/json']?.schema)).toContain('outcome');
    }
  });
});
