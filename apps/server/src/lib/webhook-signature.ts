import { createHmac, randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/** The Standard Webhooks headers a signed delivery carries (DESIGN.md §6). */
export interface SignatureHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

const SECRET_PREFIX = 'whsec_';

/** A new signing secret in the Standard Webhooks form: `whsec_` and 32 random bytes in base64. */
export function newSigningSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

/**
 * A stable signing secret for one scope (a buyer id) derived from the exchange's own secret, so a
 * buyer can be given its secret without another column: HMAC-SHA256(LEADEX_SECRET, scope).
 */
export function deriveSigningSecret(masterSecret: string, scope: string): string {
  const key = createHmac('sha256', masterSecret).update(`webhook-signing:${scope}`).digest('base64');
  return `${SECRET_PREFIX}${key}`;
}

/**
 * Signs a payload: `webhook-id` (the same on every retry of one message, so the receiver can drop
 * duplicates), `webhook-timestamp` (epoch seconds) and `webhook-signature` (`v1,<base64 HMAC-SHA256>`
 * of `id.timestamp.payload`).
 */
export function signWebhook(
  secret: string,
  message: { id: string; timestamp: Date; payload: string },
): SignatureHeaders {
  const signature = new Webhook(secret).sign(message.id, message.timestamp, message.payload);
  return {
    'webhook-id': message.id,
    'webhook-timestamp': String(Math.floor(message.timestamp.getTime() / 1000)),
    'webhook-signature': signature,
  };
}

/** Verifies a signed payload as a receiver would; throws when the signature or timestamp is wrong. */
export function verifyWebhook(secret: string, payload: string, headers: Record<string, string>): unknown {
  return new Webhook(secret).verify(payload, headers);
}
