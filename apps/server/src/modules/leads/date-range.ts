import { TZDate } from '@date-fns/tz';
import type { LEAD_DATE_RANGES } from '@leadex/domain';
import { addDays, startOfDay, startOfMonth, startOfYear, subDays } from 'date-fns';
import { AppError } from '../../lib/errors';
import { exchangeZone } from '../../lib/exchange-zone';

/** A half-open span of time: `from` included, `to` excluded. */
export interface TimeSpan {
  from: Date;
  to: Date;
}

/** The start of a calendar day (YYYY-MM-DD) in the exchange's zone. */
export function dayStart(isoDate: string): TZDate {
  const [year, month, day] = isoDate.split('-').map(Number) as [number, number, number];
  const start = new TZDate(year, month - 1, day, exchangeZone());
  // Date's numeric form reads a year 0-99 as 1900-1999 (0001-01-01 would be 1901); setFullYear does not.
  if (year < 100) start.setFullYear(year, month - 1, day);
  return start;
}

/**
 * The span of a leads list's date range (DESIGN.md §11), in whole days of the exchange's zone (America/New_York by default), from the
 * injected clock's `now`, so the simulator's mock date moves it. Every range ends with today (the
 * start of tomorrow, excluded); Last 30 Days is today and the 29 days before it; a custom range
 * takes `begin` and `end` inclusive.
 */
export function leadDateSpan(
  dateq: (typeof LEAD_DATE_RANGES)[number],
  now: Date,
  custom: { begin?: string; end?: string } = {},
): TimeSpan {
  const span = zonedSpan(dateq, now, custom);
  // Plain instants: a TZDate would print (and bind to SQL) in the zone's offset.
  return { from: new Date(span.from.getTime()), to: new Date(span.to.getTime()) };
}

function zonedSpan(
  dateq: (typeof LEAD_DATE_RANGES)[number],
  now: Date,
  custom: { begin?: string; end?: string },
): TimeSpan {
  const today = startOfDay(new TZDate(now.getTime(), exchangeZone()));
  const tomorrow = addDays(today, 1);
  switch (dateq) {
    case 'today':
      return { from: today, to: tomorrow };
    case 'last30d':
      return { from: subDays(today, 29), to: tomorrow };
    case 'mtd':
      return { from: startOfMonth(today), to: tomorrow };
    case 'ytd':
      return { from: startOfYear(today), to: tomorrow };
    case 'range': {
      if (!custom.begin) throw AppError.field('begin', 'Begin is required for a custom range');
      if (!custom.end) throw AppError.field('end', 'End is required for a custom range');
      return { from: dayStart(custom.begin), to: addDays(dayStart(custom.end), 1) };
    }
  }
}

/** Today's date in the exchange's zone as YYYY-MM-DD: the export's file name. */
export function leadsToday(now: Date): string {
  const local = new TZDate(now.getTime(), exchangeZone());
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${local.getFullYear()}-${pad(local.getMonth() + 1)}-${pad(local.getDate())}`;
}

/** A UTC week in milliseconds: whole, since UTC keeps no daylight saving time. */
const WEEK_MS = 7 * 24 * 60 * 60 * 1000;

/** Monday, January 5, 1970, 00:00 UTC: every UTC week starts a whole number of weeks from it. */
const A_MONDAY_MS = Date.UTC(1970, 0, 5);

/**
 * The UTC (Monday) weeks a span touches, as the database writes `date_trunc('week', … at time zone
 * 'UTC')` (YYYY-MM-DDT00:00:00): every instant of the span falls in one of them.
 *
 * Counted in milliseconds: through date-fns with a UTC TZDate a year's 47 weeks cost about 3 ms of the
 * server's CPU per name search (every TZDate step asks Intl for the offset).
 */
export function utcWeeksOf(span: TimeSpan): string[] {
  const last = span.to.getTime() - 1;
  if (last < span.from.getTime()) return [];
  const weekOf = (ms: number) => ms - ((((ms - A_MONDAY_MS) % WEEK_MS) + WEEK_MS) % WEEK_MS);
  const weeks: string[] = [];
  for (let week = weekOf(span.from.getTime()); week <= last; week += WEEK_MS) {
    weeks.push(new Date(week).toISOString().slice(0, 19));
  }
  return weeks;
}
