import { TZDate } from '@date-fns/tz';
import { format, startOfDay, startOfMonth, startOfWeek } from 'date-fns';

/** The calendar periods a count runs over: a campaign's caps (DESIGN.md §5 rule 5), the stats' and bills' periods. */
export const CAP_PERIODS = ['hourly', 'daily', 'weekly', 'monthly'] as const;
export type CapPeriod = (typeof CAP_PERIODS)[number];

/** Hours a campaign takes leads, in its own time zone (DESIGN.md §5 rule 4). */
export interface CampaignTime {
  zone: string;
  weekday: { start: number; end: number };
  weekend: { start: number; end: number };
}

const MS_PER_MINUTE = 60_000;
const MS_PER_SECOND = 1_000;
const WEEKDAY_NAMES = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;
/** Zones remembered by the per-minute caches; far more than the zones campaigns use, so only bad data reaches it. */
const MAX_CACHED_ZONES = 1_000;

/** The wall clock in a zone: day of week (0 = Sunday), hour and minute. */
export interface LocalClock {
  day: number;
  hour: number;
  minute: number;
}

/** True when `zone` is an IANA time zone this runtime knows (validate campaign input with it). */
export function isValidTimeZone(zone: string): boolean {
  if (zone === '') return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** `now` as a wall-clock date in `zone`, or null for a zone the runtime does not know. */
function tryInZone(zone: string, now: Date): TZDate | null {
  // TZDate does not throw on an unknown zone: every field is NaN.
  const local = new TZDate(now.getTime(), zone);
  return Number.isNaN(local.getHours()) ? null : local;
}

/** `now` as a wall-clock date in `zone`; throws on an unknown zone rather than computing with NaN. */
export function inZone(zone: string, now: Date): TZDate {
  const local = tryInZone(zone, now);
  if (local === null) throw new RangeError(`unknown time zone '${zone}'`);
  return local;
}

/** The calendar day (YYYY-MM-DD) of `now` in `zone`: the exchange's days and months are New York's. */
export function dayInZone(zone: string, now: Date): string {
  return format(inZone(zone, now), 'yyyy-MM-dd');
}

/**
 * A small memo keyed by zone and UTC minute. Every zone's offset is a whole number of minutes
 * (today's are multiples of 15), so the local day, hour and minute, and every period start,
 * are the same throughout a UTC minute. Building a TZDate costs about 10 µs; a ping checks the
 * hours of every candidate campaign, so without this the clock would eat the ping's budget.
 * The memo holds only derived values, so functions using it stay pure.
 */
function minuteMemo<T>(compute: (zone: string, now: Date) => T): (zone: string, now: Date) => T {
  const cache = new Map<string, { minute: number; value: T }>();
  return (zone, now) => {
    const minute = Math.floor(now.getTime() / MS_PER_MINUTE);
    const hit = cache.get(zone);
    if (hit !== undefined && hit.minute === minute) return hit.value;
    const value = compute(zone, now);
    if (cache.size >= MAX_CACHED_ZONES) cache.clear();
    cache.set(zone, { minute, value });
    return value;
  };
}

const cachedClock = minuteMemo((zone, now): LocalClock | null => {
  const local = tryInZone(zone, now);
  return local === null ? null : { day: local.getDay(), hour: local.getHours(), minute: local.getMinutes() };
});

/** The wall clock in `zone` at `now`, or null for an unknown zone. */
export function localClock(zone: string, now: Date): LocalClock | null {
  return cachedClock(zone, now);
}

/** Saturday (6) and Sunday (0) take the weekend hours; Monday to Friday the weekday hours. */
export function isWeekendDay(day: number): boolean {
  return day === 0 || day === 6;
}

/** Whether a local hour (0-23) lies in [start, end): end exclusive, start > end wraps midnight, start = end is all day. */
export function hourInRange(hour: number, start: number, end: number): boolean {
  if (start === end) return true;
  if (start < end) return hour >= start && hour < end;
  return hour >= start || hour < end;
}

/** The hours of a local day: its weekday or weekend rule. */
export function hoursOfDay(time: CampaignTime, day: number): { start: number; end: number } {
  return isWeekendDay(day) ? time.weekend : time.weekday;
}

/**
 * Whether the campaign takes leads at `now` (DESIGN.md §5 rule 4). null = always open.
 *
 * After midnight in an overnight window (say weekday 22→6), the rule of the CURRENT local day
 * applies: 01:00 on Saturday is judged by the weekend hours, not by Friday's 22→6. Each local
 * day then has exactly one rule, which is what the campaign form shows a buyer ("weekend
 * hours"), and a buyer who wants no Saturday leads gets none.
 * An unknown zone counts as closed: a campaign we cannot place in time takes no leads.
 */
export function isWithinWindow(time: CampaignTime | null, now: Date): boolean {
  if (time === null) return true;
  const clock = localClock(time.zone, now);
  if (clock === null) return false;
  const { start, end } = hoursOfDay(time, clock.day);
  return hourInRange(clock.hour, start, end);
}

/** A local clock as "21:14 Sat", for explanations. */
export function formatLocalClock(clock: LocalClock): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(clock.hour)}:${pad(clock.minute)} ${WEEKDAY_NAMES[clock.day]}`;
}

/**
 * The start of the hour containing `now` in `zone`.
 *
 * Not date-fns' startOfHour: in the repeated hour of a fall-back change (1 a.m. on the first
 * Sunday of November in the US) it resolves "01:00" to its FIRST occurrence, so the second
 * 1 a.m. hour would share (and overflow) the first one's counter. The hour began as many local
 * minutes, seconds and milliseconds ago as the zone's clock shows, which holds on both passes.
 */
function startOfLocalHour(zone: string, now: Date): Date {
  const local = inZone(zone, now);
  const elapsed = local.getMinutes() * MS_PER_MINUTE + local.getSeconds() * MS_PER_SECOND + local.getMilliseconds();
  return new Date(now.getTime() - elapsed);
}

/** The absolute instant at which the current `period` began in `zone` (weeks start on Monday); throws on an unknown zone. */
export function periodStart(period: CapPeriod, zone: string, now: Date): Date {
  switch (period) {
    case 'hourly':
      return startOfLocalHour(zone, now);
    // Day, week and month start at local midnight; TZDate resolves it across DST (US changes
    // happen at 2 a.m., never at midnight; where a midnight is skipped the day starts at 01:00).
    case 'daily':
      return new Date(startOfDay(inZone(zone, now)).getTime());
    case 'weekly':
      return new Date(startOfWeek(inZone(zone, now), { weekStartsOn: 1 }).getTime());
    case 'monthly':
      return new Date(startOfMonth(inZone(zone, now)).getTime());
  }
}

/** Period starts as epoch ms, memoised per zone and minute (they only change on local hour boundaries). */
const cachedPeriods = minuteMemo((zone, now): Record<CapPeriod, number> | null => {
  if (tryInZone(zone, now) === null) return null;
  return {
    hourly: periodStart('hourly', zone, now).getTime(),
    daily: periodStart('daily', zone, now).getTime(),
    weekly: periodStart('weekly', zone, now).getTime(),
    monthly: periodStart('monthly', zone, now).getTime(),
  };
});

/** The starts of all four cap periods at `now` in `zone`, the keys of the cap counters; throws on an unknown zone. */
export function currentPeriods(zone: string, now: Date): Record<CapPeriod, Date> {
  const starts = cachedPeriods(zone, now);
  if (starts === null) throw new RangeError(`unknown time zone '${zone}'`);
  // Fresh Date objects on every call: a caller mutating one must not corrupt the memo.
  return {
    hourly: new Date(starts.hourly),
    daily: new Date(starts.daily),
    weekly: new Date(starts.weekly),
    monthly: new Date(starts.monthly),
  };
}
