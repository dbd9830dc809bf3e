import { describe, expect, it } from 'vitest';
import { useRoleCookies, useTestApp } from '../../../test/harness';
import { messages } from '../../db/schema';
import { newId } from '../../lib/ids';

/** Admin spec §2 Messages: GET /api/message/admin?days=5 (15 a page, newest first) and PUT …/{id} { hide }. */
const t = useTestApp();
const cookies = useRoleCookies(t);
const DAY_MS = 86_400_000;

async function raise(text: string, at: Date, data: Record<string, unknown> = { kind: 'test' }) {
  const id = newId('msg');
  await t.database.db.insert(messages).values({ id, text, data, createdAt: at });
  return id;
}

const list = (query = '') => t.request({ method: 'GET', url: `/api/message/admin${query}`, as: cookies.admin });

describe('the admin messages', () => {
  it('lists the last 5 days, newest first: a message of exactly 5 days ago is in, a second older is out', async () => {
    t.clock.set('2026-06-10T15:00:00Z');
    const now = t.clock.now().getTime();
    await raise('Edge in', new Date(now - 5 * DAY_MS));
    await raise('Edge out', new Date(now - 5 * DAY_MS - 1000));
    await raise('Newest', new Date(now - 1000), { kind: 'return_requested', link: '/lead/lead_x' });
    const res = await list();
    expect(res.statusCode).toBe(200);
    const texts = res.json().data.map((m: { text: string }) => m.text);
    expect(texts).toContain('Edge in');
    expect(texts).not.toContain('Edge out');
    expect(texts.indexOf('Newest')).toBeLessThan(texts.indexOf('Edge in'));
    expect(res.json().data[0]).toEqual({
      _id: expect.stringMatching(/^msg_/),
      text: 'Newest',
      data: { kind: 'return_requested', link: '/lead/lead_x' },
      hidden: false,
      ts: Math.floor((now - 1000) / 1000),
    });
    // days widens the window.
    expect((await list('?days=6')).json().data.map((m: { text: string }) => m.text)).toContain('Edge out');
  });

  it('pages 15 at a time', async () => {
    t.clock.set('2027-02-01T15:00:00Z');
    const now = t.clock.now().getTime();
    for (let i = 0; i < 17; i += 1) await raise(`Paged ${i}`, new Date(now - i * 60_000));
    const first = (await list()).json();
    expect(first.data).toHaveLength(15);
    expect(first.total).toBe(17);
    expect((await list('?page=2')).json().data.map((m: { text: string }) => m.text)).toEqual(['Paged 15', 'Paged 16']);
  });

  it('hides a message, which leaves the list; an unknown one is not found; hide must be true or false', async () => {
    t.clock.set('2027-05-01T15:00:00Z');
    const id = await raise('To hide', t.clock.now());
    const hidden = await t.request({
      method: 'PUT',
      url: `/api/message/admin/${id}`,
      as: cookies.admin,
      payload: { hide: true },
    });
    expect(hidden.statusCode).toBe(200);
    expect(hidden.json()).toMatchObject({ _id: id, hidden: true });
    expect((await list()).json().data.map((m: { _id: string }) => m._id)).not.toContain(id);

    const unknown = await t.request({
      method: 'PUT',
      url: '/api/message/admin/msg_nope',
      as: cookies.admin,
      payload: { hide: true },
    });
    expect(unknown.statusCode).toBe(404);
    const bad = await t.request({
      method: 'PUT',
      url: `/api/message/admin/${id}`,
      as: cookies.admin,
      payload: { hide: 'yes' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toHaveProperty('hide');
  });

  it('hides several messages at once (PUT /api/message/admin, issue 27), naming a bad list', async () => {
    t.clock.set('2027-05-02T15:00:00Z');
    const a = await raise('First of many', t.clock.now());
    const b = await raise('Second of many', t.clock.now());
    const kept = await raise('Kept', t.clock.now());
    const put = (payload: object, as = cookies.admin) =>
      t.request({ method: 'PUT', url: '/api/message/admin', as, payload });
    const res = await put({ ids: [a, b, 'msg_nope'], hide: true });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true, count: 2 });
    const ids = (await list()).json().data.map((m: { _id: string }) => m._id);
    expect(ids).not.toContain(a);
    expect(ids).not.toContain(b);
    expect(ids).toContain(kept);

    const empty = await put({ ids: [], hide: true });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errors).toEqual({ ids: 'Choose at least one message' });
    expect((await put({ ids: [kept], hide: true }, cookies.buyer)).statusCode).toBe(403);
    expect((await list()).json().data.map((m: { _id: string }) => m._id)).toContain(kept);
  });

  it('is for admins only: a buyer or a source is refused, a guest must sign in', async () => {
    const id = await raise('Secret', t.clock.now());
    for (const as of [cookies.buyer, cookies.source]) {
      expect((await t.request({ method: 'GET', url: '/api/message/admin', as })).statusCode).toBe(403);
      const put = await t.request({ method: 'PUT', url: `/api/message/admin/${id}`, as, payload: { hide: true } });
      expect(put.statusCode).toBe(403);
    }
    expect((await t.request({ method: 'GET', url: '/api/message/admin' })).statusCode).toBe(401);
  });
});
