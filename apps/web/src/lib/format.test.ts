import { afterEach, describe, expect, it } from 'vitest';
import { formatDate, formatTimestamp, setExchangeZone, todayInExchangeZone } from './format';

const ts = (iso: string) => Date.parse(iso) / 1000;

describe('times on the screens: the exchange zone, labelled (docs/decisions.md "One clock")', () => {
  afterEach(() => setExchangeZone(null));

  it('shows the issue’s lead at 3:31 AM ET on its New York day, whatever the browser’s zone', () => {
    expect(formatTimestamp(ts('2026-11-27T08:31:00Z'))).toBe('11/27/2026 3:31 AM ET');
    expect(todayInExchangeZone(new Date('2026-11-27T08:31:00Z'))).toBe('2026-11-27');
    // 11:30 PM in New York is already tomorrow in UTC.
    expect(formatDate(ts('2026-11-28T04:30:00Z'))).toBe('11/27/2026');
    expect(todayInExchangeZone(new Date('2026-11-28T04:30:00Z'))).toBe('2026-11-27');
  });

  it('keeps the wall clock right on both sides of a DST change', () => {
    // Spring forward, 2026-03-08: 1:59 AM EST, then 3:00 AM EDT a minute later.
    expect(formatTimestamp(ts('2026-03-08T06:59:00Z'))).toBe('03/08/2026 1:59 AM ET');
    expect(formatTimestamp(ts('2026-03-08T07:00:00Z'))).toBe('03/08/2026 3:00 AM ET');
    // Fall back, 2026-11-01: 11:30 PM EDT on Oct 31 is 03:30 UTC; 9:00 AM EST on Nov 2 is 14:00 UTC.
    expect(formatTimestamp(ts('2026-11-01T03:30:00Z'))).toBe('10/31/2026 11:30 PM ET');
    expect(formatTimestamp(ts('2026-11-02T14:00:00Z'))).toBe('11/02/2026 9:00 AM ET');
  });

  it('follows the zone the session names, with that zone’s label', () => {
    setExchangeZone('America/Chicago');
    expect(formatTimestamp(ts('2026-11-27T08:31:00Z'))).toBe('11/27/2026 2:31 AM CT');
    setExchangeZone('UTC');
    expect(formatTimestamp(ts('2026-11-27T08:31:00Z'))).toBe('11/27/2026 8:31 AM UTC');
    expect(formatTimestamp(null)).toBe('');
  });
});
