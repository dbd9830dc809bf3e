import { createHmac } from 'node:crypto';
import type { SuppressionKind } from '@leadex/domain';
import { normalizeEmail, normalizePhone, normalizeZip } from '../../distribution/normalize';
import { deriveKey } from '../../lib/secrets';

/** The normalised form of a value of a kind (phone: 10 digits, email: trimmed, lower-cased, ZIP: 5 digits), or null. */
export function normaliseContact(kind: SuppressionKind, raw: string): string | null {
  if (kind === 'phone') return normalizePhone(raw);
  if (kind === 'email') return normalizeEmail(raw);
  return normalizeZip(raw);
}

/**
 * Keyed hashes of suppressed contacts: HMAC-SHA-256 of `kind:normalised value` under a key derived
 * from LEADEX_SECRET (HKDF, purpose `suppression`), in base64url. Without the secret a list reads
 * as noise: a phone number's 10 digits cannot be tried one by one against it.
 */
export function createContactHasher(secret: string) {
  const key = deriveKey(secret, 'suppression');
  const hash = (kind: SuppressionKind, normalised: string): string =>
    createHmac('sha256', key).update(`${kind}:${normalised}`).digest('base64url');
  return {
    hash,
    /** The hash of a raw value, or null when it is not a value of the kind. */
    of(kind: SuppressionKind, raw: string): string | null {
      const normalised = normaliseContact(kind, raw);
      return normalised === null ? null : hash(kind, normalised);
    },
  };
}
export type ContactHasher = ReturnType<typeof createContactHasher>;

/** A contact shown without being given away: `•••-•••-1234`, `j•••@example.com`. */
export function maskContact(kind: 'phone' | 'email', normalised: string): string {
  if (kind === 'phone') return `•••-•••-${normalised.slice(-4)}`;
  const [local = '', domain = ''] = normalised.split('@');
  return `${local.slice(0, 1)}•••@${domain}`;
}
