import { DELIVERY_FIELD_NAMES, webhookCreateSchema } from '@leadex/domain';
import { eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { createBuyer, createBuyerWithLogin, createSourceWithLogin } from '../../../../test/factories';
import { expectScoped404, useAdminTestApp } from '../../../../test/harness';
import { fieldRows, scriptedNetwork, useAnsweringServer } from '../../../../test/receivers';
import { webhooks } from '../../../db/schema';
import { AppError } from '../../../lib/errors';

// The Test modal runs with the private-address guard on, as in production: the buyer's system has a
// public name that the scripted network resolves and carries to the local receiver.
const net = scriptedNetwork({ 'crm.buyer.test': ['93.184.216.41'], 'crm.internal.test': ['192.168.7.7'] });
const { t, admin } = useAdminTestApp({}, { network: net.network });
/** A buyer's system: a local receiver answering as each test says. */
const receiver = useAnsweringServer('{"status":"ok","id":"B-1"}');
/** The receiver under the buyer system's public name. */
const receiverUrl = () => `http://crm.buyer.test:${receiver.port}/leads`;
/** The same receiver under a name that resolves to a private address (the guard must refuse it). */
const intranetUrl = () => `http://crm.internal.test:${receiver.port}/leads`;

beforeEach(() => {
  t.deps.config.ALLOW_PRIVATE_DELIVERY_TARGETS = false;
});

const post = (payload: object, as = admin.cookie) => t.request({ method: 'POST', url: '/api/webhook', as, payload });
const put = (id: string, payload: object, as = admin.cookie) =>
  t.request({ method: 'PUT', url: `/api/webhook/${id}`, as, payload });
const get = (url: string, as = admin.cookie) => t.request({ method: 'GET', url, as });
const count = async () => (await t.database.db.select().from(webhooks)).length;

/** A valid delivery for `buyer` (as the web form sends it); override any field. */
/** The request fields of `input` that the saved delivery answers as sent. */
const sent = {
  url: 'https://crm.example.com/api/leads',
  method: 'POST',
  headers: [{ header: 'X-Api-Token', value: 't0k' }],
  accept: fieldRows({ status: 'ok' }),
  map: fieldRows({ first_name: 'FirstName', phone: 'Phone' }),
  static: fieldRows({ Vendor: 'leadex' }),
  send_content_type: 'json',
  return_content_type: 'json',
  tags: ['crm'],
};
const input = (buyer: string, overrides: object = {}) => ({
  name: `Summit CRM ${Math.random().toString(36).slice(2, 7)}`,
  buyer,
  ...sent,
  ...overrides,
});

async function createDelivery(buyer: string, overrides: object = {}, as = admin.cookie) {
  const res = await post(input(buyer, overrides), as);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { _id: string; name: string; buyer: string };
}

describe('POST /api/webhook', () => {
  it('creates a draft delivery and answers it with its _id', async () => {
    const buyer = await createBuyer(t);
    const res = await post(
      input(buyer._id, { key: 'k1', keyname: 'ApiKey', return_id: 'id', wrap_key: 'lead', _id: 'ignored', ts: 1 }),
    );
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({
      _id: expect.stringMatching(/^whk_/),
      buyer: buyer._id,
      buyer_name: buyer.name,
      ...sent,
      key: 'k1',
      keyname: 'ApiKey',
      return_id: 'id',
      wrap_key: 'lead',
      status: { live: false, draft: true, pause: false },
      ping_id: 'no_ping',
      ts: Math.floor(t.clock.now().getTime() / 1000),
    });
    expect(body._id).not.toBe('ignored');
    expect(body.tsdate).toBe(t.clock.now().toISOString());
    expect((await get(`/api/webhook/${body._id}`)).json()).toEqual(body);
  });

  it('a buyer creates for itself only; naming another buyer answers 404', async () => {
    const own = await createBuyerWithLogin(t);
    const other = await createBuyer(t);
    const { buyer: _none, ...withoutBuyer } = input('');
    const res = await post(withoutBuyer, own.cookie);
    expect(res.statusCode).toBe(201);
    expect(res.json().buyer).toBe(own.buyer._id);
    const before = await count();
    expect((await post(input(other._id), own.cookie)).statusCode).toBe(404);
    expect(await count()).toBe(before);
  });

  it("answers 400 naming each field with the spec's messages, and writes nothing", async () => {
    const buyer = await createBuyer(t);
    const before = await count();
    const cases: [object, string, string][] = [
      [{ name: '' }, 'name', 'Name is required'],
      [{ url: '' }, 'url', 'URL is required'],
      [{ url: 'ftp://x.example' }, 'url', 'URL must be a valid http:// or https:// address'],
      [{ method: 'GET' }, 'method', 'Method must be POST or PUT'],
      [{ send_content_type: 'yaml' }, 'send_content_type', 'Send content type must be json, xml or form'],
      [{ headers: [{ header: '', value: 'v' }] }, 'headers.0.header', 'Header is required'],
      [{ headers: [{ header: 'X-A', value: '' }] }, 'headers.0.value', 'Value is required'],
      [{ accept: [{ field: '', value: 'ok' }] }, 'accept.0.field', 'Field is required'],
      [{ map: [{ field: 'phone' }] }, 'map.0.value', 'Value is required'],
      [{ static: [{ value: 'x' }] }, 'static.0.field', 'Field is required'],
      [{ tags: 'crm' }, 'tags', expect.any(String) as unknown as string],
    ];
    for (const [override, field, message] of cases) {
      const res = await post(input(buyer._id, override));
      expect(res.statusCode, JSON.stringify(override)).toBe(400);
      expect(res.json().errors[field], JSON.stringify(res.json())).toEqual(message);
    }
    const noBuyer = await post({ ...input(''), buyer: undefined });
    expect(noBuyer.statusCode).toBe(400);
    expect(noBuyer.json()).toMatchObject({ message: 'Buyer is required', errors: { buyer: 'Buyer is required' } });
    const unknown = await post(input('buy_nobody'));
    expect(unknown.json()).toMatchObject({ errors: { buyer: 'Buyer not found' } });
    expect(await count()).toBe(before);
  });

  it('refuses a URL naming a private address unless ALLOW_PRIVATE_DELIVERY_TARGETS is on', async () => {
    const buyer = await createBuyer(t);
    for (const url of [
      'http://127.0.0.1/x',
      'http://10.0.0.5/x',
      'http://169.254.169.254/',
      'http://[::1]/',
      'http://localhost:8080/',
    ]) {
      const res = await post(input(buyer._id, { url }));
      expect(res.statusCode, url).toBe(400);
      expect(res.json().errors.url).toMatch(/^URL must be a public address/);
    }
    t.deps.config.ALLOW_PRIVATE_DELIVERY_TARGETS = true;
    expect((await post(input(buyer._id, { url: 'http://127.0.0.1/x' }))).statusCode).toBe(201);
  });

  it('needs a session of an admin or a buyer', async () => {
    const buyer = await createBuyer(t);
    expect((await t.request({ method: 'POST', url: '/api/webhook', payload: input(buyer._id) })).statusCode).toBe(401);
    const source = await createSourceWithLogin(t);
    expect((await post(input(buyer._id), source.cookie)).statusCode).toBe(403);
    expect((await get('/api/webhook', source.cookie)).statusCode).toBe(403);
  });
});

describe('GET /api/webhook', () => {
  it('pages by 25 and filters by name, buyer name and tag; a buyer sees only its own', async () => {
    const own = await createBuyerWithLogin(t, { name: 'Zephyr Gutters' });
    const other = await createBuyer(t);
    for (let i = 0; i < 27; i++)
      await createDelivery(own.buyer._id, {
        name: `Zephyr hook ${String(i).padStart(2, '0')}`,
        tags: i === 0 ? [] : ['tx'],
      });
    await createDelivery(other._id, { name: 'Zephyr hook other', tags: ['tx'] });

    const first = (await get('/api/webhook?buyer_name=zephyr%20gutters')).json();
    expect(first.total).toBe(27);
    expect(first.data).toHaveLength(25);
    expect(first.data[0]).toMatchObject({
      name: 'Zephyr hook 00',
      buyer_name: 'Zephyr Gutters',
      tags: [],
      status: { live: false, draft: true, pause: false },
    });
    const second = (await get('/api/webhook?buyer_name=zephyr%20gutters&page=2')).json();
    expect(second.data.map((d: { name: string }) => d.name)).toEqual(['Zephyr hook 25', 'Zephyr hook 26']);

    expect((await get('/api/webhook?name=zephyr%20HOOK')).json().total).toBe(28);
    expect((await get('/api/webhook?name=zephyr&tag=tx')).json().total).toBe(27);
    expect((await get('/api/webhook?name=hook%2001')).json().data.map((d: { name: string }) => d.name)).toEqual([
      'Zephyr hook 01',
    ]);
    const desc = (await get('/api/webhook?name=zephyr&sort=name&order=desc&pageSize=1')).json();
    expect(desc.data[0].name).toBe('Zephyr hook other');

    const mine = (await get('/api/webhook?name=zephyr&pageSize=100', own.cookie)).json();
    expect(mine.total).toBe(27);
    expect(mine.data.every((d: { buyer: string }) => d.buyer === own.buyer._id)).toBe(true);
    // A buyer's filters cannot widen its scope.
    expect(
      (await get(`/api/webhook?buyer=${other._id}`, own.cookie))
        .json()
        .data.every((d: { buyer: string }) => d.buyer === own.buyer._id),
    ).toBe(true);
  });

  it('answers 400 naming a bad query parameter', async () => {
    const res = await get('/api/webhook?page=0');
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().errors)).toContain('page');
  });
});

