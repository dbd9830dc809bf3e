import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBuyer } from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/harness';
import { suppressionEntries } from '../../db/schema';
import { createContactHasher } from './suppression.hash';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('suppression service (for other modules: erasure, opt-outs)', () => {
  it('adds a contact to the exchange-wide list, normalised, and finds it however it is written', async () => {
    const s = t.deps.services.suppression;
    expect(await s.isSuppressed({ scope: 'global', kind: 'phone', value: '(512) 555-2301' })).toBe(false);
    expect(
      await s.add({ scope: 'global', kind: 'phone', value: '+1 512-555-2301', reason: 'erasure', source: 'erasure' }),
    ).toBe(true);
    expect(await s.isSuppressed({ scope: 'global', kind: 'phone', value: '(512) 555-2301' })).toBe(true);
    expect(await s.isSuppressed({ scope: 'global', kind: 'phone', value: '512-555-2302' })).toBe(false);
    expect(await s.add({ scope: 'global', kind: 'email', value: '  Jane@Example.COM ', source: 'erasure' })).toBe(true);
    expect(await s.isSuppressed({ scope: 'global', kind: 'email', value: 'jane@example.com' })).toBe(true);
    expect(await s.add({ scope: 'global', kind: 'phone', value: 'not a phone', source: 'erasure' })).toBe(false);
  });

  it('a buyer-scoped entry suppresses for that buyer only; a global one for every buyer', async () => {
    const s = t.deps.services.suppression;
    const a = await createBuyer(t);
    const b = await createBuyer(t);
    await s.add({ scope: a._id, kind: 'email', value: 'own@customer.test', source: 'api' });
    expect(await s.isSuppressed({ scope: a._id, kind: 'email', value: 'own@customer.test' })).toBe(true);
    expect(await s.isSuppressed({ scope: b._id, kind: 'email', value: 'own@customer.test' })).toBe(false);
    expect(await s.isSuppressed({ scope: 'global', kind: 'email', value: 'own@customer.test' })).toBe(false);
    expect(await s.isSuppressed({ scope: b._id, kind: 'phone', value: '512-555-2301' })).toBe(true);
  });

  it('stores keyed hashes only: no digit of the phone is in the table', async () => {
    const rows = await t.database.db.select().from(suppressionEntries);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row.hash).not.toMatch(/5125552301|example/);
    // Keyed: the same phone under another secret hashes differently.
    const mine = createContactHasher(t.deps.config.LEADEX_SECRET).of('phone', '5125552301');
    const other = createContactHasher('another-secret-of-at-least-32-characters!').of('phone', '5125552301');
    expect(rows.map((r) => r.hash)).toContain(mine);
    expect(mine).not.toBe(other);
  });
});
