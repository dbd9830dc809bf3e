import { randomBytes } from 'node:crypto';
import { decrypt, deriveKey, encrypt, sha256Hex } from './secrets';

/** Every key starts with this, so a leaked key is recognisable (secret scanners, logs). */
export const API_KEY_PREFIX = 'lx_';

export interface IssuedApiKey {
  /** The key itself: given to the source, never stored in the clear. */
  key: string;
  /** Its readable start, for lists and logs. */
  prefix: string;
  /** SHA-256, the look-up on every public API call. */
  keyHash: string;
  /** AES-GCM copy, so the source portal can show and copy the key (DESIGN.md §4). */
  keyEncrypted: string;
}

/** API keys of sources: 192 random bits, stored as a hash and an encrypted copy. */
export function createApiKeyVault(secret: string) {
  const key = deriveKey(secret, 'api-keys');
  return {
    issue(): IssuedApiKey {
      const plain = `${API_KEY_PREFIX}${randomBytes(24).toString('base64url')}`;
      return { key: plain, prefix: plain.slice(0, 10), keyHash: sha256Hex(plain), keyEncrypted: encrypt(key, plain) };
    },
    hash: (plain: string) => sha256Hex(plain),
    reveal: (keyEncrypted: string) => decrypt(key, keyEncrypted),
  };
}

export type ApiKeyVault = ReturnType<typeof createApiKeyVault>;
