import { describe, expect, it } from 'vitest';
import {
  canonicalTimeZone,
  dayInTimeZone,
  endOfDayInZone,
  exchangeZoneSchema,
  formatZonedDate,
  formatZonedTime,
  isoInZone,
  zoneAbbreviation,
} from './time-zone';

const NY = 'America/New_York';
const at = (iso: string) => new Date(iso);

describe('times in the exchange zone (docs/decisions.md "One clock")', () => {
  it.each([
    // The issue's lead: 3:31 AM ET whatever zone the machine runs in.
    { utc: '2026-11-27T08:31:00Z', shown: '11/27/2026 3:31 AM ET', iso: '2026-11-27T03:31:00-05:00' },
    // Both sides of the spring-forward change (2026-03-08 02:00 EST -> 03:00 EDT).
    { utc: '2026-03-08T06:59:00Z', shown: '03/08/2026 1:59 AM ET', iso: '2026-03-08T01:59:00-05:00' },
    { utc: '2026-03-08T07:00:00Z', shown: '03/08/2026 3:00 AM ET', iso: '2026-03-08T03:00:00-04:00' },
    // Both sides of the fall-back change (2026-11-01 02:00 EDT -> 01:00 EST): 1:30 AM twice.
    { utc: '2026-11-01T05:30:00Z', shown: '11/01/2026 1:30 AM ET', iso: '2026-11-01T01:30:00-04:00' },
    { utc: '2026-11-01T06:30:00Z', shown: '11/01/2026 1:30 AM ET', iso: '2026-11-01T01:30:00-05:00' },
  ])('shows $utc in New York as $shown and $iso', ({ utc, shown, iso }) => {
    expect(formatZonedTime(at(utc), NY)).toBe(shown);
    expect(isoInZone(at(utc), NY)).toBe(iso);
  });

  it('puts an evening in New York on its New York day, not the UTC one', () => {
    expect(dayInTimeZone(at('2026-11-27T03:30:00Z'), NY)).toBe('2026-11-26');
    expect(formatZonedDate(at('2026-11-27T03:30:00Z'), NY)).toBe('11/26/2026');
    expect(formatZonedTime(at('2026-11-27T17:05:00Z'), NY)).toBe('11/27/2026 12:05 PM ET');
    expect(formatZonedTime(at('2026-11-27T05:05:00Z'), NY)).toBe('11/27/2026 12:05 AM ET');
  });

  it('labels other zones with their own abbreviation and offset', () => {
    expect(formatZonedTime(at('2026-11-27T08:31:00Z'), 'UTC')).toBe('11/27/2026 8:31 AM UTC');
    expect(isoInZone(at('2026-11-27T08:31:00Z'), 'UTC')).toBe('2026-11-27T08:31:00+00:00');
    expect(zoneAbbreviation('America/Los_Angeles', at('2026-07-01T12:00:00Z'))).toBe('PT');
    expect(isoInZone(at('2026-07-01T12:00:00Z'), 'Asia/Kolkata')).toBe('2026-07-01T17:30:00+05:30');
  });

  it('takes IANA names only, and names the field when it refuses one', () => {
    expect(canonicalTimeZone('America/Chicago')).toBe('America/Chicago');
    expect(canonicalTimeZone('Mars/Olympus_Mons')).toBeNull();
    expect(canonicalTimeZone('+05:00')).toBeNull();
    const refused = exchangeZoneSchema.safeParse({ zone: 'Eastern Time' });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]).toMatchObject({
      path: ['zone'],
      message: 'Time zone must be a time zone name such as America/New_York',
    });
  });

  it('ends a chosen day at its last second in the zone, on both sides of a daylight-saving change', () => {
    const iso = (day: string, zone: string) => isoInZone(new Date(endOfDayInZone(day, zone) * 1000), zone);
    expect(iso('2026-11-27', NY)).toBe('2026-11-27T23:59:59-05:00');
    expect(iso('2026-07-04', NY)).toBe('2026-07-04T23:59:59-04:00');
    // The days of the changes themselves, and a day on the far side of UTC.
    expect(iso('2026-03-08', NY)).toBe('2026-03-08T23:59:59-04:00');
    expect(iso('2026-11-01', NY)).toBe('2026-11-01T23:59:59-05:00');
    expect(iso('2026-11-27', 'Asia/Tokyo')).toBe('2026-11-27T23:59:59+09:00');
    expect(endOfDayInZone('2026-11-27', 'UTC')).toBe(Date.UTC(2026, 10, 27, 23, 59, 59) / 1000);
  });
});
