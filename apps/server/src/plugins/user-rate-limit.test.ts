import { describe, expect, it } from 'vitest';
import { createBuyerWithLogin } from '../../test/factories';
import { useAdminTestApp } from '../../test/harness';
import { fieldRows, scriptedNetwork, useAnsweringServer } from '../../test/receivers';

/**
 * Issue 29 item 10: the delivery Test button and the buyers' Message Us are limited per user (a held
 * button made 60 outbound calls in 0.3 s); another user keeps its own allowance.
 */
const net = scriptedNetwork({ 'crm.buyer.test': ['93.184.216.41'] });
const { t, admin } = useAdminTestApp(
  { DELIVERY_TEST_PER_MINUTE: 3, BUYER_MESSAGES_PER_HOUR: 2 },
  { network: net.network },
);
const receiver = useAnsweringServer('{"status":"ok"}');

async function deliveryOf(buyer: string, as: string) {
  const res = await t.request({
    method: 'POST',
    url: '/api/webhook',
    as,
    payload: {
      name: `Limits ${Math.random().toString(36).slice(2, 7)}`,
      buyer,
      url: `http://crm.buyer.test:${receiver.port}/leads`,
      method: 'POST',
      accept: fieldRows({ status: 'ok' }),
      map: fieldRows({ first_name: 'FirstName' }),
      send_content_type: 'json',
      return_content_type: 'json',
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json()._id as string;
}

describe('per-user limits', () => {
  it('the Test button: a user gets its allowance a minute, then 429 with Retry-After; nothing more goes out', async () => {
    const one = await createBuyerWithLogin(t);
    const two = await createBuyerWithLogin(t);
    const mine = await deliveryOf(one.buyer._id, one.cookie);
    const theirs = await deliveryOf(two.buyer._id, two.cookie);
    const test = (id: string, as: string) =>
      t.request({ method: 'POST', url: `/api/webhook/${id}/test`, as, payload: {} });

    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await test(mine, one.cookie)).statusCode);
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    const refused = await test(mine, one.cookie);
    expect(refused.json()).toEqual({
      ok: false,
      message: expect.stringMatching(/^Too many delivery tests: try again in /),
    });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(receiver.hits).toHaveLength(3);

    // Another buyer, and the admin testing the first buyer's delivery, each have their own count.
    expect((await test(theirs, two.cookie)).statusCode).toBe(200);
    expect((await test(mine, admin.cookie)).statusCode).toBe(200);
    expect(receiver.hits).toHaveLength(5);
  });

  it("Message Us: a buyer's user gets its allowance an hour, then 429; nothing more reaches the admins", async () => {
    const one = await createBuyerWithLogin(t);
    const two = await createBuyerWithLogin(t);
    const send = (buyer: string, as: string, n: number) =>
      t.request({ method: 'POST', url: `/api/buyer/${buyer}/message`, as, payload: { message: `Hello ${n}` } });

    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await send(one.buyer._id, one.cookie, i)).statusCode);
    expect(statuses).toEqual([201, 201, 429, 429]);
    expect((await send(one.buyer._id, one.cookie, 9)).json().message).toMatch(/^Too many messages: try again in /);
    expect((await send(two.buyer._id, two.cookie, 0)).statusCode).toBe(201);

    const list = await t.request({ method: 'GET', url: '/api/message/admin?pageSize=100', as: admin.cookie });
    const about = (buyer: string) =>
      (list.json().data as { data?: { buyer_id?: string } }[]).filter((m) => m.data?.buyer_id === buyer);
    expect(about(one.buyer._id)).toHaveLength(2);
    expect(about(two.buyer._id)).toHaveLength(1);
  });
});
