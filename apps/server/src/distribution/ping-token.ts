import { createHmac, timingSafeEqual } from 'node:crypto';
import { BID_OUTCOMES } from '@leadex/domain';
import { newId } from '../lib/ids';
import { deriveKey } from '../lib/secrets';
import type { PackedRound } from './bidding';

/** What a post needs from its ping, carried in the signed `ping_id` (DESIGN.md §4). */
export interface PingTokenPayload {
  /** The ping's own id (`png_…`): the post's idempotency key and the throttle's seed. */
  id: string;
  sourceId: string;
  apiKeyId: string;
  service: string;
  zip: string;
  /** The payout quoted to the source, in cents: the post sells only if revenue still covers it. */
  priceCents: number;
  channel: string | null;
  /**
   * The source's tracking ids the ping carried, if any: the post keeps them (and they win over the
   * post's own), as it keeps the channel. Absent from tokens signed before they were carried.
   */
  subId?: string | null;
  pubId?: string | null;
  /** The Branded Id the ping named, if any. */
  campaign: string | null;
  test: boolean;
  /** Expiry, epoch seconds: the token is refused from this second on. */
  exp: number;
  /**
   * The Ping/Post buyers' answers to this ping (DESIGN.md §6), when any was pinged: the post sells
   * at these bids, and a Ping/Post buyer without one does not buy.
   */
  round?: PackedRound;
}

export type PingTokenCheck = { ok: true; payload: PingTokenPayload } | { ok: false; reason: 'invalid' | 'expired' };

/**
 * How long a quote holds. Five minutes covers a source posting after its own form step while
 * keeping a quote from outliving the caps, hours and balances it was priced against.
 */
export const PING_TOKEN_TTL_SECONDS = 300;

/** A new unique ping id, `png_` + a lower-case ULID (time-sortable like every other id). */
export function newPingId(): string {
  return newId('png');
}

// Deriving the key (HKDF) on every ping would be wasted work on the hot path; the secret does not change.
let cachedKey: { secret: string; key: Buffer } | null = null;

function signingKey(secret: string): Buffer {
  if (cachedKey?.secret !== secret) cachedKey = { secret, key: deriveKey(secret, 'ping-token') };
  return cachedKey.key;
}

function signature(secret: string, body: string): string {
  return createHmac('sha256', signingKey(secret)).update(body).digest('base64url');
}

/** Signs a ping's payload: `base64url(JSON).base64url(HMAC-SHA256)` under a key derived from the secret for this purpose. */
export function signPingToken(secret: string, payload: PingTokenPayload): string {
  const body = Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
  return `${body}.${signature(secret, body)}`;
}

/** Constant-time equality of two strings (length is not secret: a signature's length is public). */
function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  return left.length === right.length && timingSafeEqual(left, right);
}

const isNullableString = (value: unknown): value is string | null => value === null || typeof value === 'string';

const isTuple = (value: unknown, length: number): value is unknown[] => Array.isArray(value) && value.length === length;

/** A round as `packRound` writes it: bids `[buyer, cents, delivery, buyer ping id]`, no bids `[buyer, outcome]`. */
function isRound(value: unknown): value is PackedRound {
  if (typeof value !== 'object' || value === null) return false;
  const { bids, noBids } = value as Record<string, unknown>;
  return (
    Array.isArray(bids) &&
    bids.every(
      (b) =>
        isTuple(b, 4) &&
        typeof b[0] === 'string' &&
        Number.isSafeInteger(b[1]) &&
        (b[1] as number) > 0 &&
        typeof b[2] === 'string' &&
        isNullableString(b[3]),
    ) &&
    Array.isArray(noBids) &&
    noBids.every(
      (n) => isTuple(n, 2) && typeof n[0] === 'string' && (BID_OUTCOMES as readonly unknown[]).includes(n[1]),
    )
  );
}

/** Whether a decoded body has every field of a payload with the right type (signed bodies always do; this guards key reuse or bugs). */
function isPayload(value: unknown): value is PingTokenPayload {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.id === 'string' &&
    typeof v.sourceId === 'string' &&
    typeof v.apiKeyId === 'string' &&
    typeof v.service === 'string' &&
    typeof v.zip === 'string' &&
    Number.isSafeInteger(v.priceCents) &&
    isNullableString(v.channel) &&
    (v.subId === undefined || isNullableString(v.subId)) &&
    (v.pubId === undefined || isNullableString(v.pubId)) &&
    isNullableString(v.campaign) &&
    typeof v.test === 'boolean' &&
    Number.isSafeInteger(v.exp) &&
    (v.round === undefined || isRound(v.round))
  );
}

function decodeBody(body: string): unknown {
  try {
    return JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
}

/**
 * Checks a `ping_id`: 'invalid' when it is malformed or its signature does not match (tampered,
 * or signed with another secret), 'expired' once `now` reaches `exp`. The signature is checked
 * before anything in the body is trusted, and compared in constant time.
 */
export function verifyPingToken(secret: string, token: string, now: Date): PingTokenCheck {
  const parts = token.split('.');
  if (parts.length !== 2) return { ok: false, reason: 'invalid' };
  const [body = '', sig = ''] = parts;
  if (body === '' || sig === '') return { ok: false, reason: 'invalid' };
  // Compare against the canonical encoding, so a signature that merely decodes to the same bytes is refused too.
  if (!safeEqual(sig, signature(secret, body))) return { ok: false, reason: 'invalid' };
  const payload = decodeBody(body);
  if (!isPayload(payload)) return { ok: false, reason: 'invalid' };
  if (now.getTime() >= payload.exp * 1000) return { ok: false, reason: 'expired' };
  return { ok: true, payload };
}