describe('GET /api/webhook/new and /api/webhook/{id}/{action}', () => {
  it('answers the template: a draft with every mapping field name and its sample', async () => {
    const buyer = await createBuyerWithLogin(t);
    for (const who of [admin.cookie, buyer.cookie]) {
      const res = await get('/api/webhook/new', who);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body).toMatchObject({
        name: '',
        url: '',
        method: 'POST',
        send_content_type: 'json',
        return_content_type: 'json',
        status: { draft: true },
        ping_id: 'no_ping',
      });
      expect(body.map.map((r: { field: string }) => r.field)).toEqual(DELIVERY_FIELD_NAMES);
      expect(body.map.every((r: { value: string }) => r.value === '')).toBe(true);
      expect(body.fields.map((f: { field: string }) => f.field)).toEqual(
        expect.arrayContaining([
          'first_name',
          'last_name',
          'phone',
          'email',
          'zip',
          'tcpa_consent',
          'trusted_form',
          'jornaya',
          'lead_id',
          'price',
        ]),
      );
    }
  });

  it('copy answers an unsaved draft named "(copy)" of the same buyer', async () => {
    const buyer = await createBuyer(t);
    const original = await createDelivery(buyer._id, { name: 'Summit CRM' });
    await put(original._id, { status: 'live' });
    const before = await count();
    const res = await get(`/api/webhook/${original._id}/copy`);
    expect(res.statusCode).toBe(200);
    const copy = res.json();
    expect(copy).toMatchObject({
      name: 'Summit CRM (copy)',
      buyer: buyer._id,
      buyer_name: buyer.name,
      url: 'https://crm.example.com/api/leads',
      map: fieldRows({ first_name: 'FirstName', phone: 'Phone' }),
      status: { live: false, draft: true, pause: false },
    });
    expect(copy._id).toBeUndefined();
    expect(copy.ts).toBeUndefined();
    expect(await count()).toBe(before);
    expect((await get(`/api/webhook/${original._id}/explode`)).statusCode).toBe(404);
  });
});

