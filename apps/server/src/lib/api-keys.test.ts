import { describe, expect, it } from 'vitest';
import { API_KEY_PREFIX, createApiKeyVault } from './api-keys';

const vault = createApiKeyVault('x'.repeat(40));

describe('API keys', () => {
  it('issues long random keys with a readable prefix', () => {
    const a = vault.issue();
    const b = vault.issue();
    expect(a.key.startsWith(API_KEY_PREFIX)).toBe(true);
    expect(a.key.length).toBeGreaterThanOrEqual(35);
    expect(a.key).not.toBe(b.key);
    expect(a.prefix).toBe(a.key.slice(0, 10));
  });

  it('stores a hash and an encrypted copy, never the key', () => {
    const issued = vault.issue();
    expect(issued.keyHash).toBe(vault.hash(issued.key));
    expect(issued.keyEncrypted).not.toContain(issued.key.slice(3));
    expect(vault.reveal(issued.keyEncrypted)).toBe(issued.key);
  });

  it('refuses a tampered copy and a copy made under another secret', () => {
    const issued = vault.issue();
    const parts = issued.keyEncrypted.split('.');
    const tampered = [...parts.slice(0, 3), `${parts[3]?.slice(0, -2)}AA`].join('.');
    expect(() => vault.reveal(tampered)).toThrow();
    expect(() => createApiKeyVault('y'.repeat(40)).reveal(issued.keyEncrypted)).toThrow();
  });
});
