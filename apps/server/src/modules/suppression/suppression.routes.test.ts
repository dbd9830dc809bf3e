import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBuyerWithLogin, createSourceWithLogin } from '../../../test/factories';
import { ADMIN, createTestApp, type TestApp } from '../../../test/harness';

let t: TestApp;
let admin: string;
let buyer: Awaited<ReturnType<typeof createBuyerWithLogin>>;
let otherBuyer: Awaited<ReturnType<typeof createBuyerWithLogin>>;
let source: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.signIn(ADMIN.email, ADMIN.password);
  buyer = await createBuyerWithLogin(t);
  otherBuyer = await createBuyerWithLogin(t);
  source = (await createSourceWithLogin(t)).cookie;
});
afterAll(() => t.close());

const make = (as: string, payload: object) => t.request({ method: 'POST', url: '/api/suppression/list', as, payload });

describe('suppression routes, per role', () => {
  it('a buyer keeps its own lists; another buyer gets 404; the admin sees and edits all; a source and nobody get nothing', async () => {
    const own = await make(buyer.cookie, { name: 'Our customers', kind: 'email', buyer: otherBuyer.buyer._id });
    expect(own.statusCode, own.body).toBe(201);
    // The list is the buyer's own whatever the body says.
    expect(own.json()).toMatchObject({ buyer: buyer.buyer._id, kind: 'email', entries: 0, system: false });
    const id = own.json()._id;
    const global = await make(admin, { name: 'Internal DNC', kind: 'phone' });
    expect(global.json()).toMatchObject({ buyer: null });
    const forBuyer = await make(admin, { name: 'Set by the admin', kind: 'zip', buyer: buyer.buyer._id });
    expect(forBuyer.json()).toMatchObject({ buyer: buyer.buyer._id });

    const mine = await t.request({ method: 'GET', url: '/api/suppression/list', as: buyer.cookie });
    expect(
      mine
        .json()
        .map((l: { _id: string }) => l._id)
        .sort(),
    ).toEqual([id, forBuyer.json()._id].sort());
    expect((await t.request({ method: 'GET', url: '/api/suppression/list', as: otherBuyer.cookie })).json()).toEqual(
      [],
    );
    expect((await t.request({ method: 'GET', url: '/api/suppression/list', as: admin })).json()).toHaveLength(3);

    for (const [method, url, payload] of [
      ['GET', `/api/suppression/list/${id}`, undefined],
      ['PUT', `/api/suppression/list/${id}`, { name: 'Mine now' }],
      ['DELETE', `/api/suppression/list/${id}`, undefined],
      ['POST', `/api/suppression/list/${id}/entries`, { values: ['a@b.test'] }],
      ['POST', `/api/suppression/list/${id}/remove`, { value: 'a@b.test' }],
      ['POST', `/api/suppression/list/${id}/lookup`, { value: 'a@b.test' }],
      ['GET', `/api/suppression/list/${global.json()._id}`, undefined],
      ['POST', `/api/suppression/list/${global.json()._id}/entries`, { values: ['5125550123'] }],
    ] as const) {
      const res = await t.request({ method, url, as: otherBuyer.cookie, ...(payload ? { payload } : {}) });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      const bySource = await t.request({ method, url, as: source, ...(payload ? { payload } : {}) });
      expect(bySource.statusCode, `${method} ${url} as a source`).toBe(403);
      const byNobody = await t.request({ method, url, ...(payload ? { payload } : {}) });
      expect(byNobody.statusCode, `${method} ${url} signed out`).toBe(401);
    }
    expect((await t.request({ method: 'GET', url: '/api/opt-out', as: source })).statusCode).toBe(403);
    expect(
      (await t.request({ method: 'POST', url: '/api/opt-out', payload: { phone: '5125550123', method: 'call' } }))
        .statusCode,
    ).toBe(401);

    // Its owner and the admin edit it.
    const renamed = await t.request({
      method: 'PUT',
      url: `/api/suppression/list/${id}`,
      as: buyer.cookie,
      payload: { name: 'Customers 2026' },
    });
    expect(renamed.json()).toMatchObject({ name: 'Customers 2026' });
    const byAdmin = await t.request({
      method: 'PUT',
      url: `/api/suppression/list/${id}`,
      as: admin,
      payload: { purpose: 'other' },
    });
    expect(byAdmin.json()).toMatchObject({ purpose: 'other' });
  });

  it('adds, looks up and removes entries by hand; names bad values; never shows a value back', async () => {
    const id = (await make(buyer.cookie, { name: 'Phones', kind: 'phone' })).json()._id;
    const added = await t.request({
      method: 'POST',
      url: `/api/suppression/list/${id}/entries`,
      as: buyer.cookie,
      payload: { values: ['512-555-2301', '(512) 555-2301', 'not a phone', '+1 512 555 2302'] },
    });
    expect(added.json()).toEqual({
      read: 4,
      added: 2,
      already: 0,
      invalid: 1,
      invalid_lines: [{ line: 3, value: 'not a phone' }],
      entries: 2,
    });
    const look = (value: string) =>
      t.request({ method: 'POST', url: `/api/suppression/list/${id}/lookup`, as: buyer.cookie, payload: { value } });
    expect((await look('5125552301')).json()).toEqual({ value: '5125552301', listed: true });
    expect((await look('5125552303')).json()).toEqual({ value: '5125552303', listed: false });
    expect((await look('abc')).statusCode).toBe(400);
    const removed = await t.request({
      method: 'POST',
      url: `/api/suppression/list/${id}/remove`,
      as: buyer.cookie,
      payload: { value: '512.555.2301' },
    });
    expect(removed.statusCode).toBe(200);
    expect((await look('5125552301')).json().listed).toBe(false);
    expect(
      (await t.request({ method: 'GET', url: `/api/suppression/list/${id}`, as: buyer.cookie })).json().entries,
    ).toBe(1);
    const none = await t.request({
      method: 'POST',
      url: `/api/suppression/list/${id}/entries`,
      as: buyer.cookie,
      payload: { values: ['x'] },
    });
    expect(none.statusCode).toBe(400);
    expect(none.json().errors).toHaveProperty('values');
    const badKind = await make(admin, { name: 'x', kind: 'address' });
    expect(badKind.statusCode).toBe(400);
    expect(badKind.json().errors).toHaveProperty('kind');
    const noName = await make(admin, { name: ' ', kind: 'zip' });
    expect(noName.json().errors).toHaveProperty('name');
  });

  it('streams a CSV upload: a header, the named column, invalid lines counted', async () => {
    const id = (await make(admin, { name: 'Litigators', kind: 'phone', purpose: 'litigators' })).json()._id;
    const csv = 'name,phone\nA,512-555-2401\nB,5125552402\nC,12\nD,(512) 555-2401\n';
    const res = await t.request({
      method: 'POST',
      url: `/api/suppression/list/${id}/upload`,
      as: admin,
      headers: { 'content-type': 'text/csv' },
      payload: Readable.from([csv]),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      read: 4,
      added: 2,
      already: 1,
      invalid: 1,
      invalid_lines: [{ line: 4, value: '12' }],
      entries: 2,
    });
    // Without a header, the first column.
    const plain = await t.request({
      method: 'POST',
      url: `/api/suppression/list/${id}/upload`,
      as: admin,
      headers: { 'content-type': 'text/csv' },
      payload: '5125552403\n5125552404\n',
    });
    expect(plain.json()).toMatchObject({ read: 2, added: 2, entries: 4 });
    const empty = await t.request({
      method: 'POST',
      url: `/api/suppression/list/${id}/upload`,
      as: admin,
      headers: { 'content-type': 'text/csv' },
      payload: 'phone\n',
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errors).toHaveProperty('file');
  });

  it('lets a buyer upload a CSV to its own list only: another buyer’s list and a global one answer 404', async () => {
    const upload = (id: string, as: string, csv: string) =>
      t.request({
        method: 'POST',
        url: `/api/suppression/list/${id}/upload`,
        as,
        headers: { 'content-type': 'text/csv' },
        payload: Readable.from([csv]),
      });
    const own = (await make(buyer.cookie, { name: 'Customers CSV', kind: 'email' })).json()._id;
    const mine = await upload(own, buyer.cookie, 'email\nA@Customer.test\nb@customer.test\n');
    expect(mine.statusCode, mine.body).toBe(200);
    expect(mine.json()).toMatchObject({ read: 2, added: 2, entries: 2 });
    const global = (await make(admin, { name: 'Global CSV', kind: 'email' })).json()._id;
    for (const [id, as] of [
      [own, otherBuyer.cookie],
      [global, buyer.cookie],
    ] as const) {
      const refused = await upload(id, as, 'email\nc@customer.test\n');
      expect(refused.statusCode, refused.body).toBe(404);
    }
    expect((await upload(own, source, 'email\nd@customer.test\n')).statusCode).toBe(403);
    // Nothing the refused uploads sent was added.
    expect(
      (await t.request({ method: 'GET', url: `/api/suppression/list/${own}`, as: buyer.cookie })).json(),
    ).toMatchObject({ entries: 2 });
    expect(
      (await t.request({ method: 'GET', url: `/api/suppression/list/${global}`, as: admin })).json(),
    ).toMatchObject({ entries: 0 });
  });

  it('takes the upload over a real HTTP connection, as a browser sends it (the request stream, not inject’s)', async () => {
    // The input checks once walked a streamed body's object graph (the socket's, with its cycles):
    // the process then ran out of memory on a two-line file. inject's stream has no socket to walk.
    const id = (await make(admin, { name: 'Over HTTP', kind: 'phone' })).json()._id;
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const res = await fetch(`http://127.0.0.1:${port}/api/suppression/list/${id}/upload`, {
      method: 'POST',
      headers: { cookie: admin, origin: t.deps.config.PUBLIC_URL, 'content-type': 'text/csv' },
      body: 'phone\n5125552501\n5125552502\n',
      signal: AbortSignal.timeout(20_000),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ read: 2, added: 2, entries: 2 });
  });

  it('keeps the opt-out list: no route edits, empties or deletes it', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/opt-out',
      as: admin,
      payload: { email: 'Stop@Me.test', method: 'email', note: 'asked by email' },
    });
    expect(res.statusCode, res.body).toBe(201);
    const lists = (await t.request({ method: 'GET', url: '/api/suppression/list', as: admin })).json();
    const optOuts = lists.find((l: { system: boolean; kind: string }) => l.system && l.kind === 'email');
    expect(optOuts).toMatchObject({ purpose: 'opt_outs', entries: 1, buyer: null });
    for (const [method, url, payload] of [
      ['DELETE', `/api/suppression/list/${optOuts._id}`, undefined],
      ['PUT', `/api/suppression/list/${optOuts._id}`, { name: 'x' }],
      ['POST', `/api/suppression/list/${optOuts._id}/remove`, { value: 'stop@me.test' }],
      ['POST', `/api/suppression/list/${optOuts._id}/entries`, { values: ['a@b.test'] }],
    ] as const) {
      const r = await t.request({ method, url, as: admin, ...(payload ? { payload } : {}) });
      expect(r.statusCode, `${method} ${url}`).toBe(409);
    }
    const recorded = await t.request({ method: 'GET', url: '/api/opt-out', as: admin });
    expect(recorded.json()).toContainEqual(
      expect.objectContaining({ contact: 's•••@me.test', method: 'email', recorded_by: 'admin' }),
    );
  });
});
