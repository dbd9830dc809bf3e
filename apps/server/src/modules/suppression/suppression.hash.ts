import { createHash, createHmac } from 'node:crypto';
import { dropEmail, dropPhone, type SuppressionKind } from '@leadex/domain';
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
export function contactHasherFor(secret: string) {
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
export type ContactHasher = ReturnType<typeof contactHasherFor>;

/** A contact shown without being given away: `•••-•••-1234`, `j•••@example.com`. */
export function maskContact(kind: 'phone' | 'email', normalised: string): string {
  if (kind === 'phone') return `•••-•••-${normalised.slice(-4)}`;
  const [local = '', domain = ''] = normalised.split('@');
  return `${local.slice(0, 1)}•••@${domain}`;
}

/** SHA-256 (hex) of a text in UTF-8: the hash California's deletion lists (DROP) are made of. */
export const sha256Hex = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/**
 * The DROP hash of a contact (SHA-256 of its DROP normalisation, issue 35 item 3), or null. On the
 * suppression list it is kept keyed like every entry: `kind:sha256:<hex>`, so a list of deletion
 * requests cannot be read back either.
 */
export function dropHashOf(kind: 'phone' | 'email', raw: string): string | null {
  const normalised = kind === 'phone' ? dropPhone(raw) : dropEmail(raw);
  return normalised === null ? null : sha256Hex(normalised);
}
