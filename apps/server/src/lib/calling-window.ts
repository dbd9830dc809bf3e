import {
  type CallingHours,
  type CallingRule,
  callingHolidayOf,
  callingRuleOf,
  callingRuleText,
  clockText,
  STATE_ZONES,
  zoneAbbreviation,
  zoneOfPhone,
  zoneOfPlace,
} from '@leadex/domain';
import { dayInZone, localClock } from './time';
import { readZipData } from './zip-data';

/** ZIP -> the consumer's zone, from the ZIP data's state and county; built once, on first use (about 41,000 ZIPs). */
let zipZones: Map<string, string> | null = null;

function zoneOfZip(zip: string): string | null {
  if (zipZones === null) {
    const zones = new Map<string, string>();
    for (const row of readZipData()) {
      const zone = zoneOfPlace(row.state ?? null, row.county ?? null);
      if (zone) zones.set(row.zip, zone);
    }
    zipZones = zones;
  }
  return zipZones.get(zip) ?? null;
}

/** Where the consumer is: the zone, and what it was read from. */
export interface ConsumerZone {
  zone: string;
  /** The ZIP (state and county), else the phone's area code, else the state sent. */
  from: 'zip' | 'area_code' | 'state';
}

/** The consumer's zone: from the ZIP, else the phone's area code (a ZIP the data does not know), else the state; or null. */
export function consumerZone(lead: {
  zip: string | null;
  phone: string | null;
  state: string | null;
}): ConsumerZone | null {
  const byZip = lead.zip ? zoneOfZip(lead.zip) : null;
  if (byZip) return { zone: byZip, from: 'zip' };
  const byPhone = zoneOfPhone(lead.phone);
  if (byPhone) return { zone: byPhone, from: 'area_code' };
  const byState = lead.state ? STATE_ZONES[lead.state.toUpperCase()] : undefined;
  return byState ? { zone: byState, from: 'state' } : null;
}

/** The consumer's state for the rules: the lead's, else the ZIP's (the lead has it from the ZIP table). */
export interface CallingWindow {
  zone: string;
  zoneFrom: ConsumerZone['from'];
  state: string | null;
  rule: CallingRule;
  /** "May call 8am-8pm ET, not on Sundays or state holidays; at most 3 calls or texts per 24 hours". */
  text: string;
  /** At the time asked: whether the consumer may be called, and until when ("9pm HST"), or why not. */
  open: boolean;
  until: string | null;
  reason: string | null;
  /** The consumer's local time then ("3:30pm HST, Friday"). */
  localTime: string;
}

const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;

/** The hours of a local day under a rule, or why that day has none. */
function hoursOn(rule: CallingRule, state: string | null, day: number, date: string): CallingHours | string {
  const holiday = rule.noHolidays ? callingHolidayOf(state, date) : null;
  if (holiday) return `${holiday} is a state holiday with no calls`;
  if (day === 0) {
    if (rule.sunday === 'none') return 'no calls on Sundays';
    if (rule.sunday !== 'same') return rule.sunday;
  }
  if (day === 6 && rule.saturday) return rule.saturday;
  return rule.hours;
}

/**
 * The consumer's calling window at `at`: the zone (ZIP, else area code), the state's rule in force that
 * day (dated data), and whether the consumer may be called then. Null when nothing tells the zone.
 */
export function callingWindowOf(
  lead: { zip: string | null; phone: string | null; state: string | null },
  at: Date,
): CallingWindow | null {
  const where = consumerZone(lead);
  if (!where) return null;
  const state = lead.state ? lead.state.toUpperCase() : null;
  const clock = localClock(where.zone, at);
  if (!clock) return null;
  const date = dayInZone(where.zone, at);
  const rule = callingRuleOf(state, date);
  const z = zoneAbbreviation(where.zone, at);
  const minutes = clock.hour * 60 + clock.minute;
  const hours = hoursOn(rule, state, clock.day, date);
  let reason: string | null = null;
  if (typeof hours === 'string') reason = hours;
  else if (minutes < hours.start) reason = `before ${clockText(hours.start)} ${z}`;
  else if (minutes >= hours.end) reason = `after ${clockText(hours.end)} ${z}`;
  return {
    zone: where.zone,
    zoneFrom: where.from,
    state,
    rule,
    text: callingRuleText(rule, where.zone, at, date),
    open: reason === null,
    until: reason === null && typeof hours !== 'string' ? `${clockText(hours.end)} ${z}` : null,
    reason,
    localTime: `${clockText(minutes)} ${z}, ${DAY_NAMES[clock.day]}`,
  };
}
