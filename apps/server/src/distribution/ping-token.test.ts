import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { deriveKey } from '../lib/secrets';
import { newPingId, openPingToken, PING_TOKEN_KEY_PURPOSE, type PingTokenPayload, sealPingToken } from './ping-token';

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

const ROUND = {
  bids: [['buy_01secretbuyer', 4321, 'whk_01secretdelivery', 'BID-77']],
  noBids: [['buy_02otherbuyer', 'timeout']],
} as PingTokenPayload['round'];

/** Seals any text with the token's key, as a bug or another use of the key could: the shape checks still apply. */
function seal(plain: string, secret = SECRET): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', deriveKey(secret, PING_TOKEN_KEY_PURPOSE), iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url');
}

const sealJson = (value: unknown) => seal(JSON.stringify(value));
const invalid = { ok: false, reason: 'invalid' };

describe('ping token', () => {
  it('gives every token its own IV, past the end of the pooled random bytes, and each opens', () => {
    // 1,000 tokens use the 4 KB pool of IVs nearly three times over.
    const tokens = Array.from({ length: 1000 }, (_, i) => sealPingToken(SECRET, payload({ id: `png_${i}` })));
    const ivs = new Set(tokens.map((t) => Buffer.from(t, 'base64url').subarray(0, 12).toString('hex')));
    expect(ivs.size).toBe(tokens.length);
    expect(tokens.map((t, i) => openPingToken(SECRET, t, NOW).ok && i)).toEqual(tokens.map((_, i) => i));
  });

  it('round-trips its payload', () => {
    const p = payload({ campaign: 'SOLAR-NY', channel: null, test: true });
    expect(openPingToken(SECRET, sealPingToken(SECRET, p), NOW)).toEqual({ ok: true, payload: p });
  });

  it("carries the Ping/Post buyers' bids and no-bids, and refuses a round that is not one", () => {
    const p = payload({ round: ROUND });
    expect(openPingToken(SECRET, sealPingToken(SECRET, p), NOW)).toEqual({ ok: true, payload: p });
    for (const wrong of [
      { bids: [['buy_1', 0, 'whk_1', null]], noBids: [] },
      { bids: [['buy_1', 12.5, 'whk_1', null]], noBids: [] },
      { bids: [], noBids: [['buy_2', 'later']] },
      { bids: [['buy_1', 4000]], noBids: [] },
    ])
      expect(
        openPingToken(
          SECRET,
          sealPingToken(SECRET, payload({ round: wrong as unknown as PingTokenPayload['round'] })),
          NOW,
        ),
      ).toEqual(invalid);
  });

  // Issue 29 item 4 ("Must show"): a ping_id decoded by a source shows no buyer id, bid or delivery id.
  it('shows a source that decodes it no buyer id, bid, delivery id, nor anything else it carries', () => {
    const token = sealPingToken(SECRET, payload({ round: ROUND, priceCents: 1999 }));
    // Every way a source might read it: base64url-decoded whole, or each dot-separated part decoded.
    const readings = [token, ...token.split('.')].map((part) => Buffer.from(part, 'base64url').toString('latin1'));
    for (const text of readings)
      for (const secret of [
        'buy_01secretbuyer',
        'buy_02otherbuyer',
        '4321',
        'whk_01secretdelivery',
        'BID-77',
        'src_1',
        '1999',
        'timeout',
        'solar',
        '10001',
      ])
        expect(text).not.toContain(secret);
    expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(() => JSON.parse(Buffer.from(token, 'base64url').toString('utf8'))).toThrow();
  });

  it('is sealed with AES-256-GCM under the key derived for it, not the raw secret, with a fresh IV each time', () => {
    const p = payload({ round: ROUND });
    const token = sealPingToken(SECRET, p);
    const bytes = Buffer.from(token, 'base64url');
    const open = (key: Buffer) => {
      const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, 12));
      decipher.setAuthTag(bytes.subarray(-16));
      return JSON.parse(Buffer.concat([decipher.update(bytes.subarray(12, -16)), decipher.final()]).toString('utf8'));
    };
    expect(open(deriveKey(SECRET, PING_TOKEN_KEY_PURPOSE))).toEqual(p);
    expect(() => open(deriveKey(SECRET, 'ping-token'))).toThrow();
    // The same quote sealed twice reads differently, so equal bids cannot be spotted across pings.
    expect(sealPingToken(SECRET, p)).not.toBe(token);
  });

  it('refuses a token with any byte changed (a forged price, buyer or expiry)', () => {
    const bytes = Buffer.from(sealPingToken(SECRET, payload()), 'base64url');
    for (let i = 0; i < bytes.length; i++) {
      const forged = Buffer.from(bytes);
      forged[i] = (forged[i] ?? 0) ^ 0x01;
      expect(openPingToken(SECRET, forged.toString('base64url'), NOW)).toEqual(invalid);
    }
  });

  it('refuses a truncated or extended token', () => {
    const token = sealPingToken(SECRET, payload());
    expect(openPingToken(SECRET, token.slice(0, -1), NOW)).toEqual(invalid);
    expect(openPingToken(SECRET, `${token}A`, NOW)).toEqual(invalid);
    expect(openPingToken(SECRET, `${token}.`, NOW)).toEqual(invalid);
    expect(openPingToken(SECRET, `${token}.extra`, NOW)).toEqual(invalid);
    expect(openPingToken(SECRET, `${token}=`, NOW)).toEqual(invalid);
  });

  it('refuses a spelling that merely decodes to the same bytes (only the canonical encoding is the token)', () => {
    const token = sealPingToken(SECRET, payload());
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    // Unless the length is a multiple of 4, the last character has spare bits: another character decodes the same.
    const variant = [...alphabet]
      .map((c) => token.slice(0, -1) + c)
      .find((t) => t !== token && Buffer.from(t, 'base64url').equals(Buffer.from(token, 'base64url')));
    if (variant) expect(openPingToken(SECRET, variant, NOW)).toEqual(invalid);
    expect(openPingToken(SECRET, token, NOW).ok).toBe(true);
  });

  it('refuses a token sealed with another secret', () => {
    const token = sealPingToken('another-secret', payload());
    expect(openPingToken(SECRET, token, NOW)).toEqual(invalid);
    // And the key cache follows the secret back.
    expect(openPingToken('another-secret', token, NOW).ok).toBe(true);
    expect(openPingToken(SECRET, sealPingToken(SECRET, payload()), NOW).ok).toBe(true);
  });

  it('is valid until its expiry second and expired from it on', () => {
    const token = sealPingToken(SECRET, payload({ exp: NOW_S + 60 }));
    expect(openPingToken(SECRET, token, new Date(NOW.getTime() + 59_999)).ok).toBe(true);
    expect(openPingToken(SECRET, token, new Date(NOW.getTime() + 60_000))).toEqual({ ok: false, reason: 'expired' });
    expect(openPingToken(SECRET, token, new Date(NOW.getTime() + 86_400_000))).toEqual({
      ok: false,
      reason: 'expired',
    });
  });

  it('reports a forged expired token as invalid, not expired (the tag is checked first)', () => {
    const forged = Buffer.from(JSON.stringify(payload({ exp: NOW_S - 10 }))).toString('base64url');
    expect(openPingToken(SECRET, forged, NOW)).toEqual(invalid);
  });

  it.each([
    ['empty', ''],
    ['too short to hold an IV and a tag', 'abcdef'],
    ['the old signed shape', `${Buffer.from(JSON.stringify(payload())).toString('base64url')}.${'A'.repeat(43)}`],
    ['dots', 'a.b.c'],
    ['not base64', '!!!.???'],
    ['a UUID', '6f1c1b9e-8a7e-4c55-9a55-1d1f0e7b8a11'],
    ['28 zero bytes', Buffer.alloc(28).toString('base64url')],
  ])('refuses garbage (%s)', (_, token) => {
    expect(openPingToken(SECRET, token, NOW)).toEqual(invalid);
  });

  it('refuses a correctly sealed body that is not a payload', () => {
    expect(openPingToken(SECRET, seal('not json'), NOW)).toEqual(invalid);
    const { priceCents: _, ...withoutPrice } = payload();
    expect(openPingToken(SECRET, sealJson(withoutPrice), NOW)).toEqual(invalid);
    expect(openPingToken(SECRET, sealJson({ ...payload(), exp: '9999999999' }), NOW)).toEqual(invalid);
    expect(openPingToken(SECRET, sealJson(null), NOW)).toEqual(invalid);
    // The same helper produces a valid token for a real payload, so the refusals above are about the body.
    expect(openPingToken(SECRET, sealJson(payload()), NOW).ok).toBe(true);
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
  it('derives the ping-token key for each secret it is given', () => {
    // A secret no other test uses: the key is derived here, not taken from the cache.
    const secret = 'a-secret-only-this-test-uses-0123456789';
    const token = sealPingToken(secret, payload());
    expect(openPingToken(secret, seal(JSON.stringify(payload()), secret), NOW).ok).toBe(true);
    expect(openPingToken(secret, token, NOW).ok).toBe(true);
    expect(openPingToken(SECRET, token, NOW).ok).toBe(false);
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
  ])('refuses a correctly sealed body whose %s has the wrong type', (field, value) => {
    expect(openPingToken(SECRET, sealJson({ ...payload(), [field]: value }), NOW)).toEqual(invalid);
  });

  it.each([
    ['id', ''],
    ['channel', null],
    ['channel', 'web'],
    ['campaign', null],
    ['campaign', 'SOLAR-NY'],
    ['test', true],
  ])('accepts a correctly sealed body whose %s is %j', (field, value) => {
    const p = { ...payload(), [field]: value };
    expect(openPingToken(SECRET, sealJson(p), NOW)).toEqual({ ok: true, payload: p });
  });
});
