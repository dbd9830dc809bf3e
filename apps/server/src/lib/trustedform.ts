import { createDecipheriv } from 'node:crypto';
import { trustedFormIdKind } from '@leadex/domain';

/** The certificate types a sealed id names, as `@activeprospect/trustedform-cert-id` reads its first byte. */
const SEALED_TYPES: Record<string, string> = { w: 'web', m: 'mobile', x: 'masked' };

/** Before this no TrustedForm certificate existed: a time read as earlier is no time (an altered id's bytes). */
const TRUSTEDFORM_BEGAN = Date.UTC(2011, 0, 1);

/**
 * The creation time TrustedForm sealed into a web or mobile certificate id (AES-256-GCM: 7 bytes of
 * iv, 8 of tag, 5 sealed: a type byte and the epoch seconds), read as
 * `@activeprospect/trustedform-cert-id` reads it, with the key TrustedForm sealed it with (its first 32
 * characters). Like the module, the tag is not checked: TrustedForm's own ids do not authenticate
 * with it. So an altered id may read as some time: one before TrustedForm existed is taken as none.
 * Null too for a Facebook or ping id (sealed otherwise) and for a type byte the module does not know.
 */
export function trustedFormCreatedAt(id: string, secret: string): Date | null {
  const kind = trustedFormIdKind(id);
  if (kind !== 'web' && kind !== 'mobile') return null;
  const bytes = kind === 'web' ? Buffer.from(id, 'hex') : Buffer.from(id, 'base64');
  try {
    const decipher = createDecipheriv('aes-256-gcm', Buffer.from(secret.slice(0, 32)), bytes.subarray(0, 7), {
      authTagLength: 8,
    });
    decipher.setAuthTag(bytes.subarray(7, 15));
    const sealed = decipher.update(bytes.subarray(15, 20));
    const typeByte = sealed[0] ?? 0;
    // A byte that is no character is the older masked id's mark (the module reads it as U+FFFD).
    if (!(String.fromCharCode(typeByte) in SEALED_TYPES) && typeByte < 0x80) return null;
    const createdAt = sealed.readUInt32BE(1) * 1000;
    return createdAt < TRUSTEDFORM_BEGAN ? null : new Date(createdAt);
  } catch {
    return null;
  }
}
