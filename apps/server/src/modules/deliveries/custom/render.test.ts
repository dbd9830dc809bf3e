import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { fieldRows, useAnsweringServer } from '../../../../test/receivers';
import type { DeliveryTarget } from '../../../distribution/ports';
import {
  type DeliveryLead,
  deliverCustom,
  isRetryAnswer,
  isRetryable,
  parseResponse,
  REASON_MAX_LENGTH,
  reasonOf,
  renderRequest,
  responseField,
  testLead,
} from './render';

/** A buyer's system: a local server answering as each test says. */
const receiver = useAnsweringServer('{"status":"ok","id":"B-1"}');

const lead: DeliveryLead = {
  lead_id: 'lead_1',
  first_name: 'Jane',
  last_name: 'Doe',
  phone: '5125550100',
  email: 'jane@example.com',
  zip: '78701',
  homeowner: true,
  price: 45,
  jornaya: null,
};

const target = (overrides: Partial<DeliveryTarget> = {}): DeliveryTarget => ({
  url: `${receiver.base}/leads`,
  method: 'POST',
  headers: [],
  accept: [],
  send_content_type: 'json',
  return_content_type: 'json',
  map: fieldRows({ first_name: 'FirstName', phone: 'Phone', homeowner: 'Owner', price: 'Price', jornaya: 'LeadiD' }),
  static: fieldRows({ Source: 'leadex' }),
  ...overrides,
});

const deliver = (t: DeliveryTarget, options: Parameters<typeof deliverCustom>[2] = {}) =>
  deliverCustom(t, lead, { allowPrivate: true, ...options });

const MEDIA_TYPES = { xml: 'application/xml', form: 'application/x-www-form-urlencoded' } as const;

/**
 * Sends the lead as `type` to a buyer answering `answer` in the same type (the delivery set to read
 * that type back): the request as the buyer received it, labelled as that type, and the result.
 */
async function deliverBothWays(type: keyof typeof MEDIA_TYPES, answer: string, overrides: Partial<DeliveryTarget>) {
  receiver.answer = (res) => res.writeHead(200, { 'content-type': MEDIA_TYPES[type] }).end(answer);
  const result = await deliver(target({ send_content_type: type, return_content_type: type, ...overrides }));
  const sent = receiver.hits[0];
  expect(sent?.headers['content-type']).toBe(MEDIA_TYPES[type]);
  return { sent, result };
}

describe('rendering a lead through a delivery', () => {
  it('JSON: mapping rows under the buyer names, hardcoded values, key and secret, typed values', async () => {
    const result = await deliver(target({ key: 'k-123', keyname: 'ApiKey', secret: 's-456' }));
    const sent = receiver.hits[0];
    expect(sent?.method).toBe('POST');
    expect(sent?.headers['content-type']).toBe('application/json');
    expect(sent?.headers.accept).toBe('application/json');
    expect(JSON.parse(sent?.body ?? '')).toEqual({
      FirstName: 'Jane',
      Phone: '5125550100',
      Owner: true,
      Price: 45,
      LeadiD: null,
      Source: 'leadex',
      ApiKey: 'k-123',
      secret: 's-456',
    });
    expect(result.reqBody).toBe(sent?.body);
    expect(result.url).toBe(`${receiver.base}/leads`);
  });

  it('the wrap key wraps the body; PUT and header rows are used; a header row replaces a default', async () => {
    await deliver(
      target({
        method: 'PUT',
        wrap_key: 'lead',
        headers: [
          { header: 'X-Api-Token', value: 't0k' },
          { header: 'content-type', value: 'application/vnd.buyer+json' },
        ],
      }),
    );
    const sent = receiver.hits[0];
    expect(sent?.method).toBe('PUT');
    expect(sent?.headers['x-api-token']).toBe('t0k');
    expect(sent?.headers['content-type']).toBe('application/vnd.buyer+json');
    expect(Object.keys(JSON.parse(sent?.body ?? ''))).toEqual(['lead']);
    expect(JSON.parse(sent?.body ?? '').lead.Phone).toBe('5125550100');
  });

  it('XML: one element per field under the wrap key (or <lead>), values escaped', async () => {
    const answer = '<response><result>success</result><leadId>X-9</leadId></response>';
    const { sent, result } = await deliverBothWays('xml', answer, {
      wrap_key: 'Lead',
      static: [{ field: 'Note', value: 'A & B <ok>' }],
      accept: [{ field: 'result', value: 'success' }],
      return_id: 'leadId',
    });
    expect(sent?.body.startsWith('<?xml version="1.0" encoding="UTF-8"?><Lead>')).toBe(true);
    expect(sent?.body).toContain('A &amp; B &lt;ok&gt;');
    const parsed = new XMLParser({ parseTagValue: false, ignoreDeclaration: true }).parse(sent?.body ?? '');
    expect(parsed.Lead).toMatchObject({ FirstName: 'Jane', Phone: '5125550100', Owner: 'true', LeadiD: '' });
    expect(result).toMatchObject({ accepted: true, status: 200, returnId: 'X-9' });
    expect(result.data).toEqual({ response: { result: 'success', leadId: 'X-9' } });
  });

  it('form: url-encoded fields, wrapped as wrap[field]; a form answer is read as fields', async () => {
    const { sent, result } = await deliverBothWays('form', 'result=ok&ref=F%2D7', {
      wrap_key: 'lead',
      accept: [{ field: 'result', value: 'ok' }],
      return_id: 'ref',
    });
    const params = new URLSearchParams(sent?.body);
    expect(params.get('lead[Phone]')).toBe('5125550100');
    expect(params.get('lead[Owner]')).toBe('true');
    expect(params.get('lead[Source]')).toBe('leadex');
    expect(result).toMatchObject({ accepted: true, returnId: 'F-7', data: { result: 'ok', ref: 'F-7' } });
  });
});