describe('PUT /api/webhook/{id}', () => {
  it('applies the changed fields, replaces lists whole and clears an emptied optional text', async () => {
    const buyer = await createBuyer(t);
    const created = await createDelivery(buyer._id, { wrap_key: 'lead', key: 'k1' });
    t.clock.advance(60_000);
    const changed = {
      name: 'Renamed',
      status: { live: true, draft: false, pause: false },
      method: 'PUT',
      accept: [{ field: 'result', value: 'success' }],
      return_content_type: 'xml',
    };
    const res = await put(created._id, { ...changed, wrap_key: '' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ ...changed, key: 'k1', headers: [{ header: 'X-Api-Token', value: 't0k' }] });
    expect(body.wrap_key).toBeUndefined();
    const stored = (await get(`/api/webhook/${created._id}`)).json();
    expect(stored).toEqual(body);
  });

  it('answers 400 naming the field and changes nothing; the buyer cannot change', async () => {
    const buyer = await createBuyer(t);
    const created = await createDelivery(buyer._id);
    const before = (await get(`/api/webhook/${created._id}`)).json();
    for (const [payload, field, message] of [
      [{ name: ' ' }, 'name', 'Name is required'],
      [{ url: '' }, 'url', 'URL is required'],
      [{ map: [{ field: '', value: 'x' }] }, 'map.0.field', 'Field is required'],
      [{ buyer: 'buy_x' }, 'buyer', 'Buyer cannot be changed'],
      [{ status: 'deleted' }, 'status', 'Status must be Live, Draft or Paused'],
      [
        { url: 'http://192.168.1.1/' },
        'url',
        'URL must be a public address: private, loopback and link-local addresses are not allowed',
      ],
    ] as const) {
      const res = await put(created._id, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().errors[field]).toBe(message);
    }
    expect((await get(`/api/webhook/${created._id}`)).json()).toEqual(before);
  });
});

