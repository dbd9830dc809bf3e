import { describe, expect, it } from 'vitest';
import {
  type CampaignTime,
  currentPeriods,
  dayInZone,
  formatLocalClock,
  hourInRange,
  isValidTimeZone,
  isWithinWindow,
  localClock,
  periodStart,
} from './time';

const at = (iso: string) => new Date(iso);
const iso = (date: Date) => date.toISOString();
const HOUR = 3_600_000;

/** A campaign's hours in `zone`: the local [start, end) hours on weekdays and at weekends. */
const hours = (zone: string, weekday: [number, number], weekend: [number, number]): CampaignTime => ({
  zone,
  weekday: { start: weekday[0], end: weekday[1] },
  weekend: { start: weekend[0], end: weekend[1] },
});

const nine2five = (zone: string) => hours(zone, [9, 17], [10, 14]);

describe('hourInRange', () => {
  it('is end-exclusive for a same-day range', () => {
    expect(hourInRange(6, 7, 19)).toBe(false);
    expect(hourInRange(7, 7, 19)).toBe(true);
    expect(hourInRange(18, 7, 19)).toBe(true);
    expect(hourInRange(19, 7, 19)).toBe(false);
  });

  it('wraps past midnight when start > end', () => {
    expect([21, 22, 23, 0, 5, 6].map((h) => hourInRange(h, 22, 6))).toEqual([false, true, true, true, true, false]);
  });

  it('is all day when start = end', () => {
    for (let h = 0; h < 24; h++) expect(hourInRange(h, 8, 8)).toBe(true);
  });

  it('accepts 24 as the end of the day', () => {
    expect(hourInRange(23, 20, 24)).toBe(true);
    expect(hourInRange(19, 20, 24)).toBe(false);
  });
});

