import { createCipheriv, createDecipheriv, createSecretKey, type KeyObject, randomFillSync } from 'node:crypto';
import { BID_OUTCOMES, type FieldValue } from '@leadex/domain';
import { newId } from '../lib/ids';
import { deriveKey } from '../lib/secrets';
import type { PackedRound } from './bidding';

/** What a post needs from its ping, carried encrypted in the `ping_id` (DESIGN.md §4). */
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
  /** The service's ping-stage fields the ping carried (issue 33; never personal; money in cents). */
  fields?: Record<string, FieldValue>;
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

/** What the key is derived for: HKDF(LEADEX_SECRET, this), used for nothing else. */
export const PING_TOKEN_KEY_PURPOSE = 'ping-token-aes-256-gcm';
const IV_BYTES = 12;
const TAG_BYTES = 16;

// Deriving the key (HKDF) on every ping would be wasted work on the hot path; the secret does not change.
let cachedKey: { secret: string; key: KeyObject } | null = null;

function tokenKey(secret: string): KeyObject {
  if (cachedKey?.secret !== secret)
    cachedKey = { secret, key: createSecretKey(deriveKey(secret, PING_TOKEN_KEY_PURPOSE)) };
  return cachedKey.key;
}

/**
 * The IVs of the tokens, drawn from the CSPRNG 4 KB at a time rather than one call (and one Buffer) a
 * ping: the same random bytes, each used once, so no two tokens share an IV (GCM's one requirement).
 */
const ivPool = Buffer.alloc(IV_BYTES * 341);
let ivNext = ivPool.length;

function nextIv(): Buffer {
  if (ivNext + IV_BYTES > ivPool.length) {
    randomFillSync(ivPool);
    ivNext = 0;
  }
  const iv = ivPool.subarray(ivNext, ivNext + IV_BYTES);
  ivNext += IV_BYTES;
  return iv;
}

/**
 * Seals a ping's payload: `base64url(iv ‖ AES-256-GCM(JSON) ‖ tag)` under a key derived from the secret for
 * this purpose. Encrypted, not only signed: the token goes to the source, and it carries the Ping/Post buyers'
 * ids, bids and deliveries (issue 29 item 4), which a source must not read. GCM's tag keeps it unforgeable.
 */
export function sealPingToken(secret: string, payload: PingTokenPayload): string {
  const iv = nextIv();
  const cipher = createCipheriv('aes-256-gcm', tokenKey(secret), iv);
  const body = cipher.update(JSON.stringify(payload), 'utf8');
  const rest = cipher.final();
  return Buffer.concat([iv, body, rest, cipher.getAuthTag()]).toString('base64url');
}

/** The JSON a token seals, or undefined when it was not sealed with this key (tampered, foreign, garbage). */
function open(secret: string, token: string): string | undefined {
  // Only the canonical encoding: a token that merely decodes to the same bytes is another token.
  if (!/^[A-Za-z0-9_-]+$/.test(token)) return undefined;
  const bytes = Buffer.from(token, 'base64url');
  if (bytes.length <= IV_BYTES + TAG_BYTES || bytes.toString('base64url') !== token) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', tokenKey(secret), bytes.subarray(0, IV_BYTES), {
      authTagLength: TAG_BYTES,
    });
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    return Buffer.concat([
      decipher.update(bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES)),
      decipher.final(),
    ]).toString('utf8');
  } catch {
    return undefined;
  }
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

/** The ping's fields as `quote` seals them: `{ [key]: text, number or boolean }`. */
function isFieldValues(value: unknown): value is Record<string, FieldValue> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  return Object.values(value).every((v) => typeof v === 'string' || typeof v === 'boolean' || Number.isFinite(v));
}

/** Whether an opened body has every field of a payload with the right type (sealed bodies always do; this guards key reuse or bugs). */
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
    (v.round === undefined || isRound(v.round)) &&
    (v.fields === undefined || isFieldValues(v.fields))
  );
}

function parse(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    return undefined;
  }
}

/**
 * Opens a `ping_id`: 'invalid' when it is malformed or its tag does not match (tampered, or sealed with
 * another secret), 'expired' once `now` reaches `exp`. GCM authenticates the token before anything in it
 * is read (the tag is compared in constant time by OpenSSL).
 */
export function openPingToken(secret: string, token: string, now: Date): PingTokenCheck {
  const json = open(secret, token);
  if (json === undefined) return { ok: false, reason: 'invalid' };
  const payload = parse(json);
  if (!isPayload(payload)) return { ok: false, reason: 'invalid' };
  if (now.getTime() >= payload.exp * 1000) return { ok: false, reason: 'expired' };
  return { ok: true, payload };
}