describe("another buyer's delivery answers 404 on every route", () => {
  it('GET, copy, PUT and test', async () => {
    const own = await createBuyerWithLogin(t);
    const other = await createBuyer(t);
    const theirs = await createDelivery(other._id, { name: 'Secret hook' });
    const mine = await createDelivery(own.buyer._id, { name: 'My hook' });
    const as = own.cookie;
    expect((await get(`/api/webhook/${mine._id}`, as)).statusCode).toBe(200);
    await expectScoped404(t, as, 'Delivery', [
      { method: 'GET', url: `/api/webhook/${theirs._id}` },
      { method: 'GET', url: `/api/webhook/${theirs._id}/copy` },
      { method: 'PUT', url: `/api/webhook/${theirs._id}`, payload: { name: 'Taken over' } },
      { method: 'POST', url: `/api/webhook/${theirs._id}/test`, payload: {} },
    ]);
    expect((await get(`/api/webhook/${theirs._id}`)).json().name).toBe('Secret hook');
    expect(receiver.hits).toHaveLength(0);
    expect((await get('/api/webhook/whk_missing')).statusCode).toBe(404);
  });
});

describe('POST /api/webhook/{id}/test', () => {
  const test = (id: string, payload: object, as = admin.cookie) =>
    t.request({ method: 'POST', url: `/api/webhook/${id}/test`, as, payload });

  it('sends the test values through the delivery and answers status, accept, url, request and response', async () => {
    const buyer = await createBuyerWithLogin(t);
    const created = await createDelivery(buyer.buyer._id, { url: receiverUrl(), return_id: 'id' }, buyer.cookie);
    const res = await test(created._id, { test_first_name: 'Testy', test_phone: '5125552199' }, buyer.cookie);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      status: 200,
      accept: true,
      url: receiverUrl(),
      reqHeaders: { 'Content-Type': 'application/json', 'X-Api-Token': 't0k' },
      data: { status: 'ok', id: 'B-1' },
      returnId: 'B-1',
    });
    expect(JSON.parse(body.reqBody)).toEqual({ FirstName: 'Testy', Phone: '5125552199', Vendor: 'leadex' });
    expect(receiver.hits).toHaveLength(1);
    expect(receiver.hits[0]?.body).toBe(body.reqBody);
    expect(receiver.hits[0]?.headers['x-api-token']).toBe('t0k');
  });

  it('answers Not Accepted when the accept rules do not match, and the status of an error', async () => {
    const buyer = await createBuyer(t);
    const created = await createDelivery(buyer._id, { url: receiverUrl() });
    receiver.answer = (res) => res.writeHead(200).end('{"status":"duplicate"}');
    expect((await test(created._id, {})).json()).toMatchObject({ status: 200, accept: false });
    receiver.answer = (res) => res.writeHead(500).end('boom');
    expect((await test(created._id, {})).json()).toMatchObject({ status: 500, accept: false, data: 'boom' });
  });

  it('XML both ways, with the wrap key as the root element', async () => {
    const buyer = await createBuyer(t);
    const created = await createDelivery(buyer._id, {
      url: receiverUrl(),
      send_content_type: 'xml',
      return_content_type: 'xml',
      wrap_key: 'Lead',
      accept: [{ field: 'result', value: 'success' }],
      return_id: 'leadId',
    });
    receiver.answer = (res) =>
      res.writeHead(200).end('<response><result>success</result><leadId>X9</leadId></response>');
    const body = (await test(created._id, { test_phone: '5125552100' })).json();
    expect(body).toMatchObject({ status: 200, accept: true, returnId: 'X9' });
    expect(receiver.hits[0]?.body).toContain(
      '<Lead><FirstName>Jane</FirstName><Phone>5125552100</Phone><Vendor>leadex</Vendor></Lead>',
    );
  });

  it('refuses a target whose name resolves to a private address, without connecting', async () => {
    const buyer = await createBuyer(t);
    const created = await createDelivery(buyer._id, { url: intranetUrl() });
    const body = (await test(created._id, {})).json();
    expect(body).toMatchObject({ status: 0, accept: false, url: intranetUrl() });
    expect(body.error).toMatch(/resolves to 192\.168\.7\.7, a private address.*only public addresses are allowed/);
    expect(receiver.hits).toHaveLength(0);
    expect(net.dials).not.toContain('192.168.7.7');
  });

  it('reaches a loopback target only when ALLOW_PRIVATE_DELIVERY_TARGETS is on (development)', async () => {
    const buyer = await createBuyer(t);
    t.deps.config.ALLOW_PRIVATE_DELIVERY_TARGETS = true;
    const loopback = receiverUrl().replace('crm.buyer.test', '127.0.0.1');
    const created = await createDelivery(buyer._id, { url: loopback });
    expect((await test(created._id, {})).json()).toMatchObject({ status: 200, accept: true, url: loopback });
    expect(receiver.hits).toHaveLength(1);
    t.deps.config.ALLOW_PRIVATE_DELIVERY_TARGETS = false;
    const refused = (await test(created._id, {})).json();
    expect(refused).toMatchObject({ status: 0, accept: false });
    expect(refused.error).toMatch(/only public addresses are allowed/);
    expect(receiver.hits).toHaveLength(1);
  });

  it('answers 400 naming a test value that is not text', async () => {
    const buyer = await createBuyer(t);
    const created = await createDelivery(buyer._id);
    const res = await test(created._id, { test_phone: { a: 1 } });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().errors)).toContain('test_phone');
  });
});

