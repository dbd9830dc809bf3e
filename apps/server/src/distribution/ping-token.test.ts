import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { deriveKey } from '../lib/secrets';
import { newPingId, type PingTokenPayload, signPingToken, verifyPingToken } from './ping-token';

const SECRET = 'test-secret-with-enough-entropy-0123456789';
const NOW = new Date('2026-01-15T15:00:00Z');
const NOW_S = NOW.getTime() / 1000;

const payload = (overrides: Partial<PingTokenPayload> = {}): PingTokenPayload => ({
  id: 'png_01jtest',
  sourceId: 'src_1',
  apiKeyId: 'key_1',
  service: 'solar',
  zip: '10001',
  priceCents: 2500,
  channel: 'web',
  campaign: null,
  test: false,
  exp: NOW_S + 300,
  ...overrides,
});

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('ping token', () => {
  it('round-trips its payload', () => {
    const p = payload({ campaign: 'SOLAR-NY', channel: null, test: true });
    expect(verifyPingToken(SECRET, signPingToken(SECRET, p), NOW)).toEqual({ ok: true, payload: p });
  });

  it("carries the Ping/Post buyers' bids and no-bids, and refuses a round that is not one", () => {
    const round = {
      bids: [['buy_1', 4000, 'whk_1', 'BID-1']],
      noBids: [['buy_2', 'timeout']],
    } as PingTokenPayload['round'];
    const p = payload({ round });
    expect(verifyPingToken(SECRET, signPingToken(SECRET, p), NOW)).toEqual({ ok: true, payload: p });
    for (const wrong of [
      { bids: [['buy_1', 0, 'whk_1', null]], noBids: [] },
      { bids: [['buy_1', 12.5, 'whk_1', null]], noBids: [] },
      { bids: [], noBids: [['buy_2', 'later']] },
      { bids: [['buy_1', 4000]], noBids: [] },
    ])
      expect(
        verifyPingToken(
          SECRET,
          signPingToken(SECRET, payload({ round: wrong as unknown as PingTokenPayload['round'] })),
          NOW,
        ),
      ).toEqual({ ok: false, reason: 'invalid' });
  });

  it('has the documented shape: base64url(JSON).base64url(HMAC-SHA256 with the ping-token key)', () => {
    const token = signPingToken(SECRET, payload());
    const [body, sig] = token.split('.');
    expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    expect(JSON.parse(Buffer.from(body ?? '', 'base64url').toString('utf8'))).toEqual(payload());
    const expected = createHmac('sha256', deriveKey(SECRET, 'ping-token'))
      .update(body ?? '')
      .digest('base64url');
    expect(sig).toBe(expected);
    // Not signed with the raw secret: the key is derived for this purpose only.
    expect(sig).not.toBe(
      createHmac('sha256', SECRET)
        .update(body ?? '')
        .digest('base64url'),
    );
  });

  it('refuses a tampered payload (a higher quoted price)', () => {
    const [, sig] = signPingToken(SECRET, payload()).split('.');
    const forged = `${b64(payload({ priceCents: 9900 }))}.${sig}`;
    expect(verifyPingToken(SECRET, forged, NOW)).toEqual({ ok: false, reason: 'invalid' });
  });

  it('refuses a tampered payload that also pushes the expiry out', () => {
    const [, sig] = signPingToken(SECRET, payload({ exp: NOW_S - 1 })).split('.');
    const forged = `${b64(payload({ exp: NOW_S + 3600 }))}.${sig}`;
    expect(verifyPingToken(SECRET, forged, NOW)).toEqual({ ok: false, reason: 'invalid' });
  });

  it('refuses a tampered signature, whatever character changes', () => {
    const token = signPingToken(SECRET, payload());
    const dot = token.indexOf('.');
    for (let i = dot + 1; i < token.length; i++) {
      const swapped = token[i] === 'A' ? 'B' : 'A';
      const forged = token.slice(0, i) + swapped + token.slice(i + 1);
      expect(verifyPingToken(SECRET, forged, NOW)).toEqual({ ok: false, reason: 'invalid' });
    }
  });

  it('refuses a truncated or extended signature', () => {
    const token = signPingToken(SECRET, payload());
    expect(verifyPingToken(SECRET, token.slice(0, -1), NOW)).toEqual({ ok: false, reason: 'invalid' });
    expect(verifyPingToken(SECRET, `${token}A`, NOW)).toEqual({ ok: false, reason: 'invalid' });
  });

  it('refuses a token signed with another secret', () => {
    const token = signPingToken('another-secret', payload());
    expect(verifyPingToken(SECRET, token, NOW)).toEqual({ ok: false, reason: 'invalid' });
    // And the key cache follows the secret back.
    expect(verifyPingToken('another-secret', token, NOW).ok).toBe(true);
    expect(verifyPingToken(SECRET, signPingToken(SECRET, payload()), NOW).ok).toBe(true);
  });

  it('is valid until its expiry second and expired from it on', () => {
    const token = signPingToken(SECRET, payload({ exp: NOW_S + 60 }));
    expect(verifyPingToken(SECRET, token, new Date(NOW.getTime() + 59_999)).ok).toBe(true);
    expect(verifyPingToken(SECRET, token, new Date(NOW.getTime() + 60_000))).toEqual({ ok: false, reason: 'expired' });
    expect(verifyPingToken(SECRET, token, new Date(NOW.getTime() + 86_400_000))).toEqual({
      ok: false,
      reason: 'expired',
    });
  });

  it('reports a forged expired token as invalid, not expired (the signature is checked first)', () => {
    const forged = `${b64(payload({ exp: NOW_S - 10 }))}.${'A'.repeat(43)}`;
    expect(verifyPingToken(SECRET, forged, NOW)).toEqual({ ok: false, reason: 'invalid' });
  });

  it.each([
    ['empty', ''],
    ['no dot', 'abcdef'],
    ['two dots', 'a.b.c'],
    ['empty body', '.abc'],
    ['empty signature', 'abc.'],
    ['not base64', '!!!.???'],
    ['a UUID', '6f1c1b9e-8a7e-4c55-9a55-1d1f0e7b8a11'],
  ])('refuses garbage (%s)', (_, token) => {
    expect(verifyPingToken(SECRET, token, NOW)).toEqual({ ok: false, reason: 'invalid' });
  });

  it('refuses a correctly signed body that is not a payload', () => {
    // Signed with the right key (as a bug or another use of the key could), but not JSON or missing fields.
    const key = deriveKey(SECRET, 'ping-token');
    const sign = (body: string) => `${body}.${createHmac('sha256', key).update(body).digest('base64url')}`;
    expect(verifyPingToken(SECRET, sign(Buffer.from('not json').toString('base64url')), NOW)).toEqual({
      ok: false,
      reason: 'invalid',
    });
    const { priceCents: _, ...withoutPrice } = payload();
    expect(verifyPingToken(SECRET, sign(b64(withoutPrice)), NOW)).toEqual({ ok: false, reason: 'invalid' });
    expect(verifyPingToken(SECRET, sign(b64({ ...payload(), exp: '9999999999' })), NOW)).toEqual({
      ok: false,
      reason: 'invalid',
    });
    expect(verifyPingToken(SECRET, sign(b64(null)), NOW)).toEqual({ ok: false, reason: 'invalid' });
    // The same helper produces a valid token for a real payload, so the refusals above are about the body.
    expect(verifyPingToken(SECRET, sign(b64(payload())), NOW).ok).toBe(true);
  });
});

