import { describe, expect, it } from 'vitest';
import { leadDateSpan, leadsToday, utcWeeksOf } from './date-range';

const iso = (d: Date) => d.toISOString();

describe('leadDateSpan (America/New_York whole days, from the injected now)', () => {
  // 2026-03-15 03:30 UTC is still March 14 in New York (EDT, UTC-4).
  const lateEvening = new Date('2026-03-15T03:30:00Z');

  it('reads a year below 100 as itself, not as 19xx (0001-01-01 is not 1901)', () => {
    const span = leadDateSpan('range', lateEvening, { begin: '0001-01-01', end: '0099-12-31' });
    expect(span.from.getUTCFullYear()).toBe(1);
    expect(span.to.getUTCFullYear()).toBe(100);
  });

  it('today is the New York day, not the UTC day', () => {
    const span = leadDateSpan('today', lateEvening);
    expect(iso(span.from)).toBe('2026-03-14T04:00:00.000Z');
    expect(iso(span.to)).toBe('2026-03-15T04:00:00.000Z');
  });

  it('a moment after midnight in New York starts the next day', () => {
    const span = leadDateSpan('today', new Date('2026-03-15T04:00:00Z'));
    expect(iso(span.from)).toBe('2026-03-15T04:00:00.000Z');
  });

  it('last 30 days is today and the 29 days before, across the DST change (March 8)', () => {
    const span = leadDateSpan('last30d', lateEvening);
    // February 13 is in EST (UTC-5).
    expect(iso(span.from)).toBe('2026-02-13T05:00:00.000Z');
    expect(iso(span.to)).toBe('2026-03-15T04:00:00.000Z');
  });

  it('this month and this year start at the New York month and year', () => {
    expect(iso(leadDateSpan('mtd', lateEvening).from)).toBe('2026-03-01T05:00:00.000Z');
    expect(iso(leadDateSpan('ytd', lateEvening).from)).toBe('2026-01-01T05:00:00.000Z');
    // On New Year's Eve evening in New York (already January 1 in UTC) the year is still the old one.
    expect(iso(leadDateSpan('ytd', new Date('2027-01-01T02:00:00Z')).from)).toBe('2026-01-01T05:00:00.000Z');
  });

  it('a custom range takes both days whole', () => {
    const span = leadDateSpan('range', lateEvening, { begin: '2026-01-10', end: '2026-01-10' });
    expect(iso(span.from)).toBe('2026-01-10T05:00:00.000Z');
    expect(iso(span.to)).toBe('2026-01-11T05:00:00.000Z');
  });

  it('a custom range needs both ends, named', () => {
    expect(() => leadDateSpan('range', lateEvening, { end: '2026-01-10' })).toThrow('Begin is required');
    expect(() => leadDateSpan('range', lateEvening, { begin: '2026-01-10' })).toThrow('End is required');
  });

  it('names the export after the New York date', () => {
    expect(leadsToday(lateEvening)).toBe('2026-03-14');
  });
});

describe('utcWeeksOf (the UTC Monday weeks a span touches, as the name search index keys them)', () => {
  const span = (from: string, to: string) => ({ from: new Date(from), to: new Date(to) });

  it('names every week from the first instant’s to the last instant’s, not the excluded end’s', () => {
    // Wednesday, February 18 (EST) to the end of Sunday, March 1 in New York: Monday, March 2 in UTC.
    expect(utcWeeksOf(span('2026-02-18T05:00:00Z', '2026-03-02T05:00:00Z'))).toEqual([
      '2026-02-16T00:00:00',
      '2026-02-23T00:00:00',
      '2026-03-02T00:00:00',
    ]);
    // Ending just as a UTC week starts: that week holds no instant of the span.
    expect(utcWeeksOf(span('2026-02-18T05:00:00Z', '2026-03-02T00:00:00Z'))).toEqual([
      '2026-02-16T00:00:00',
      '2026-02-23T00:00:00',
    ]);
  });

  it('is one week for a day inside it, and none for an empty span', () => {
    expect(utcWeeksOf(span('2026-03-14T04:00:00Z', '2026-03-15T04:00:00Z'))).toEqual(['2026-03-09T00:00:00']);
    expect(utcWeeksOf(span('2026-03-14T04:00:00Z', '2026-03-14T04:00:00Z'))).toEqual([]);
  });

  it('starts a week at Monday 00:00 UTC: the last millisecond of a Sunday is the week before', () => {
    expect(utcWeeksOf(span('2026-03-09T00:00:00Z', '2026-03-09T00:00:00.001Z'))).toEqual(['2026-03-09T00:00:00']);
    expect(utcWeeksOf(span('2026-03-08T23:59:59.999Z', '2026-03-09T00:00:00Z'))).toEqual(['2026-03-02T00:00:00']);
    expect(utcWeeksOf(span('2026-03-08T23:59:59.999Z', '2026-03-09T00:00:00.001Z'))).toEqual([
      '2026-03-02T00:00:00',
      '2026-03-09T00:00:00',
    ]);
  });

  it('crosses a year and a daylight saving change in whole weeks (ISO week 1 of 2027 starts on January 4)', () => {
    // This Year in New York, counted on Friday, January 8, 2027: weeks of 2026 and 2027 alike.
    expect(utcWeeksOf(span('2026-12-31T05:00:00Z', '2027-01-09T05:00:00Z'))).toEqual([
      '2026-12-28T00:00:00',
      '2027-01-04T00:00:00',
    ]);
    // Around the US spring change (Sunday, March 8, 2026): still Mondays, 7 days apart.
    expect(utcWeeksOf(span('2026-03-01T05:00:00Z', '2026-03-15T04:00:00Z'))).toEqual([
      '2026-02-23T00:00:00',
      '2026-03-02T00:00:00',
      '2026-03-09T00:00:00',
    ]);
  });

  it('names all of a year’s weeks, 53 for a year that starts on a Thursday', () => {
    // 2026 starts on a Thursday: January 1 falls in the week of Monday, December 29, 2025.
    const weeks = utcWeeksOf(span('2026-01-01T00:00:00Z', '2027-01-01T00:00:00Z'));
    expect(weeks).toHaveLength(53);
    expect(weeks[0]).toBe('2025-12-29T00:00:00');
    expect(weeks.at(-1)).toBe('2026-12-28T00:00:00');
  });
});