/**
 * Node's HTTP client throws (ERR_INVALID_CHAR) on a header it will not send: saved, such a header made
 * every sale to the buyer, and its Test button, answer 500. Each is refused where it is saved or tried.
 */
describe('a header Node will not send is refused, the field named (issue 28)', () => {
  const UNSENDABLE: [string, string, string][] = [
    ['the euro sign', '10 €', '€'],
    ['a control character', 'a\u0001b', 'U+0001'],
    ['DEL', 'a\u007fb', 'U+007F'],
  ];
  const message = (shown: string, label = 'Header') =>
    `${label} X-Token's value contains a character that cannot be sent (${shown})`;
  /** Saves a header straight into the row, as a delivery saved before the rule was. */
  const storeHeaders = (id: string, headers: object[], ping?: object) =>
    t.database.db
      .update(webhooks)
      .set({ headers: headers as never, ...(ping ? { ping: ping as never } : {}) })
      .where(eq(webhooks.id, id));
  const test = (id: string) =>
    t.request({ method: 'POST', url: `/api/webhook/${id}/test`, as: admin.cookie, payload: {} });

  it.each(UNSENDABLE)('at create: %s', async (_, value, shown) => {
    const buyer = await createBuyer(t);
    const before = await count();
    const res = await post(input(buyer._id, { headers: [{ header: 'X-Token', value }] }));
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().errors).toEqual({ 'headers.0.value': message(shown) });
    const ping = await post(
      input(buyer._id, {
        ping_id: 'ping_post',
        ping: { url: 'https://crm.example.com/ping', price_field: 'bid', headers: [{ header: 'X-Token', value }] },
      }),
    );
    expect(ping.statusCode, ping.body).toBe(400);
    expect(ping.json().errors).toEqual({ 'ping.headers.0.value': message(shown, 'Ping header') });
    expect(await count()).toBe(before);
  });

  it.each(UNSENDABLE)('at update: %s, and the delivery is unchanged', async (_, value, shown) => {
    const buyer = await createBuyer(t);
    const created = await createDelivery(buyer._id);
    const res = await put(created._id, { headers: [{ header: 'X-Token', value }] });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().errors).toEqual({ 'headers.0.value': message(shown) });
    expect((await get(`/api/webhook/${created._id}`)).json().headers).toEqual(sent.headers);
  });

  it.each(UNSENDABLE)('at the save of a copy of a delivery stored with it: %s', async (_, value, shown) => {
    const buyer = await createBuyer(t);
    const original = await createDelivery(buyer._id);
    await storeHeaders(original._id, [{ header: 'X-Token', value }]);
    const copy = await get(`/api/webhook/${original._id}/copy`);
    expect(copy.statusCode).toBe(200);
    const before = await count();
    const res = await post({ ...copy.json(), buyer: buyer._id, status: 'draft' });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().errors).toEqual({ 'headers.0.value': message(shown) });
    expect(await count()).toBe(before);
  });

  it.each(UNSENDABLE)(
    'at the Test of a delivery stored with it: %s, a 400 and nothing sent',
    async (_, value, shown) => {
      const buyer = await createBuyer(t);
      const created = await createDelivery(buyer._id, { url: receiverUrl() });
      await storeHeaders(created._id, [{ header: 'X-Token', value }]);
      const res = await test(created._id);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toEqual({ ok: false, message: message(shown), errors: { 'headers.0.value': message(shown) } });
      expect(receiver.hits).toHaveLength(0);
    },
  );

  it("at the Test of a Ping/Post delivery stored with one in its ping's headers", async () => {
    const buyer = await createBuyer(t);
    const ping = { url: receiverUrl(), price_field: 'bid' };
    const created = await createDelivery(buyer._id, { url: receiverUrl(), ping_id: 'ping_post', ping });
    const stored = (await get(`/api/webhook/${created._id}`)).json().ping;
    await storeHeaders(created._id, sent.headers, { ...stored, headers: [{ header: 'X-Token', value: '€' }] });
    const res = await test(created._id);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().errors).toEqual({ 'ping.headers.0.value': message('€', 'Ping header') });
    expect(receiver.hits).toHaveLength(0);
  });

  it('a stored row that makes rendering throw: the Test answers the failure, not a 500', async () => {
    const buyer = await createBuyer(t);
    const created = await createDelivery(buyer._id, { url: receiverUrl() });
    await t.database.db
      .update(webhooks)
      .set({ map: {} as never })
      .where(eq(webhooks.id, created._id));
    const res = await test(created._id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 0, accept: false, url: receiverUrl() });
    expect(res.json().error).toMatch(/^The delivery could not be sent: /);
    expect(receiver.hits).toHaveLength(0);
  });

  it("the service checks with Node's own validators, whatever reaches it past the schema", async () => {
    const buyer = await createBuyer(t);
    const valid = webhookCreateSchema.parse(input(buyer._id));
    const admin = { userId: 'usr_admin', role: 'admin' as const, roleId: null };
    const before = await count();
    const refused = await t.deps.services.webhooks
      .create(admin, { ...valid, headers: [{ header: 'X-Token', value: 'a\u007f' }] })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).errors).toEqual({ 'headers.0.value': message('U+007F') });
    const badName = await t.deps.services.webhooks
      .create(admin, { ...valid, headers: [{ header: 'X Token', value: 'v' }] })
      .catch((e: unknown) => e);
    expect((badName as AppError).errors).toEqual({
      'headers.0.header': 'Header name contains a character that cannot be sent (a space)',
    });
    expect(await count()).toBe(before);
  });
});

describe('liveDeliveriesOf (for the sale)', () => {
  it("answers the buyer's live deliveries only", async () => {
    const buyer = await createBuyer(t);
    const live = await createDelivery(buyer._id, { name: 'Live one', status: 'live' });
    await createDelivery(buyer._id, { name: 'Draft one' });
    await createDelivery(buyer._id, { name: 'Paused one', status: 'pause' });
    const found = await t.deps.services.webhooks.liveDeliveriesOf(buyer._id);
    expect(found.map((d) => d._id)).toEqual([live._id]);
    expect(found[0]).toMatchObject({ url: 'https://crm.example.com/api/leads', map: expect.any(Array) });
  });
});
