import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { deriveSigningSecret, newSigningSecret, signWebhook, verifyWebhook } from './webhook-signature';

describe('Standard Webhooks signing', () => {
  const secret = newSigningSecret();
  const payload = JSON.stringify({ lead_id: 'lead_1', phone: '5125550100' });
  const timestamp = new Date();

  it('signs with webhook-id, webhook-timestamp and a v1 HMAC-SHA256 signature', () => {
    const headers = signWebhook(secret, { id: 'msg_1', timestamp, payload });
    expect(headers['webhook-id']).toBe('msg_1');
    expect(headers['webhook-timestamp']).toBe(String(Math.floor(timestamp.getTime() / 1000)));
    // The spec's construction, computed independently: base64(HMAC-SHA256(key, id.ts.payload)).
    const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
    const expected = createHmac('sha256', key)
      .update(`msg_1.${headers['webhook-timestamp']}.${payload}`)
      .digest('base64');
    expect(headers['webhook-signature']).toBe(`v1,${expected}`);
  });

  it('a receiver verifies the signature, and refuses a changed body or another secret', () => {
    const headers = { ...signWebhook(secret, { id: 'msg_2', timestamp, payload }) };
    expect(verifyWebhook(secret, payload, headers)).toEqual(JSON.parse(payload));
    expect(() => verifyWebhook(secret, `${payload} `, headers)).toThrow();
    expect(() => verifyWebhook(newSigningSecret(), payload, headers)).toThrow();
  });

  it('refuses a stale timestamp (replay)', () => {
    const old = new Date(Date.now() - 60 * 60 * 1000);
    const headers = { ...signWebhook(secret, { id: 'msg_3', timestamp: old, payload }) };
    expect(() => verifyWebhook(secret, payload, headers)).toThrow(/timestamp/i);
  });

  it('derives a stable secret per scope', () => {
    const a = deriveSigningSecret('master-secret-of-at-least-32-characters', 'buy_1');
    expect(a).toMatch(/^whsec_/);
    expect(deriveSigningSecret('master-secret-of-at-least-32-characters', 'buy_1')).toBe(a);
    expect(deriveSigningSecret('master-secret-of-at-least-32-characters', 'buy_2')).not.toBe(a);
  });
});
