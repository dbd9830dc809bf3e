import { describe, expect, it } from 'vitest';
import { formatLeadPhone } from './lead';

describe('formatLeadPhone (admin §2 phone display)', () => {
  it('formats 10 digits, and 11 with a leading 1', () => {
    expect(formatLeadPhone('5125550190')).toBe('(512) 555-0190');
    expect(formatLeadPhone('+1 512-555-0190')).toBe('(512) 555-0190');
  });

  it('leaves an absent phone (an email-only lead) empty, never Invalid', () => {
    expect(formatLeadPhone(undefined)).toBe('');
    expect(formatLeadPhone(null)).toBe('');
    expect(formatLeadPhone('')).toBe('');
    expect(formatLeadPhone('  ')).toBe('');
  });

  it('reads Invalid only for a phone that was sent and cannot be read', () => {
    expect(formatLeadPhone('12345')).toBe('Invalid');
    expect(formatLeadPhone('call me')).toBe('Invalid');
  });
});
