import { describe, expect, it } from 'vitest';
import { adSpendEntrySchema, integrationStatus } from './integration';

describe('integrationStatus (admin spec §4: Expired when the access and the refresh expiry have both passed)', () => {
  const at = 1_000_000;
  it('is Disconnected without tokens', () => {
    expect(integrationStatus(at, null)).toBe('Disconnected');
  });
  it('stays Connected while the refresh token lives, however old the access token', () => {
    expect(integrationStatus(at, { expiresAt: at - 1, refreshExpiresAt: at + 1, hasRefreshToken: true })).toBe(
      'Connected',
    );
    expect(integrationStatus(at, { expiresAt: at - 1, refreshExpiresAt: null, hasRefreshToken: true })).toBe(
      'Connected',
    );
  });
  it('is Expired from the instant both have passed, not a millisecond before', () => {
    expect(integrationStatus(at, { expiresAt: at, refreshExpiresAt: at, hasRefreshToken: true })).toBe('Expired');
    expect(integrationStatus(at, { expiresAt: at + 1, refreshExpiresAt: at, hasRefreshToken: true })).toBe('Connected');
    expect(integrationStatus(at, { expiresAt: at, refreshExpiresAt: at + 1, hasRefreshToken: true })).toBe('Connected');
  });
  it('without a refresh token follows the access token; with no expiry at all it never expires', () => {
    expect(integrationStatus(at, { expiresAt: at, refreshExpiresAt: null, hasRefreshToken: false })).toBe('Expired');
    expect(integrationStatus(at, { expiresAt: at + 1, refreshExpiresAt: null, hasRefreshToken: false })).toBe(
      'Connected',
    );
    expect(integrationStatus(at, { expiresAt: null, refreshExpiresAt: null, hasRefreshToken: false })).toBe(
      'Connected',
    );
  });
});

describe('a day of ad spend entered by hand', () => {
  const ok = { sourceId: 'src_1', day: '2026-11-24', amount: '120.50' };
  it('takes amounts from 0 to 1,000,000 with 2 decimals', () => {
    expect(adSpendEntrySchema.parse(ok).amount).toBe(120.5);
    expect(adSpendEntrySchema.safeParse({ ...ok, amount: 0 }).success).toBe(true);
    expect(adSpendEntrySchema.safeParse({ ...ok, amount: 1_000_000 }).success).toBe(true);
  });
  it.each([
    [{ ...ok, amount: -0.01 }, 'amount', 'Amount must be at least 0'],
    [{ ...ok, amount: 1_000_000.01 }, 'amount', 'Amount must be less than or equal to 1000000'],
    [{ ...ok, amount: '' }, 'amount', 'Amount is required'],
    [{ ...ok, amount: '1.234' }, 'amount', 'Amount must have at most 2 decimals'],
    [{ ...ok, day: '11/24/2026' }, 'day', 'Date must be a date as YYYY-MM-DD'],
    [{ ...ok, day: '2026-02-30' }, 'day', 'Date must be a real date'],
    [{ ...ok, sourceId: '' }, 'sourceId', 'Source is required'],
  ])('refuses %o naming the field', (input, field, message) => {
    const result = adSpendEntrySchema.safeParse(input);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]).toMatchObject({ path: [field], message });
  });
});