describe('newPingId', () => {
  it('is prefixed and unique', () => {
    const ids = new Set(Array.from({ length: 1000 }, newPingId));
    expect(ids.size).toBe(1000);
    for (const id of ids) expect(id).toMatch(/^png_[0-9a-z]{26}$/);
  });
});

describe('ping token checks (mutation testing)', () => {
  const key = deriveKey(SECRET, 'ping-token');
  const sign = (body: string) => `${body}.${createHmac('sha256', key).update(body).digest('base64url')}`;

  it('derives the ping-token key for each secret it is given', () => {
    // A secret no other test uses: the key is derived here, not taken from the cache.
    const secret = 'a-secret-only-this-test-uses-0123456789';
    const token = signPingToken(secret, payload());
    const [body = '', sig] = token.split('.');
    expect(sig).toBe(createHmac('sha256', deriveKey(secret, 'ping-token')).update(body).digest('base64url'));
    expect(verifyPingToken(secret, token, NOW).ok).toBe(true);
    expect(verifyPingToken(SECRET, token, NOW).ok).toBe(false);
  });

  it('refuses a valid token with anything after it', () => {
    const token = signPingToken(SECRET, payload());
    expect(verifyPingToken(SECRET, `${token}.`, NOW)).toEqual({ ok: false, reason: 'invalid' });
    expect(verifyPingToken(SECRET, `${token}.extra`, NOW)).toEqual({ ok: false, reason: 'invalid' });
  });

  it.each([
    ['id', 1],
    ['sourceId', null],
    ['apiKeyId', 2],
    ['service', false],
    ['zip', 10001],
    ['priceCents', 25.5],
    ['channel', 3],
    ['campaign', {}],
    ['test', 'false'],
    ['exp', NOW_S + 300.5],
  ])('refuses a correctly signed body whose %s has the wrong type', (field, value) => {
    expect(verifyPingToken(SECRET, sign(b64({ ...payload(), [field]: value })), NOW)).toEqual({
      ok: false,
      reason: 'invalid',
    });
  });

  it.each([
    ['id', ''],
    ['channel', null],
    ['channel', 'web'],
    ['campaign', null],
    ['campaign', 'SOLAR-NY'],
    ['test', true],
  ])('accepts a correctly signed body whose %s is %j', (field, value) => {
    const p = { ...payload(), [field]: value };
    expect(verifyPingToken(SECRET, sign(b64(p)), NOW)).toEqual({ ok: true, payload: p });
  });
});
