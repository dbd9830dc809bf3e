import { describe, expect, it } from 'vitest';
import { leadDateSpan, leadsToday } from './date-range';

const iso = (d: Date) => d.toISOString();

describe('leadDateSpan (America/New_York whole days, from the injected now)', () => {
  // 2026-03-15 03:30 UTC is still March 14 in New York (EDT, UTC-4).
  const lateEvening = new Date('2026-03-15T03:30:00Z');

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