describe('isWithinWindow', () => {
  const eastern = hours('America/New_York', [7, 19], [9, 17]);

  it('is always open without hours', () => {
    expect(isWithinWindow(null, at('2026-01-17T08:00:00Z'))).toBe(true);
  });

  it('opens at the start hour and closes at the end hour, in the campaign zone (Thursday, EST)', () => {
    expect(isWithinWindow(eastern, at('2026-01-15T11:59:00Z'))).toBe(false); // 06:59
    expect(isWithinWindow(eastern, at('2026-01-15T12:00:00Z'))).toBe(true); // 07:00
    expect(isWithinWindow(eastern, at('2026-01-15T23:59:59Z'))).toBe(true); // 18:59:59
    expect(isWithinWindow(eastern, at('2026-01-16T00:00:00Z'))).toBe(false); // 19:00
  });

  it('uses the weekend hours on Saturday and Sunday', () => {
    // Saturday 08:00 local: inside weekday hours, outside weekend hours.
    expect(isWithinWindow(eastern, at('2026-01-17T13:00:00Z'))).toBe(false);
    expect(isWithinWindow(eastern, at('2026-01-17T14:00:00Z'))).toBe(true); // 09:00 Sat
    expect(isWithinWindow(eastern, at('2026-01-18T21:59:00Z'))).toBe(true); // 16:59 Sun
    expect(isWithinWindow(eastern, at('2026-01-18T22:00:00Z'))).toBe(false); // 17:00 Sun
    // Monday 07:00 local: weekday hours again.
    expect(isWithinWindow(eastern, at('2026-01-19T12:00:00Z'))).toBe(true);
  });

  it('judges the weekday/weekend split by the local day, not the UTC day', () => {
    // 2026-01-17T02:00Z is Friday 21:00 in New York but Saturday in UTC.
    const lateFriday = hours('America/New_York', [20, 23], [9, 10]);
    expect(isWithinWindow(lateFriday, at('2026-01-17T02:00:00Z'))).toBe(true);
  });

  describe('overnight window (start > end)', () => {
    const nights = hours('America/New_York', [22, 6], [10, 12]);

    it('is open from the start hour through midnight until the end hour', () => {
      expect(isWithinWindow(nights, at('2026-01-15T02:59:00Z'))).toBe(false); // Wed 21:59
      expect(isWithinWindow(nights, at('2026-01-15T03:00:00Z'))).toBe(true); // Wed 22:00
      expect(isWithinWindow(nights, at('2026-01-15T05:30:00Z'))).toBe(true); // Thu 00:30
      expect(isWithinWindow(nights, at('2026-01-15T10:59:00Z'))).toBe(true); // Thu 05:59
      expect(isWithinWindow(nights, at('2026-01-15T11:00:00Z'))).toBe(false); // Thu 06:00
    });

    it("applies the current local day's rule after midnight", () => {
      expect(isWithinWindow(nights, at('2026-01-17T04:00:00Z'))).toBe(true); // Fri 23:00
      // Sat 01:00: Friday's 22→6 would say open; Saturday's weekend 10-12 says closed.
      expect(isWithinWindow(nights, at('2026-01-17T06:00:00Z'))).toBe(false);
      // Mon 01:00: Sunday was weekend, Monday's weekday rule opens it.
      expect(isWithinWindow(nights, at('2026-01-19T06:00:00Z'))).toBe(true);
    });
  });

  it('is open all day when start = end', () => {
    const allDay = hours('America/Chicago', [0, 0], [5, 5]);
    for (let h = 0; h < 24 * 7; h++) {
      expect(isWithinWindow(allDay, new Date(Date.UTC(2026, 0, 12) + h * HOUR))).toBe(true);
    }
  });

  it('counts a campaign with an unknown zone as closed', () => {
    expect(isWithinWindow({ ...eastern, zone: 'Mars/Olympus_Mons' }, at('2026-01-15T15:00:00Z'))).toBe(false);
  });

  describe('across DST changes: America/Los_Angeles vs America/New_York (9-17 weekdays)', () => {
    const ny = nine2five('America/New_York');
    const la = nine2five('America/Los_Angeles');

    it('in spring, 13:00Z is 08:00 in New York the Monday before the change and 09:00 the Monday after', () => {
      expect(isWithinWindow(ny, at('2026-03-02T13:00:00Z'))).toBe(false); // 08:00 EST
      expect(isWithinWindow(ny, at('2026-03-09T13:00:00Z'))).toBe(true); // 09:00 EDT
    });

    it('in spring, 16:00Z is 08:00 in Los Angeles before and 09:00 after', () => {
      expect(isWithinWindow(la, at('2026-03-02T16:00:00Z'))).toBe(false); // 08:00 PST
      expect(isWithinWindow(la, at('2026-03-09T16:00:00Z'))).toBe(true); // 09:00 PDT
    });

    it('at one instant, New York is open while Los Angeles is not yet', () => {
      const now = at('2026-03-09T13:30:00Z'); // 09:30 EDT, 06:30 PDT
      expect(isWithinWindow(ny, now)).toBe(true);
      expect(isWithinWindow(la, now)).toBe(false);
      const closingNy = at('2026-03-09T21:00:00Z'); // 17:00 EDT, 14:00 PDT
      expect(isWithinWindow(ny, closingNy)).toBe(false);
      expect(isWithinWindow(la, closingNy)).toBe(true);
    });

    it('in autumn, the window moves an hour later in UTC after 2026-11-01', () => {
      expect(isWithinWindow(ny, at('2026-10-26T13:00:00Z'))).toBe(true); // 09:00 EDT
      expect(isWithinWindow(ny, at('2026-11-02T13:00:00Z'))).toBe(false); // 08:00 EST
      expect(isWithinWindow(ny, at('2026-11-02T14:00:00Z'))).toBe(true); // 09:00 EST
      expect(isWithinWindow(la, at('2026-10-26T16:00:00Z'))).toBe(true); // 09:00 PDT
      expect(isWithinWindow(la, at('2026-11-02T16:00:00Z'))).toBe(false); // 08:00 PST
      expect(isWithinWindow(la, at('2026-11-02T17:00:00Z'))).toBe(true); // 09:00 PST
    });

    it('follows the local clock on the change day itself (Sunday 3-4 a.m. window)', () => {
      const threeAm = hours('America/New_York', [0, 0], [3, 4]);
      // 2 a.m. does not exist on 2026-03-08: 01:59 EST is followed by 03:00 EDT.
      expect(isWithinWindow(threeAm, at('2026-03-08T06:59:00Z'))).toBe(false); // 01:59 EST
      expect(isWithinWindow(threeAm, at('2026-03-08T07:00:00Z'))).toBe(true); // 03:00 EDT
      expect(isWithinWindow(threeAm, at('2026-03-08T08:00:00Z'))).toBe(false); // 04:00 EDT
      const laThreeAm = { ...threeAm, zone: 'America/Los_Angeles' };
      expect(isWithinWindow(laThreeAm, at('2026-03-08T07:00:00Z'))).toBe(false); // 23:00 PST Saturday
      expect(isWithinWindow(laThreeAm, at('2026-03-08T10:00:00Z'))).toBe(true); // 03:00 PDT
    });
  });
});

