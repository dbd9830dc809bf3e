import type { AdminMessage } from '@leadex/domain';
import { describe, expect, it } from 'vitest';
import { createBuyerWithLogin, createSourceWithLogin } from '../../../test/factories';
import { expectScoped404, useAdminTestApp } from '../../../test/harness';

/** POST /api/buyer/{id}/message: the buyer home's Message Us becomes a message for the admins. */
const { t, admin } = useAdminTestApp();

/** The admin's visible messages about one buyer. */
async function messagesAbout(buyerId: string): Promise<AdminMessage[]> {
  const res = await t.request({ method: 'GET', url: '/api/message/admin?pageSize=100', as: admin.cookie });
  expect(res.statusCode).toBe(200);
  return (res.json().data as AdminMessage[]).filter(
    (m) => (m.data as { buyer_id?: string } | undefined)?.buyer_id === buyerId,
  );
}

const send = (buyerId: string, as: string, payload: unknown) =>
  t.request({ method: 'POST', url: `/api/buyer/${buyerId}/message`, as, payload: payload as object });

describe('POST /api/buyer/{id}/message', () => {
  it("becomes an admin message naming the buyer and its writer, linking to the admin's buyer screen", async () => {
    t.clock.set('2026-05-04T14:30:00Z');
    const { buyer, cookie } = await createBuyerWithLogin(t, { name: 'Lakeside Solar' });
    const res = await send(buyer._id, cookie, { message: '  Please raise our monthly cap to 300 leads.  ' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toEqual({
      _id: expect.stringMatching(/^msg_/),
      message: 'Please raise our monthly cap to 300 leads.',
      ts: Date.parse('2026-05-04T14:30:00Z') / 1000,
    });

    const [message, ...others] = await messagesAbout(buyer._id);
    expect(others).toEqual([]);
    expect(message).toMatchObject({
      _id: res.json()._id,
      text: `Message from Lakeside Solar (${buyer.email}): Please raise our monthly cap to 300 leads.`,
      hidden: false,
      ts: res.json().ts,
      data: {
        kind: 'buyer_message',
        buyer_id: buyer._id,
        from: buyer.email,
        message: 'Please raise our monthly cap to 300 leads.',
        link: `/buyer/${buyer._id}`,
      },
    });
  });

  it('answers 400 naming the message when it is missing, empty, blank, not text or too long, and records nothing', async () => {
    const { buyer, cookie } = await createBuyerWithLogin(t);
    const cases: [unknown, string][] = [
      [{}, 'Message is required'],
      [{ message: '' }, 'Message is required'],
      [{ message: ' \n\t ' }, 'Message is required'],
      [{ message: null }, 'Message is required'],
      [{ message: 42 }, expect.any(String) as unknown as string],
      [{ message: 'x'.repeat(2001) }, 'Message must be at most 2000 characters'],
      [{ message: 'a\u0000b' }, expect.any(String) as unknown as string],
    ];
    for (const [payload, text] of cases) {
      const res = await send(buyer._id, cookie, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json(), JSON.stringify(payload)).toMatchObject({ ok: false, errors: { message: text } });
    }
    // The longest message is taken whole.
    expect((await send(buyer._id, cookie, { message: 'y'.repeat(2000) })).statusCode).toBe(201);
    const kept = await messagesAbout(buyer._id);
    expect(kept.map((m) => (m.data as { message: string }).message)).toEqual(['y'.repeat(2000)]);
  });

  it("answers another buyer's id, or an unknown one, as not found, and records nothing", async () => {
    const mine = await createBuyerWithLogin(t);
    const other = await createBuyerWithLogin(t);
    await expectScoped404(t, mine.cookie, 'Buyer', [
      { method: 'POST', url: `/api/buyer/${other.buyer._id}/message`, payload: { message: 'Hello from elsewhere' } },
      { method: 'POST', url: '/api/buyer/buy_unknown/message', payload: { message: 'Hello' } },
    ]);
    expect(await messagesAbout(other.buyer._id)).toEqual([]);
    expect(await messagesAbout(mine.buyer._id)).toEqual([]);
  });

  it('is for buyers only: a guest gets 401, an admin and a source 403', async () => {
    const { buyer } = await createBuyerWithLogin(t);
    const { cookie: source } = await createSourceWithLogin(t);
    const url = `/api/buyer/${buyer._id}/message`;
    const payload = { message: 'Hello' };
    expect((await t.request({ method: 'POST', url, payload })).statusCode).toBe(401);
    expect((await send(buyer._id, admin.cookie, payload)).statusCode).toBe(403);
    expect((await send(buyer._id, source, payload)).statusCode).toBe(403);
    expect(await messagesAbout(buyer._id)).toEqual([]);
  });
});
