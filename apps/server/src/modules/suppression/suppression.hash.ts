import { createHmac } from 'node:crypto';
import { dropEmail, dropPhone, type SuppressionKind } from '@leadex/domain';
import { normalizeEmail, normalizePhone, normalizeZip } from '../../distribution/normalize';
import { deriveKey, sha256Hex } from '../../lib/secrets';

/** The normalised form of a value of a kind (phone: 10 digits, email: trimmed, lower-cased, ZIP: 5 digits), or null. */
export function normaliseContact(kind: SuppressionKind, raw: string): string | null {
  if (kind === 'phone') return normalizePhone(raw);
  if (kind === 'email') return normalizeEmail(raw);
  return normalizeZip(raw);
}

/**
 * Keyed hashes of suppressed contacts: HMAC-SHA-256 of `kind:` and the SHA-256 (hex) of the normalised
 * value, under a key derived from LEADEX_SECRET (HKDF, purpose `suppression`), in base64url. Without
 * the secret a list reads as noise: a phone number's 10 digits cannot be tried one by one against it.
 * The plain SHA-256 inside is the one a ping's `phone_hash` and `email_hash` carry, so a ping's hashes
 * are checked against the lists without the contact itself.
 */
export function contactHasherFor(secret: string) {
  const key = deriveKey(secret, 'suppression');
  const ofSha256 = (kind: SuppressionKind, sha256: string): string =>
    createHmac('sha256', key).update(`${kind}:${sha256}`).digest('base64url');
  const hash = (kind: SuppressionKind, normalised: string): string => ofSha256(kind, sha256Hex(normalised));
  return {
    hash,
    /** The keyed hash of a value known only by its SHA-256 hex (a ping's `phone_hash`, `email_hash`). */
    ofSha256,
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
export { sha256Hex };

/**
 * The DROP hash of a contact (SHA-256 of its DROP normalisation, issue 35 item 3), or null. On the
 * suppression list it is kept keyed like every entry: `kind:sha256:<hex>`, so a list of deletion
 * requests cannot be read back either.
 */
export function dropHashOf(kind: 'phone' | 'email', raw: string): string | null {
  const normalised = kind === 'phone' ? dropPhone(raw) : dropEmail(raw);
  return normalised === null ? null : sha256Hex(normalised);
}