describe('localClock / formatLocalClock', () => {
  it('shows the local hour, minute and weekday', () => {
    const now = at('2026-01-18T02:14:00Z');
    expect(localClock('America/New_York', now)).toEqual({ day: 6, hour: 21, minute: 14 });
    expect(formatLocalClock({ day: 6, hour: 21, minute: 14 })).toBe('21:14 Sat');
    expect(formatLocalClock({ day: 1, hour: 7, minute: 5 })).toBe('07:05 Mon');
  });

  it('is null for an unknown zone', () => {
    expect(localClock('Mars/Olympus_Mons', at('2026-01-18T02:14:00Z'))).toBeNull();
  });

  it('answers each zone and minute right when calls alternate between them (the memo)', () => {
    const now = at('2026-01-18T02:14:00Z');
    const later = at('2026-01-18T02:15:00Z');
    expect(localClock('America/New_York', now)?.minute).toBe(14);
    expect(localClock('America/Los_Angeles', now)?.hour).toBe(18);
    expect(localClock('America/New_York', later)?.minute).toBe(15);
    expect(localClock('America/New_York', now)?.minute).toBe(14);
    expect(localClock('Asia/Kolkata', now)).toEqual({ day: 0, hour: 7, minute: 44 });
  });
});

describe('isValidTimeZone', () => {
  it('knows IANA zones and refuses others', () => {
    expect(isValidTimeZone('America/Los_Angeles')).toBe(true);
    expect(isValidTimeZone('UTC')).toBe(true);
    expect(isValidTimeZone('Mars/Olympus_Mons')).toBe(false);
    expect(isValidTimeZone('')).toBe(false);
  });
});

