import {
  CALLING_HOLIDAYS,
  CALLING_HOLIDAYS_THROUGH,
  CALLING_RULES,
  consentNameKey,
  namesCoveredBy,
  zoneOfPhone,
} from '@leadex/domain';
import { describe, expect, it } from 'vitest';
import { callingWindowOf } from './calling-window';
import cases from './calling-window.cases.json';

/** A lead of the state (a ZIP there), called at local `time` (ISO with its offset). */
const at = (zip: string, state: string, time: string) => callingWindowOf({ zip, phone: null, state }, new Date(time));
const open = (zip: string, state: string, time: string) => at(zip, state, time)?.open;

// One ZIP per state with its own rule, and the federal rule's (NY), in calling-window.cases.json; all on
// Wednesday 2026-11-18 unless said.
const CASES: { state: string; zip: string; offset: string; start: string; end: string }[] = cases;
const minus = (hhmm: string) => {
  const [h, m] = hhmm.split(':').map(Number) as [number, number];
  const total = h * 60 + m - 1;
  return `${String(Math.floor(total / 60)).padStart(2, '0')}:${String(total % 60).padStart(2, '0')}`;
};

describe('calling hours per state (dated data)', () => {
  it('covers every state rule encoded', () => {
    expect(CALLING_RULES.map((r) => r.state ?? 'NY').sort()).toEqual(CASES.map((c) => c.state).sort());
  });

  for (const c of CASES)
    it(`${c.state}: opens at ${c.start}, closes at ${c.end}, local time`, () => {
      const day = `2026-11-18T`;
      expect(open(c.zip, c.state, `${day}${minus(c.start)}:59${c.offset}`)).toBe(false);
      expect(open(c.zip, c.state, `${day}${c.start}:00${c.offset}`)).toBe(true);
      expect(open(c.zip, c.state, `${day}${minus(c.end)}:59${c.offset}`)).toBe(true);
      expect(open(c.zip, c.state, `${day}${c.end}:00${c.offset}`)).toBe(false);
    });

  it('Sundays: no calls in AL, LA, MS, RI and UT; Texas from noon; the rest as weekdays', () => {
    const sunday = '2026-11-22T';
    for (const c of CASES) {
      const noon = open(c.zip, c.state, `${sunday}12:30:00${c.offset}`);
      expect(noon, c.state).toBe(!['AL', 'LA', 'MS', 'RI', 'UT'].includes(c.state));
    }
    expect(open('75201', 'TX', `${sunday}11:59:59-06:00`)).toBe(false);
    expect(open('75201', 'TX', `${sunday}12:00:00-06:00`)).toBe(true);
    expect(open('75201', 'TX', `${sunday}20:59:59-06:00`)).toBe(true);
    expect(open('75201', 'TX', `${sunday}21:00:00-06:00`)).toBe(false);
    expect(at('84101', 'UT', `${sunday}12:30:00-07:00`)?.reason).toBe('no calls on Sundays');
    expect(at('84101', 'UT', `${sunday}12:30:00-07:00`)?.text).toBe(
      'May call 8am-9pm MT, not on Sundays or state holidays',
    );
  });

  it('Rhode Island keeps shorter Saturday hours', () => {
    expect(open('02903', 'RI', '2026-11-21T09:59:59-05:00')).toBe(false);
    expect(open('02903', 'RI', '2026-11-21T10:00:00-05:00')).toBe(true);
    expect(open('02903', 'RI', '2026-11-21T16:59:59-05:00')).toBe(true);
    expect(open('02903', 'RI', '2026-11-21T17:00:00-05:00')).toBe(false);
  });

  it('holidays: Christmas 2026 closes AL, LA, MS, RI and UT all day; federal states stay open; the day after is open', () => {
    const christmas = '2026-12-25T12:00:00';
    for (const c of CASES)
      expect(open(c.zip, c.state, `${christmas}${c.offset}`), c.state).toBe(
        !['AL', 'LA', 'MS', 'RI', 'UT'].includes(c.state),
      );
    expect(at('70112', 'LA', `${christmas}-06:00`)?.reason).toBe('Christmas Day is a state holiday with no calls');
    expect(open('70112', 'LA', '2026-12-24T12:00:00-06:00')).toBe(true);
    expect(open('84101', 'UT', '2026-07-24T12:00:00-06:00')).toBe(false); // Pioneer Day, Utah only
    expect(open('10001', 'NY', '2026-07-24T12:00:00-04:00')).toBe(true);
  });

  it('holidays of 2028 and 2029 are in the data: Thanksgiving, Mardi Gras on a leap day, Victory Day', () => {
    expect(open('35203', 'AL', '2028-11-22T12:00:00-06:00')).toBe(true);
    expect(at('35203', 'AL', '2028-11-23T12:00:00-06:00')?.reason).toBe(
      'Thanksgiving Day is a state holiday with no calls',
    );
    expect(open('35203', 'AL', '2028-11-24T12:00:00-06:00')).toBe(true);
    expect(open('70112', 'LA', '2028-02-29T12:00:00-06:00')).toBe(false);
    expect(open('70112', 'LA', '2028-02-28T12:00:00-06:00')).toBe(true);
    expect(open('10001', 'NY', '2028-02-29T12:00:00-05:00')).toBe(true);
    expect(open('02903', 'RI', '2028-08-14T12:00:00-04:00')).toBe(false);
    expect(open('39201', 'MS', '2029-11-22T12:00:00-06:00')).toBe(false);
  });

  it('lists every year it covers whole, through CALLING_HOLIDAYS_THROUGH, at least a year past the rules’ check', () => {
    const last = Number(CALLING_HOLIDAYS_THROUGH.slice(0, 4));
    const lastChecked =
      CALLING_RULES.map((r) => r.checked)
        .sort()
        .at(-1) ?? '';
    expect(last).toBeGreaterThanOrEqual(Number(lastChecked.slice(0, 4)) + 2);
    const perYear = (state: string, year: number) =>
      Object.keys(CALLING_HOLIDAYS[state] ?? {}).filter((day) => day.startsWith(String(year))).length;
    for (let year = 2026; year <= last; year++) {
      for (const state of ['AL', 'MS']) expect(perYear(state, year), `${state} ${year}`).toBe(7);
      for (const state of ['LA', 'RI', 'UT']) expect(perYear(state, year), `${state} ${year}`).toBe(8);
    }
    expect(perYear('AL', last + 1)).toBe(0);
  });

  it('past the data’s end: the fixed-date holidays still close, the movable ones are said to be unknown', () => {
    // The last day of the data: as every day before it, nothing to warn of.
    const lastDay = at('35203', 'AL', '2029-12-31T12:00:00-06:00');
    expect(lastDay).toMatchObject({ open: true, text: 'May call 8am-8pm CT, not on Sundays or state holidays' });
    expect(at('35203', 'AL', '2029-12-25T12:00:00-06:00')?.open).toBe(false);
    // The next day: New Year's Day is on a fixed date, so still known; the sentence warns of the rest.
    const next = at('35203', 'AL', '2030-01-01T12:00:00-06:00');
    expect(next).toMatchObject({ open: false, reason: "New Year's Day is a state holiday with no calls" });
    expect(next?.text).toBe(
      "May call 8am-8pm CT, not on Sundays or state holidays; the state's movable holidays after 2029 are not in Leadex's data: check the day",
    );
    expect(open('35203', 'AL', '2030-12-25T12:00:00-06:00')).toBe(false);
    expect(open('84101', 'UT', '2030-07-24T12:00:00-06:00')).toBe(false); // Pioneer Day, on its date
    expect(open('35203', 'AL', '2030-07-24T12:00:00-05:00')).toBe(true);
    // Thanksgiving 2030 moves: not in the data, so the hours alone decide (and the sentence warns).
    expect(at('35203', 'AL', '2030-11-28T12:00:00-06:00')).toMatchObject({ open: true, text: next?.text });
    // A state without a holiday ban says nothing of holidays, before or after.
    expect(at('10001', 'NY', '2030-01-01T12:00:00-05:00')).toMatchObject({ open: true, text: 'May call 8am-9pm ET' });
  });

  it('says the rule in a sentence, with the frequency cap', () => {
    expect(at('33101', 'FL', '2026-11-18T12:00:00-05:00')?.text).toBe(
      'May call 8am-8pm ET; at most 3 calls or texts per 24 hours',
    );
    expect(at('75201', 'TX', '2026-11-18T12:00:00-06:00')?.text).toBe('May call 9am-9pm CT, Sundays 12pm-9pm');
  });

  it('uses the rule in force on the day: Texas before its 2025 rule was federal', () => {
    expect(open('75201', 'TX', '2025-08-20T08:30:00-05:00')).toBe(true);
    expect(open('75201', 'TX', '2025-09-03T08:30:00-05:00')).toBe(false);
  });
});

