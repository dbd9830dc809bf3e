import { z } from 'zod';
import { requiredText } from './common';

/**
 * The exchange's zone when the admin has set none (docs/decisions.md "One clock"): every time a
 * screen shows, every "Today" and date range, bill period, dashboard month and CSV timestamp is in it.
 */
export const DEFAULT_EXCHANGE_ZONE = 'America/New_York';

/** The zone's canonical IANA name (America/New_York), or null for a name no time zone has. */
export function canonicalTimeZone(name: string): string | null {
  // IANA names only: Intl would also take offsets such as +05:00, which have no daylight saving rules.
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(name)) return null;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

/** PUT /api/setting/zone: the exchange's time zone, an IANA name. */
export const exchangeZoneSchema = z.object({
  zone: requiredText('Time zone is required', 100).refine((name) => canonicalTimeZone(name) !== null, {
    message: 'Time zone must be a time zone name such as America/New_York',
  }),
});

/** GET and PUT /api/setting/zone: the zone the exchange keeps its clock in. */
export const exchangeZoneAnswerSchema = z.object({
  zone: z.string(),
  /** Its abbreviation now, as the screens show it beside a time ("ET"). */
  abbreviation: z.string(),
});
export type ExchangeZone = z.infer<typeof exchangeZoneAnswerSchema>;

const formatters = new Map<string, Intl.DateTimeFormat>();
/** One formatter per zone and style: building one costs far more than using it. */
function formatter(key: string, build: () => Intl.DateTimeFormat): Intl.DateTimeFormat {
  let found = formatters.get(key);
  if (!found) {
    found = build();
    formatters.set(key, found);
  }
  return found;
}

const partsOf = (f: Intl.DateTimeFormat, at: Date) => {
  const parts: Record<string, string> = {};
  for (const p of f.formatToParts(at)) parts[p.type] = p.value;
  return parts;
};

/**
 * The zone's abbreviation at an instant, as the screens write it beside a time: the generic name
 * where it is short ("ET", "CT", "PT": the same on both sides of a DST change), else the specific
 * one ("UTC", "GMT+1").
 */
export function zoneAbbreviation(zone: string, at: Date): string {
  const generic = partsOf(
    formatter(`g|${zone}`, () => new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'shortGeneric' })),
    at,
  ).timeZoneName;
  if (generic && !generic.includes(' ') && !generic.startsWith('GMT')) return generic;
  return (
    partsOf(
      formatter(`s|${zone}`, () => new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'short' })),
      at,
    ).timeZoneName ?? zone
  );
}

const wallClock = (zone: string) =>
  formatter(
    `w|${zone}`,
    () =>
      new Intl.DateTimeFormat('en-US', {
        timeZone: zone,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
        hourCycle: 'h23',
        timeZoneName: 'longOffset',
      }),
  );

/** The wall clock of the zone at an instant, with its offset from UTC ("-05:00", "+00:00"). */
function wallClockOf(at: Date, zone: string) {
  const p = partsOf(wallClock(zone), at);
  const offset = /GMT([+\-\u2212])(\d{1,2})(?::(\d{2}))?/.exec(p.timeZoneName ?? '');
  return {
    year: p.year ?? '',
    month: p.month ?? '',
    day: p.day ?? '',
    hour: Number(p.hour),
    minute: p.minute ?? '',
    second: p.second ?? '',
    offset: offset
      ? `${offset[1] === '+' ? '+' : '-'}${(offset[2] ?? '').padStart(2, '0')}:${offset[3] ?? '00'}`
      : '+00:00',
  };
}

/** An instant in ISO 8601 with the zone's offset: 2026-11-27T03:31:00-05:00 (the leads CSV). */
export function isoInZone(at: Date, zone: string): string {
  const w = wallClockOf(at, zone);
  const hour = String(w.hour).padStart(2, '0');
  return `${w.year}-${w.month}-${w.day}T${hour}:${w.minute}:${w.second}${w.offset}`;
}

/** The calendar day of an instant in the zone, as YYYY-MM-DD. */
export function dayInTimeZone(at: Date, zone: string): string {
  const w = wallClockOf(at, zone);
  return `${w.year}-${w.month}-${w.day}`;
}

/** A date as the screens show it, in the zone: 11/27/2026. */
export function formatZonedDate(at: Date, zone: string): string {
  const w = wallClockOf(at, zone);
  return `${w.month}/${w.day}/${w.year}`;
}

/** A time as the screens show it, in the zone and labelled with it: 11/27/2026 3:31 AM ET. */
export function formatZonedTime(at: Date, zone: string): string {
  const w = wallClockOf(at, zone);
  const hour12 = w.hour % 12 === 0 ? 12 : w.hour % 12;
  return `${w.month}/${w.day}/${w.year} ${hour12}:${w.minute} ${w.hour < 12 ? 'AM' : 'PM'} ${zoneAbbreviation(zone, at)}`;
}

/**
 * The last second of a calendar day (YYYY-MM-DD) in the zone, as epoch seconds: an API key chosen to
 * expire on a day lasts to that day's end in the exchange's zone, whatever the browser's zone.
 */
export function endOfDayInZone(day: string, zone: string): number {
  const [year, month, date] = day.split('-').map(Number);
  const wanted = Date.UTC(year ?? 0, (month ?? 1) - 1, date ?? 1, 23, 59, 59);
  // The zone's offset at the guess moves it to the wanted wall clock; a second pass settles a guess made
  // on the other side of a daylight-saving change.
  let at = wanted;
  for (let pass = 0; pass < 2; pass++) {
    const w = wallClockOf(new Date(at), zone);
    const seen = Date.UTC(
      Number(w.year),
      Number(w.month) - 1,
      Number(w.day),
      w.hour,
      Number(w.minute),
      Number(w.second),
    );
    at += wanted - seen;
  }
  return Math.floor(at / 1000);
}