describe('periodStart', () => {
  /** The start of the day of `next` in `zone`, and how many hours after the start of the day of `now` it is. */
  const dayAfter = (zone: string, now: Date, next: Date) => {
    const start = periodStart('daily', zone, next);
    return { start: iso(start), hours: (start.getTime() - periodStart('daily', zone, now).getTime()) / HOUR };
  };

  it('throws on an unknown zone instead of keying counters by NaN', () => {
    expect(() => periodStart('daily', 'Nowhere/Town', at('2026-01-15T12:00:00Z'))).toThrow(RangeError);
  });

  it('takes the local day, not the UTC day', () => {
    // 22:00 on Jan 15 in New York is already Jan 16 in UTC.
    expect(iso(periodStart('daily', 'America/New_York', at('2026-01-16T03:00:00Z')))).toBe('2026-01-15T05:00:00.000Z');
    expect(iso(periodStart('daily', 'America/Los_Angeles', at('2026-01-16T03:00:00Z')))).toBe(
      '2026-01-15T08:00:00.000Z',
    );
  });

  it('starts a period exactly at its boundary', () => {
    expect(iso(periodStart('daily', 'America/New_York', at('2026-01-15T05:00:00Z')))).toBe('2026-01-15T05:00:00.000Z');
    expect(iso(periodStart('daily', 'America/New_York', at('2026-01-15T04:59:59.999Z')))).toBe(
      '2026-01-14T05:00:00.000Z',
    );
  });

  it('starts weeks on Monday', () => {
    // Sunday 2026-01-18 23:59 local belongs to the week of Monday 2026-01-12.
    expect(iso(periodStart('weekly', 'America/New_York', at('2026-01-19T04:59:00Z')))).toBe('2026-01-12T05:00:00.000Z');
    // Monday 00:00 local starts a new week.
    expect(iso(periodStart('weekly', 'America/New_York', at('2026-01-19T05:00:00Z')))).toBe('2026-01-19T05:00:00.000Z');
  });

  it('follows half-hour zones for the hour', () => {
    // 17:40 in Kolkata (+05:30): the hour began at 17:00 local = 11:30Z, not 12:00Z.
    expect(iso(periodStart('hourly', 'Asia/Kolkata', at('2026-03-23T12:10:00Z')))).toBe('2026-03-23T11:30:00.000Z');
  });

  describe('America/New_York, spring forward 2026-03-08 (02:00 EST → 03:00 EDT)', () => {
    const zone = 'America/New_York';
    const now = at('2026-03-08T07:30:00Z'); // 03:30 EDT

    it('gives every period start as an absolute instant', () => {
      expect(iso(periodStart('hourly', zone, now))).toBe('2026-03-08T07:00:00.000Z'); // 03:00 EDT
      expect(iso(periodStart('daily', zone, now))).toBe('2026-03-08T05:00:00.000Z'); // 00:00 EST
      expect(iso(periodStart('weekly', zone, now))).toBe('2026-03-02T05:00:00.000Z'); // Mon 00:00 EST
      expect(iso(periodStart('monthly', zone, now))).toBe('2026-03-01T05:00:00.000Z');
    });

    it('the hour before the gap is 01:00 EST', () => {
      expect(iso(periodStart('hourly', zone, at('2026-03-08T06:59:00Z')))).toBe('2026-03-08T06:00:00.000Z');
    });

    it('the change day lasts 23 hours', () => {
      // The next day starts at 00:00 EDT.
      expect(dayAfter(zone, now, at('2026-03-09T12:00:00Z'))).toEqual({ start: '2026-03-09T04:00:00.000Z', hours: 23 });
    });

    it('the next week starts at Monday midnight EDT', () => {
      expect(iso(periodStart('weekly', zone, at('2026-03-10T12:00:00Z')))).toBe('2026-03-09T04:00:00.000Z');
    });
  });

  describe('America/New_York, fall back 2026-11-01 (02:00 EDT → 01:00 EST)', () => {
    const zone = 'America/New_York';
    const firstOneAm = at('2026-11-01T05:30:00Z'); // 01:30 EDT
    const secondOneAm = at('2026-11-01T06:30:00Z'); // 01:30 EST

    it('the repeated 1 a.m. hour gives two different hourly starts', () => {
      expect(iso(periodStart('hourly', zone, firstOneAm))).toBe('2026-11-01T05:00:00.000Z');
      expect(iso(periodStart('hourly', zone, secondOneAm))).toBe('2026-11-01T06:00:00.000Z');
    });

    it('both 1 a.m. hours are in the same day, week and month', () => {
      for (const period of ['daily', 'weekly', 'monthly'] as const) {
        expect(iso(periodStart(period, zone, secondOneAm))).toBe(iso(periodStart(period, zone, firstOneAm)));
      }
      expect(iso(periodStart('daily', zone, secondOneAm))).toBe('2026-11-01T04:00:00.000Z'); // 00:00 EDT
      expect(iso(periodStart('weekly', zone, secondOneAm))).toBe('2026-10-26T04:00:00.000Z'); // Mon 00:00 EDT
    });

    it('the change day lasts 25 hours', () => {
      // The next day starts at 00:00 EST.
      expect(dayAfter(zone, firstOneAm, at('2026-11-02T12:00:00Z'))).toEqual({
        start: '2026-11-02T05:00:00.000Z',
        hours: 25,
      });
    });

    it('November started at midnight EDT, before the change', () => {
      expect(iso(periodStart('monthly', zone, at('2026-11-15T12:00:00Z')))).toBe('2026-11-01T04:00:00.000Z');
      expect(iso(periodStart('monthly', zone, at('2026-12-15T12:00:00Z')))).toBe('2026-12-01T05:00:00.000Z');
    });
  });

  describe('America/Los_Angeles, the same dates', () => {
    const zone = 'America/Los_Angeles';

    it('spring forward 2026-03-08 (02:00 PST → 03:00 PDT)', () => {
      const now = at('2026-03-08T10:30:00Z'); // 03:30 PDT
      expect(iso(periodStart('hourly', zone, now))).toBe('2026-03-08T10:00:00.000Z');
      expect(iso(periodStart('daily', zone, now))).toBe('2026-03-08T08:00:00.000Z'); // 00:00 PST
      expect(iso(periodStart('weekly', zone, now))).toBe('2026-03-02T08:00:00.000Z');
      expect(iso(periodStart('monthly', zone, now))).toBe('2026-03-01T08:00:00.000Z');
      expect(iso(periodStart('daily', zone, at('2026-03-09T12:00:00Z')))).toBe('2026-03-09T07:00:00.000Z'); // 00:00 PDT
    });

    it('fall back 2026-11-01: two 1 a.m. hours, one day', () => {
      const first = at('2026-11-01T08:30:00Z'); // 01:30 PDT
      const second = at('2026-11-01T09:30:00Z'); // 01:30 PST
      expect(iso(periodStart('hourly', zone, first))).toBe('2026-11-01T08:00:00.000Z');
      expect(iso(periodStart('hourly', zone, second))).toBe('2026-11-01T09:00:00.000Z');
      expect(iso(periodStart('daily', zone, second))).toBe('2026-11-01T07:00:00.000Z'); // 00:00 PDT
      expect(iso(periodStart('daily', zone, at('2026-11-02T12:00:00Z')))).toBe('2026-11-02T08:00:00.000Z'); // 00:00 PST
    });

    it('at the instant New York starts its day, Los Angeles is still in the previous one', () => {
      const now = at('2026-11-02T05:30:00Z'); // 00:30 EST Monday, 21:30 PST Sunday
      expect(iso(periodStart('daily', 'America/New_York', now))).toBe('2026-11-02T05:00:00.000Z');
      expect(iso(periodStart('daily', zone, now))).toBe('2026-11-01T07:00:00.000Z');
      expect(iso(periodStart('weekly', 'America/New_York', now))).toBe('2026-11-02T05:00:00.000Z');
      expect(iso(periodStart('weekly', zone, now))).toBe('2026-10-26T07:00:00.000Z');
    });
  });

  it.each(['America/New_York', 'America/Los_Angeles'])(
    'every 10 minutes across both 2026 changes in %s: the hour starts within the last hour, one start per hour',
    (zone) => {
      for (const [from, hours] of [
        [Date.UTC(2026, 2, 7), 72],
        [Date.UTC(2026, 9, 31), 72],
      ] as const) {
        const starts = new Set<number>();
        for (let t = from; t < from + hours * HOUR; t += 10 * 60_000) {
          const start = periodStart('hourly', zone, new Date(t)).getTime();
          expect(start).toBeLessThanOrEqual(t);
          expect(t - start).toBeLessThan(HOUR);
          expect(start % HOUR).toBe(0); // whole-hour offsets: hours start on UTC hours
          starts.add(start);
        }
        expect(starts.size).toBe(hours);
      }
    },
  );
});