describe('the consumer’s zone', () => {
  it('comes from the ZIP, the county in split states', () => {
    expect(callingWindowOf({ zip: '32501', phone: null, state: 'FL' }, new Date())?.zone).toBe('America/Chicago'); // Pensacola
    expect(callingWindowOf({ zip: '79901', phone: null, state: 'TX' }, new Date())?.zone).toBe('America/Denver'); // El Paso
    expect(callingWindowOf({ zip: '96813', phone: null, state: 'HI' }, new Date())?.zone).toBe('Pacific/Honolulu');
  });

  it('comes from the area code when the ZIP is unknown, else from the state', () => {
    expect(callingWindowOf({ zip: '00000', phone: '8085550100', state: null }, new Date())).toMatchObject({
      zone: 'Pacific/Honolulu',
      zoneFrom: 'area_code',
    });
    expect(zoneOfPhone('12135550100')).toBe('America/Los_Angeles');
    expect(callingWindowOf({ zip: '00000', phone: null, state: 'ny' }, new Date())?.zoneFrom).toBe('state');
    expect(callingWindowOf({ zip: '00000', phone: '5555550100', state: null }, new Date())).toBeNull();
  });

  it('Hawaii at 8:30pm ET: callable until 9pm HST', () => {
    const w = callingWindowOf({ zip: '96813', phone: null, state: 'HI' }, new Date('2026-11-26T01:30:00Z'));
    expect(w).toMatchObject({ open: true, until: '9pm HST', localTime: '3:30pm HST, Wednesday' });
  });
});

describe('the named-consent rule', () => {
  it('reads names case-insensitively, without punctuation nor the company kind', () => {
    expect(consentNameKey('ACME Home-Services, L.L.C.')).toBe('acme home services');
    expect(consentNameKey('Smith & Jones Co.')).toBe('smith and jones');
    expect(namesCoveredBy('I agree that Acme Home Services Inc. may call me', ['Acme Home Services, LLC'])).toEqual([
      'Acme Home Services, LLC',
    ]);
    // A whole name, never a part of a word.
    expect(namesCoveredBy('I agree that Acmeco Home Services may call me', ['Acme Home Services'])).toEqual([]);
    expect(namesCoveredBy('I agree that Acme may call me', ['Acme Home Services'])).toEqual([]);
    expect(namesCoveredBy(null, ['Acme'])).toEqual([]);
  });
});