describe('accept rules and return_id', () => {
  it('Accepted when every field/value pair matches the response', async () => {
    const result = await deliver(target({ accept: [{ field: 'status', value: 'ok' }], return_id: 'id' }));
    expect(result).toMatchObject({ accepted: true, status: 200, returnId: 'B-1', data: { status: 'ok', id: 'B-1' } });
    expect(result.error).toBeUndefined();
  });

  it('Not Accepted when a pair does not match', async () => {
    receiver.answer = (res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"rejected","reason":"duplicate"}');
    const result = await deliver(target({ accept: [{ field: 'status', value: 'ok' }], return_id: 'id' }));
    expect(result).toMatchObject({ accepted: false, status: 200, returnId: undefined });
    expect(isRetryable(result)).toBe(false);
  });

  it('reads nested fields by dotted path', async () => {
    receiver.answer = (res) => res.writeHead(201).end('{"result":{"code":1,"lead":{"id":77}}}');
    const result = await deliver(
      target({ accept: [{ field: 'result.code', value: '1' }], return_id: 'result.lead.id' }),
    );
    expect(result).toMatchObject({ accepted: true, status: 201, returnId: '77' });
  });

  it('without rules any 2xx is accepted', async () => {
    receiver.answer = (res) => res.writeHead(204).end();
    expect((await deliver(target())).accepted).toBe(true);
  });

  it('an answer that is not the return content type is kept as text and is not accepted by rules', async () => {
    receiver.answer = (res) => res.writeHead(200).end('OK');
    const result = await deliver(target({ accept: [{ field: 'status', value: 'ok' }] }));
    expect(result).toMatchObject({ accepted: false, data: 'OK', responseBody: 'OK' });
  });
});