describe('currentPeriods', () => {
  it('gives all four starts', () => {
    const now = at('2026-11-01T06:30:00Z');
    expect(currentPeriods('America/New_York', now)).toEqual({
      hourly: at('2026-11-01T06:00:00Z'),
      daily: at('2026-11-01T04:00:00Z'),
      weekly: at('2026-10-26T04:00:00Z'),
      monthly: at('2026-11-01T04:00:00Z'),
    });
  });

  it('agrees with periodStart at every step across both DST changes, in two zones at once (the memo)', () => {
    for (const from of [Date.UTC(2026, 2, 7), Date.UTC(2026, 9, 31)]) {
      for (let t = from; t < from + 72 * HOUR; t += 13 * 60_000 + 7_000) {
        const now = new Date(t);
        for (const zone of ['America/New_York', 'America/Los_Angeles']) {
          const periods = currentPeriods(zone, now);
          for (const p of ['hourly', 'daily', 'weekly', 'monthly'] as const) {
            expect(periods[p].getTime()).toBe(periodStart(p, zone, now).getTime());
          }
        }
      }
    }
  });

  it('hands out fresh dates, so a caller changing one does not change the next answer', () => {
    const now = at('2026-01-15T15:00:00Z');
    const first = currentPeriods('America/Chicago', now);
    first.daily.setTime(0);
    expect(iso(currentPeriods('America/Chicago', now).daily)).toBe('2026-01-15T06:00:00.000Z');
  });

  it('throws on an unknown zone', () => {
    expect(() => currentPeriods('Nowhere/Town', at('2026-01-15T15:00:00Z'))).toThrow(RangeError);
  });
});

describe('time edges (mutation testing)', () => {
  it('starts the hour at minute, second and millisecond zero, in a whole-hour and a half-hour zone', () => {
    const now = at('2026-01-15T15:37:45.678Z');
    expect(iso(periodStart('hourly', 'America/New_York', now))).toBe('2026-01-15T15:00:00.000Z');
    expect(iso(currentPeriods('America/New_York', now).hourly)).toBe('2026-01-15T15:00:00.000Z');
    // Kolkata is UTC+5:30: its hour began at 15:30 UTC.
    expect(iso(periodStart('hourly', 'Asia/Kolkata', now))).toBe('2026-01-15T15:30:00.000Z');
  });

  it('names the unknown zone it refuses', () => {
    const now = at('2026-01-15T15:00:00Z');
    expect(() => currentPeriods('Nowhere/Town', now)).toThrow("unknown time zone 'Nowhere/Town'");
    expect(() => periodStart('daily', 'Nowhere/Town', now)).toThrow("unknown time zone 'Nowhere/Town'");
    expect(isValidTimeZone('')).toBe(false);
  });
});

describe('dayInZone', () => {
  it("is the calendar day in the zone, not UTC's, on both sides of its midnight", () => {
    expect(dayInZone('America/New_York', at('2026-11-01T03:59:59Z'))).toBe('2026-10-31');
    expect(dayInZone('America/New_York', at('2026-11-01T04:00:00Z'))).toBe('2026-11-01');
  });
});

describe('currentPeriods of an unknown zone', () => {
  it('refuses it, naming the zone', () => {
    expect(() => currentPeriods('Mars/Olympus', at('2026-11-01T04:00:00Z'))).toThrow(/Mars\/Olympus/);
  });
});