describe("the buyer's reason and its try-again answer (issue 32)", () => {
  const leadConduit = {
    accept: fieldRows({ outcome: 'success' }),
    retry: fieldRows({ outcome: 'error' }),
    reason_field: 'reason',
    return_id: 'lead.id',
  };
  const answer = (body: object) => {
    receiver.answer = (res) => res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };

  it('a failure: Not Accepted with its reason, and not worth retrying', async () => {
    answer({ outcome: 'failure', reason: 'Duplicate lead', lead: { id: 'LC-1' }, price: 0 });
    const result = await deliver(target(leadConduit));
    expect(result).toMatchObject({ accepted: false, reason: 'Duplicate lead', returnId: 'LC-1' });
    expect(result.retryAnswer).toBeUndefined();
    expect(isRetryable(result)).toBe(false);
  });

  it('an error: Not Accepted, its reason kept, and retried', async () => {
    answer({ outcome: 'error', reason: 'Database timeout', price: 0 });
    const result = await deliver(target(leadConduit));
    expect(result).toMatchObject({ accepted: false, reason: 'Database timeout', retryAnswer: true });
    expect(isRetryable(result)).toBe(true);
  });

  it('a success: accepted, no reason read even when the answer has one, never a retry', async () => {
    answer({ outcome: 'success', reason: 'ignored', lead: { id: 'LC-2' } });
    const result = await deliver(target({ ...leadConduit, retry: fieldRows({ reason: 'ignored' }) }));
    expect(result).toMatchObject({ accepted: true, returnId: 'LC-2' });
    expect(result.reason).toBeUndefined();
    expect(result.retryAnswer).toBeUndefined();
  });

  it('without retry rules, any Not Accepted answer refuses the lead as before', async () => {
    answer({ outcome: 'error' });
    const result = await deliver(target({ accept: leadConduit.accept }));
    expect(isRetryable(result)).toBe(false);
  });

  it('a retry rule on a non-2xx answer changes nothing: a 4xx is refused, a 5xx retried', () => {
    const retry = fieldRows({ outcome: 'error' });
    expect(isRetryAnswer(400, { outcome: 'error' }, retry)).toBe(false);
    expect(isRetryAnswer(299, { outcome: 'error' }, retry)).toBe(true);
    expect(isRetryAnswer(200, { outcome: 'failure' }, retry)).toBe(false);
    expect(isRetryAnswer(200, { outcome: 'error' }, [])).toBe(false);
  });

  it('reads the reason from XML under its root, joins a list, and keeps it short and on one line', () => {
    const xml = parseResponse('<result><outcome>failure</outcome><reason>Bad\n  phone</reason></result>', 'xml');
    expect(reasonOf(xml, 'reason')).toBe('Bad phone');
    expect(reasonOf({ reason: ['Bad phone', 'Bad email'] }, 'reason')).toBe('Bad phone, Bad email');
    expect(reasonOf({ reason: 'x'.repeat(REASON_MAX_LENGTH + 50) }, 'reason')).toHaveLength(REASON_MAX_LENGTH);
    expect(reasonOf({ reason: '  ' }, 'reason')).toBeUndefined();
    expect(reasonOf({ reason: { nested: true } }, 'reason')).toBeUndefined();
    expect(reasonOf({ reason: 'x' }, undefined)).toBeUndefined();
  });
});

describe('failures', () => {
  it('a 5xx is not accepted and is worth retrying', async () => {
    receiver.answer = (res) => res.writeHead(503).end('{"status":"ok"}');
    const result = await deliver(target({ accept: [{ field: 'status', value: 'ok' }] }));
    expect(result).toMatchObject({ accepted: false, status: 503 });
    expect(isRetryable(result)).toBe(true);
  });

  it('a timeout answers status 0 with the error, and is worth retrying', async () => {
    receiver.answer = () => {};
    const result = await deliver(target(), { timeoutMs: 200 });
    expect(result).toMatchObject({ accepted: false, status: 0, errorCode: 'timeout' });
    expect(result.error).toMatch(/No answer within 0.2 s/);
    expect(result.reqBody).toContain('5125550100');
    expect(isRetryable(result)).toBe(true);
  });

  it('a private target is refused unless allowed, and that is not retried', async () => {
    const result = await deliverCustom(target(), lead, { allowPrivate: false });
    expect(result).toMatchObject({ accepted: false, status: 0, errorCode: 'blocked' });
    expect(receiver.hits).toHaveLength(0);
    expect(isRetryable(result)).toBe(false);
  });

  it('sends the message id as webhook-id so a retry can be dropped', async () => {
    await deliver(target(), { messageId: 'mat_1:custom' });
    expect(receiver.hits[0]?.headers['webhook-id']).toBe('mat_1:custom');
  });
});

describe('helpers', () => {
  it('parseResponse falls back to text', () => {
    expect(parseResponse('{bad', 'json')).toBe('{bad');
    expect(parseResponse('plain', 'xml')).toBe('plain');
    expect(parseResponse('', 'json')).toBe('');
  });

  it('responseField finds fields under an XML root', () => {
    expect(responseField({ response: { status: 'ok' } }, 'status')).toBe('ok');
    expect(responseField({ a: [{ b: 1 }] }, 'a.0.b')).toBe(1);
  });

  it('testLead starts from the samples and types the test values', () => {
    const built = testLead({ test_phone: '5125550199', test_homeowner: 'false', test_price: '12.50', other: 'x' });
    expect(built).toMatchObject({ phone: '5125550199', homeowner: false, price: 12.5, first_name: 'Jane' });
    expect(built.other).toBeUndefined();
  });

  it('renderRequest does not send with the default names twice', () => {
    const request = renderRequest(target({ headers: [{ header: 'ACCEPT', value: 'text/plain' }] }), lead);
    expect(Object.keys(request.headers).filter((h) => h.toLowerCase() === 'accept')).toEqual(['ACCEPT']);
  });
});
