/**
 * Compliance data and pure rules (issue 34 items 3-5): whom a consumer's consent names, and when the
 * consumer may be called. Every rule is DATA with the date it took effect and its source, never code:
 * courts and states keep moving them (docs/compliance.md lists the sources). The server computes the
 * zones and hours with them; the screens and the API documentation read the same tables.
 */

import { z } from 'zod';
import { wholeNumber } from './common';
import { whenMissing } from './messages';
import { zoneAbbreviation } from './time-zone';

// ---------------------------------------------------------------------------------------------
// Consent that names the buyer (item 4)
// ---------------------------------------------------------------------------------------------

/** Words that only say what kind of company it is: dropped on both sides, so "Acme, Inc." matches "ACME LLC". */
export const CONSENT_NAME_SUFFIXES = [
  'l l c',
  'l l p',
  'l p',
  'llc',
  'llp',
  'lllp',
  'pllc',
  'inc',
  'incorporated',
  'corp',
  'corporation',
  'co',
  'company',
  'ltd',
  'limited',
  'lp',
  'plc',
  'pc',
] as const;

const SUFFIX_RE = new RegExp(`\\b(${CONSENT_NAME_SUFFIXES.join('|')})\\b`, 'g');

/**
 * A text as the named-consent rule compares it: `&` read as "and", every run of characters other
 * than ASCII letters and digits a single space, lower case, the company-kind words above dropped,
 * spaces collapsed. The database's `leadex_consent_norm` (migration 0032) is the same rule in SQL:
 * the evidence's covered names are found with it. Both are tested on the same cases.
 */
export function consentNameKey(text: string): string {
  return text
    .replace(/&/g, ' and ')
    .replace(/[^A-Za-z0-9]+/g, ' ')
    .toLowerCase()
    .replace(SUFFIX_RE, ' ')
    .replace(/ +/g, ' ')
    .trim();
}

/** Whether the consent language (as a `consentNameKey`) names one of these legal names (each as a key). */
export function consentNamesAny(languageKey: string, nameKeys: readonly string[]): boolean {
  if (languageKey === '') return false;
  const padded = ` ${languageKey} `;
  return nameKeys.some((key) => key !== '' && padded.includes(` ${key} `));
}

/** The legal names (as given) that the consent language names. */
export function namesCoveredBy(language: string | null | undefined, names: readonly string[]): string[] {
  if (!language) return [];
  const key = consentNameKey(language);
  return names.filter((name) => consentNamesAny(key, [consentNameKey(name)]));
}

// ---------------------------------------------------------------------------------------------
// The consumer's calling window (item 5)
// ---------------------------------------------------------------------------------------------

/** Local hours [start, end) in minutes after midnight. */
export interface CallingHours {
  start: number;
  end: number;
}

/** One dated rule of calling hours: the federal one (state null) or a state's, in force from `effective`. */
export interface CallingRule {
  /** Two-letter state, or null for the federal rule every state's rule narrows. */
  state: string | null;
  /** The day it took effect (YYYY-MM-DD): the rule of a day is the latest one in force that day. */
  effective: string;
  /** Monday to Friday (and Saturday unless `saturday` says otherwise). */
  hours: CallingHours;
  saturday?: CallingHours;
  /** Sunday: the weekday hours, other hours, or no calls at all. */
  sunday: 'same' | 'none' | CallingHours;
  /** Whether calls are banned on the state's legal holidays (`CALLING_HOLIDAYS`). */
  noHolidays: boolean;
  /** Calls or texts on one subject per 24 hours at most; null: no cap. */
  maxPer24h: number | null;
  /** Where the rule comes from (statute), and the date this table last checked it. */
  source: string;
  checked: string;
}

const h = (start: number, end: number): CallingHours => ({ start: start * 60, end: end * 60 });

/**
 * The calling rules, as of 2026-11-27 (docs/compliance.md: sources and dates). A state not listed
 * follows the federal rule. Hours are the consumer's local time.
 */
export const CALLING_RULES: readonly CallingRule[] = [
  {
    state: null,
    effective: '1992-12-20',
    hours: h(8, 21),
    sunday: 'same',
    noHolidays: false,
    maxPer24h: null,
    source: '47 CFR 64.1200(c)(1); 16 CFR 310.4(c) (Telemarketing Sales Rule)',
    checked: '2026-11-27',
  },
  {
    state: 'FL',
    effective: '2021-07-01',
    hours: h(8, 20),
    sunday: 'same',
    noHolidays: false,
    maxPer24h: 3,
    source: 'Fla. Stat. 501.059(8)(b) (Florida Telephone Solicitation Act, SB 1120, 2021)',
    checked: '2026-11-27',
  },
  {
    state: 'OK',
    effective: '2022-11-01',
    hours: h(8, 20),
    sunday: 'same',
    noHolidays: false,
    maxPer24h: 3,
    source: 'Okla. Stat. tit. 15, 775C.4 (Telephone Solicitation Act of 2022)',
    checked: '2026-11-27',
  },
  {
    state: 'MD',
    effective: '2023-01-01',
    hours: h(8, 20),
    sunday: 'same',
    noHolidays: false,
    maxPer24h: 3,
    source: 'Md. Code, Com. Law 14-4503 (Stop the Spam Calls Act of 2023)',
    checked: '2026-11-27',
  },
  {
    state: 'TX',
    effective: '2025-09-01',
    hours: h(9, 21),
    sunday: h(12, 21),
    noHolidays: false,
    maxPer24h: null,
    source: 'Tex. Bus. & Com. Code 301.051 (as amended by SB 140, 2025)',
    checked: '2026-11-27',
  },
  {
    state: 'AL',
    effective: '2008-01-01',
    hours: h(8, 20),
    sunday: 'none',
    noHolidays: true,
    maxPer24h: null,
    source: 'Ala. Admin. Code r. 770-X-6 (Public Service Commission telephone solicitation rules); Ala. Code 1-3-8',
    checked: '2026-11-27',
  },
  {
    state: 'LA',
    effective: '2008-01-01',
    hours: h(8, 20),
    sunday: 'none',
    noHolidays: true,
    maxPer24h: null,
    source: 'La. R.S. 45:811; La. PSC General Order R-29617 (V)(A)(2)',
    checked: '2026-11-27',
  },
  {
    state: 'MS',
    effective: '2008-01-01',
    hours: h(8, 20),
    sunday: 'none',
    noHolidays: true,
    maxPer24h: null,
    source: 'Miss. Code 77-3-725; Miss. Code 3-3-7 (legal holidays)',
    checked: '2026-11-27',
  },
  {
    state: 'RI',
    effective: '2008-01-01',
    hours: h(9, 18),
    saturday: h(10, 17),
    sunday: 'none',
    noHolidays: true,
    maxPer24h: null,
    source: 'R.I. Gen. Laws 5-61-3.4(a)(1)',
    checked: '2026-11-27',
  },
  {
    state: 'UT',
    effective: '2008-01-01',
    hours: h(8, 21),
    sunday: 'none',
    noHolidays: true,
    maxPer24h: null,
    source: 'Utah Code 13-25a-103(5)',
    checked: '2026-11-27',
  },
  {
    state: 'WA',
    effective: '2008-01-01',
    hours: h(8, 20),
    sunday: 'same',
    noHolidays: false,
    maxPer24h: null,
    source: 'RCW 80.36.390(2)',
    checked: '2026-11-27',
  },
  {
    state: 'CT',
    effective: '2023-10-01',
    hours: h(9, 20),
    sunday: 'same',
    noHolidays: false,
    maxPer24h: null,
    source: 'Conn. Gen. Stat. 42-288a (Public Act 23-98)',
    checked: '2026-11-27',
  },
];

/**
 * The legal holidays on which the states with `noHolidays` ban calls, by state and day (the days
 * observed): 2026 to 2029, `CALLING_HOLIDAYS_THROUGH`. Dated data: add the next years before the last
 * one begins (docs/compliance.md; a test fails once the data ends within a year of the rules' check).
 */
const COMMON_HOLIDAYS: Record<string, string> = {
  '2026-01-01': "New Year's Day",
  '2026-01-19': 'Martin Luther King Jr. Day',
  '2026-05-25': 'Memorial Day',
  '2026-07-04': 'Independence Day',
  '2026-09-07': 'Labor Day',
  '2026-11-26': 'Thanksgiving Day',
  '2026-12-25': 'Christmas Day',
  '2027-01-01': "New Year's Day",
  '2027-01-18': 'Martin Luther King Jr. Day',
  '2027-05-31': 'Memorial Day',
  '2027-07-04': 'Independence Day',
  '2027-09-06': 'Labor Day',
  '2027-11-25': 'Thanksgiving Day',
  '2027-12-25': 'Christmas Day',
  '2028-01-01': "New Year's Day",
  '2028-01-17': 'Martin Luther King Jr. Day',
  '2028-05-29': 'Memorial Day',
  '2028-07-04': 'Independence Day',
  '2028-09-04': 'Labor Day',
  '2028-11-23': 'Thanksgiving Day',
  '2028-12-25': 'Christmas Day',
  '2029-01-01': "New Year's Day",
  '2029-01-15': 'Martin Luther King Jr. Day',
  '2029-05-28': 'Memorial Day',
  '2029-07-04': 'Independence Day',
  '2029-09-03': 'Labor Day',
  '2029-11-22': 'Thanksgiving Day',
  '2029-12-25': 'Christmas Day',
};

export const CALLING_HOLIDAYS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  AL: COMMON_HOLIDAYS,
  LA: {
    ...COMMON_HOLIDAYS,
    '2026-02-17': 'Mardi Gras',
    '2027-02-09': 'Mardi Gras',
    '2028-02-29': 'Mardi Gras',
    '2029-02-13': 'Mardi Gras',
  },
  MS: COMMON_HOLIDAYS,
  RI: {
    ...COMMON_HOLIDAYS,
    '2026-08-10': 'Victory Day',
    '2027-08-09': 'Victory Day',
    '2028-08-14': 'Victory Day',
    '2029-08-13': 'Victory Day',
  },
  UT: {
    ...COMMON_HOLIDAYS,
    '2026-07-24': 'Pioneer Day',
    '2027-07-24': 'Pioneer Day',
    '2028-07-24': 'Pioneer Day',
    '2029-07-24': 'Pioneer Day',
  },
};

/** The last day `CALLING_HOLIDAYS` covers: past it, only the holidays on a fixed date are known. */
export const CALLING_HOLIDAYS_THROUGH = '2029-12-31';

/**
 * Past `CALLING_HOLIDAYS_THROUGH`: the holidays that fall on the same date every year (month-day),
 * still banned; the movable ones (Martin Luther King Jr. Day, Memorial Day, Labor Day, Thanksgiving,
 * Mardi Gras, Victory Day) are not known, and the window says so (`callingRuleText`).
 */
const FIXED_HOLIDAYS: Record<string, string> = {
  '01-01': "New Year's Day",
  '07-04': 'Independence Day',
  '12-25': 'Christmas Day',
};
export const CALLING_FIXED_HOLIDAYS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  AL: FIXED_HOLIDAYS,
  LA: FIXED_HOLIDAYS,
  MS: FIXED_HOLIDAYS,
  RI: FIXED_HOLIDAYS,
  UT: { ...FIXED_HOLIDAYS, '07-24': 'Pioneer Day' },
};

/** Whether every holiday of `day` (YYYY-MM-DD) is in the data, the movable ones too. */
export const callingHolidaysKnown = (day: string): boolean => day <= CALLING_HOLIDAYS_THROUGH;

/** The rule in force in `state` on `day` (YYYY-MM-DD): the state's latest, else the federal one. */
export function callingRuleOf(state: string | null, day: string): CallingRule {
  let federal: CallingRule | undefined;
  let own: CallingRule | undefined;
  for (const rule of CALLING_RULES) {
    if (rule.effective > day) continue;
    if (rule.state === null) {
      if (!federal || rule.effective > federal.effective) federal = rule;
    } else if (rule.state === state && (!own || rule.effective > own.effective)) own = rule;
  }
  // The federal rule has no end: the table always holds one in force.
  return own ?? (federal as CallingRule);
}

/** A state's holiday on `day`, if calls are banned on it. */
export function callingHolidayOf(state: string | null, day: string): string | null {
  if (!state) return null;
  if (callingHolidaysKnown(day)) return CALLING_HOLIDAYS[state]?.[day] ?? null;
  return CALLING_FIXED_HOLIDAYS[state]?.[day.slice(5)] ?? null;
}

// ---------------------------------------------------------------------------------------------
// The consumer's time zone: ZIP (state and county) first, else the phone's area code
// ---------------------------------------------------------------------------------------------

/** Each state's main time zone (IANA). */
export const STATE_ZONES: Readonly<Record<string, string>> = {
  AL: 'America/Chicago',
  AK: 'America/Anchorage',
  AZ: 'America/Phoenix',
  AR: 'America/Chicago',
  CA: 'America/Los_Angeles',
  CO: 'America/Denver',
  CT: 'America/New_York',
  DE: 'America/New_York',
  DC: 'America/New_York',
  FL: 'America/New_York',
  GA: 'America/New_York',
  HI: 'Pacific/Honolulu',
  ID: 'America/Boise',
  IL: 'America/Chicago',
  IN: 'America/Indiana/Indianapolis',
  IA: 'America/Chicago',
  KS: 'America/Chicago',
  KY: 'America/New_York',
  LA: 'America/Chicago',
  ME: 'America/New_York',
  MD: 'America/New_York',
  MA: 'America/New_York',
  MI: 'America/Detroit',
  MN: 'America/Chicago',
  MS: 'America/Chicago',
  MO: 'America/Chicago',
  MT: 'America/Denver',
  NE: 'America/Chicago',
  NV: 'America/Los_Angeles',
  NH: 'America/New_York',
  NJ: 'America/New_York',
  NM: 'America/Denver',
  NY: 'America/New_York',
  NC: 'America/New_York',
  ND: 'America/Chicago',
  OH: 'America/New_York',
  OK: 'America/Chicago',
  OR: 'America/Los_Angeles',
  PA: 'America/New_York',
  RI: 'America/New_York',
  SC: 'America/New_York',
  SD: 'America/Chicago',
  TN: 'America/Chicago',
  TX: 'America/Chicago',
  UT: 'America/Denver',
  VT: 'America/New_York',
  VA: 'America/New_York',
  WA: 'America/Los_Angeles',
  WV: 'America/New_York',
  WI: 'America/Chicago',
  WY: 'America/Denver',
  PR: 'America/Puerto_Rico',
  VI: 'America/St_Thomas',
  GU: 'Pacific/Guam',
  AS: 'Pacific/Pago_Pago',
  MP: 'Pacific/Saipan',
};

/** Each of `counties` in `zone`. */
const inZone = (counties: readonly string[], zone: string) => Object.fromEntries(counties.map((c) => [c, zone]));

/**
 * Counties of the split states whose zone is not the state's main one (county names as the ZIP
 * table has them). A county split itself takes the zone of most of its people.
 */
export const COUNTY_ZONES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  FL: inZone(
    ['Escambia', 'Santa Rosa', 'Okaloosa', 'Walton', 'Holmes', 'Washington', 'Bay', 'Jackson', 'Calhoun', 'Gulf'],
    'America/Chicago',
  ),
  TX: { 'El Paso': 'America/Denver', Hudspeth: 'America/Denver' },
  TN: inZone(
    [
      'Anderson',
      'Blount',
      'Bradley',
      'Campbell',
      'Carter',
      'Claiborne',
      'Cocke',
      'Grainger',
      'Greene',
      'Hamblen',
      'Hamilton',
      'Hancock',
      'Hawkins',
      'Jefferson',
      'Johnson',
      'Knox',
      'Loudon',
      'McMinn',
      'Meigs',
      'Monroe',
      'Morgan',
      'Polk',
      'Rhea',
      'Roane',
      'Scott',
      'Sevier',
      'Sullivan',
      'Unicoi',
      'Union',
      'Washington',
    ],
    'America/New_York',
  ),
  KY: inZone(
    [
      'Daviess',
      'Warren',
      'Christian',
      'Hopkins',
      'McCracken',
      'Henderson',
      'Barren',
      'Graves',
      'Muhlenberg',
      'Calloway',
      'Logan',
      'Ohio',
      'Todd',
      'Simpson',
      'Allen',
      'Butler',
      'Marshall',
      'Union',
      'Webster',
      'Caldwell',
      'Trigg',
      'Lyon',
      'Livingston',
      'Crittenden',
      'Ballard',
      'Carlisle',
      'Hickman',
      'Fulton',
      'Breckinridge',
      'Grayson',
      'Hart',
      'Metcalfe',
      'Monroe',
      'Cumberland',
      'Adair',
      'Russell',
      'Clinton',
      'Edmonson',
      'Hancock',
      'McLean',
    ],
    'America/Chicago',
  ),
  IN: inZone(
    [
      'Lake',
      'Porter',
      'LaPorte',
      'Jasper',
      'Newton',
      'Starke',
      'Vanderburgh',
      'Posey',
      'Warrick',
      'Spencer',
      'Gibson',
      'Perry',
    ],
    'America/Chicago',
  ),
  MI: inZone(['Gogebic', 'Iron', 'Dickinson', 'Menominee'], 'America/Menominee'),
  ND: inZone(
    ['Adams', 'Billings', 'Bowman', 'Dunn', 'Golden Valley', 'Grant', 'Hettinger', 'Slope', 'Stark', 'Sioux'],
    'America/Denver',
  ),
  SD: inZone(
    [
      'Pennington',
      'Meade',
      'Lawrence',
      'Butte',
      'Custer',
      'Fall River',
      'Harding',
      'Perkins',
      'Corson',
      'Dewey',
      'Ziebach',
      'Haakon',
      'Jackson',
      'Bennett',
      'Oglala Lakota',
      'Shannon',
      'Stanley',
    ],
    'America/Denver',
  ),
  NE: inZone(
    [
      'Scotts Bluff',
      'Cheyenne',
      'Box Butte',
      'Dawes',
      'Sheridan',
      'Kimball',
      'Morrill',
      'Banner',
      'Sioux',
      'Garden',
      'Deuel',
      'Keith',
      'Perkins',
      'Chase',
      'Dundy',
      'Grant',
      'Arthur',
      'Hooker',
      'Cherry',
    ],
    'America/Denver',
  ),
  KS: inZone(['Sherman', 'Wallace', 'Greeley', 'Hamilton'], 'America/Denver'),
  ID: inZone(
    ['Kootenai', 'Bonner', 'Boundary', 'Benewah', 'Shoshone', 'Latah', 'Clearwater', 'Nez Perce', 'Lewis', 'Idaho'],
    'America/Los_Angeles',
  ),
  OR: { Malheur: 'America/Boise' },
  AK: { 'Aleutians West (CA)': 'America/Adak' },
};

/** The consumer's zone from the ZIP table's state and county; null for no state. */
export function zoneOfPlace(state: string | null, county: string | null): string | null {
  if (!state) return null;
  const byCounty = county ? COUNTY_ZONES[state]?.[county.replace(/ County$/, '')] : undefined;
  return byCounty ?? STATE_ZONES[state] ?? null;
}

/**
 * US area codes by zone, for a lead without a ZIP the table knows. An area code is a place only for
 * landlines and numbers never ported: the ZIP comes first. Codes of the split states go to the zone
 * of most of their people.
 */
const AREA_CODES_BY_ZONE: Readonly<Record<string, string>> = {
  'America/New_York':
    '201 202 260 317 463 502 812 850 906 930 203 207 212 215 216 220 223 229 231 234 239 240 248 252 267 269 272 276 301 302 304 305 313 315 321 326 330 332 336 339 347 351 352 380 386 401 404 407 410 412 413 419 423 434 440 443 445 448 470 475 478 484 508 513 516 517 518 540 551 561 567 570 571 574 585 586 603 606 607 609 610 614 616 617 631 640 646 656 667 678 680 681 686 689 703 704 706 716 717 718 724 727 732 734 740 743 754 757 762 765 770 772 774 781 786 802 803 804 810 813 814 828 838 839 843 845 848 854 856 857 859 860 862 863 864 865 878 904 908 910 912 914 917 919 929 934 937 941 947 954 959 973 978 980 984 989',
  'America/Chicago':
    '205 210 228 308 364 402 405 432 539 660 214 217 218 219 224 225 251 254 256 262 270 281 309 312 314 316 318 319 320 325 331 334 337 346 361 409 414 417 430 447 469 479 501 504 507 512 515 531 534 563 573 580 601 605 608 612 615 618 620 629 630 636 641 651 659 662 682 701 708 712 713 715 726 731 737 763 769 773 779 785 806 815 816 817 830 832 847 870 872 901 903 913 918 920 931 936 938 940 945 952 956 972 979 985',
  'America/Denver': '303 307 385 406 435 505 575 719 720 801 915 970 983',
  'America/Phoenix': '480 520 602 623 928',
  'America/Boise': '208 986',
  'America/Los_Angeles':
    '206 209 213 253 279 310 323 341 350 360 369 408 415 424 425 442 458 503 509 510 530 541 559 562 564 619 626 628 650 657 661 669 702 707 714 725 747 760 775 805 818 820 831 840 858 909 916 925 949 951 971',
  'America/Anchorage': '907',
  'Pacific/Honolulu': '808',
  'America/Puerto_Rico': '787 939',
};

/** Area code -> zone. */
export const AREA_CODE_ZONES: ReadonlyMap<string, string> = new Map(
  Object.entries(AREA_CODES_BY_ZONE).flatMap(([zone, codes]) => codes.split(' ').map((code) => [code, zone] as const)),
);

/** The zone of a 10-digit phone's area code, or null. */
export function zoneOfPhone(phone: string | null | undefined): string | null {
  const digits = phone?.replace(/\D/g, '') ?? '';
  const ten = digits.length === 11 && digits.startsWith('1') ? digits.slice(1) : digits;
  return ten.length === 10 ? (AREA_CODE_ZONES.get(ten.slice(0, 3)) ?? null) : null;
}

/** "8am", "12:30pm": a local time of day in minutes after midnight, as a sentence says it. */
export function clockText(minutes: number): string {
  const hour = Math.floor(minutes / 60) % 24;
  const minute = minutes % 60;
  const suffix = hour < 12 ? 'am' : 'pm';
  const twelve = hour % 12 === 0 ? 12 : hour % 12;
  return `${twelve}${minute ? `:${String(minute).padStart(2, '0')}` : ''}${suffix}`;
}

/**
 * The rule in a sentence: "May call 8am-8pm ET, not on Sundays or state holidays; at most 3 calls per
 * 24 hours". `day` is the consumer's local day: past the holiday data's end, the sentence says which
 * holidays are not known.
 */
export function callingRuleText(rule: CallingRule, zone: string, at: Date, day?: string): string {
  const z = zoneAbbreviation(zone, at);
  const hours = (x: CallingHours) => `${clockText(x.start)}-${clockText(x.end)}`;
  const parts = [`May call ${hours(rule.hours)} ${z}`];
  if (rule.saturday) parts[0] += ` (Saturdays ${hours(rule.saturday)})`;
  const not: string[] = [];
  if (rule.sunday === 'none') not.push('Sundays');
  else if (rule.sunday !== 'same') parts[0] += `, Sundays ${hours(rule.sunday)}`;
  if (rule.noHolidays) not.push('state holidays');
  if (not.length > 0) parts[0] += `, not on ${not.join(' or ')}`;
  if (rule.maxPer24h !== null) parts.push(`at most ${rule.maxPer24h} calls or texts per 24 hours`);
  if (rule.noHolidays && day !== undefined && !callingHolidaysKnown(day))
    parts.push(
      `the state's movable holidays after ${CALLING_HOLIDAYS_THROUGH.slice(0, 4)} are not in Leadex's data: check the day`,
    );
  return parts.join('; ');
}

// ---------------------------------------------------------------------------------------------
// The API's shapes
// ---------------------------------------------------------------------------------------------

/** How long consent evidence is kept by default: the TSR's 5 years plus one, past the TCPA's 4-year limit. */
export const DEFAULT_EVIDENCE_RETENTION_YEARS = 6;

/** A lead's consent evidence as its buyers and the admin read it (GET /api/lead/{id}/compliance). */
export const consentEvidenceSchema = z.object({
  lead_id: z.string(),
  recorded_at: z.string().describe('When the lead arrived and the record was made (ISO 8601, UTC)'),
  record: z.record(z.string(), z.unknown()).describe('The record as stored at the sale; never changed'),
  canonical: z.string().describe("The record's canonical text (PostgreSQL jsonb text): what is hashed"),
  hash: z.string().describe('SHA-256 (hex) of the canonical text, as stored at the sale'),
  hash_checks: z.boolean().describe('The record, read now, still gives the stored hash'),
  retained_until: z
    .string()
    .nullable()
    .describe('When the retention job deletes it (YYYY-MM-DD); null under a legal hold'),
  legal_hold: z
    .object({ reason: z.string().nullable(), set_at: z.string() })
    .nullable()
    .describe("An admin's legal hold: kept until lifted"),
});
export type ConsentEvidence = z.infer<typeof consentEvidenceSchema>;

/** The consumer's calling window at one time. */
const windowAtSchema = z.object({
  open: z.boolean(),
  until: z.string().nullable().describe('"9pm HST": the end of the day\'s window when open'),
  reason: z.string().nullable().describe('Why not, when closed'),
  local_time: z.string().describe("The consumer's local time then"),
});

export const callingWindowSchema = z.object({
  zone: z.string().describe('IANA time zone of the consumer'),
  zone_from: z.enum(['zip', 'area_code', 'state']),
  state: z.string().nullable(),
  text: z.string().describe('"May call 8am-8pm ET, not on Sundays"'),
  max_per_24h: z.number().nullable(),
  rule: z.object({ state: z.string().nullable(), effective: z.string(), source: z.string() }),
  at_arrival: windowAtSchema,
  now: windowAtSchema,
});
export type CallingWindowAnswer = z.infer<typeof callingWindowSchema>;

export const leadComplianceSchema = z.object({
  evidence: consentEvidenceSchema
    .nullable()
    .describe('Null for a lead stored before evidence was kept, or past its retention'),
  calling_window: callingWindowSchema.nullable().describe('Null when neither the ZIP nor the phone tells the zone'),
  sealed: z
    .object({ sealed_at: z.string(), request_id: z.string() })
    .nullable()
    .optional()
    .describe('Set when the lead was erased: its evidence is sealed, read by the admin with a reason'),
});
export type LeadCompliance = z.infer<typeof leadComplianceSchema>;

export const legalHoldSchema = z.object({
  reason: z.string().trim().max(500, 'Reason must be at most 500 characters').optional(),
});

export const evidenceRetentionSchema = z.object({
  years: wholeNumber('Years', 5, 50, {
    coerce: true,
    atLeast: 'Years must be at least 5 (the Telemarketing Sales Rule keeps consent records 5 years)',
  }),
});
export type EvidenceRetention = z.infer<typeof evidenceRetentionSchema>;

/** A service with its Medicare flag (GET /api/compliance/services). */
export const complianceServiceSchema = z.object({
  name: z.string(),
  label: z.string(),
  medicare: z.boolean({ error: 'Medicare must be true or false' }),
});
export type ComplianceService = z.infer<typeof complianceServiceSchema>;

/** Why the admin reads a sealed record (issue 35 item 2): required, kept in the access log. */
export const sealedReadQuery = z.object({
  // A blank reason is no reason: `?reason=` reads as missing.
  reason: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
    z
      .string({ error: whenMissing('Reason is required to read sealed evidence') })
      .trim()
      .min(3, 'Reason must be at least 3 characters')
      .max(500, 'Reason must be at most 500 characters'),
  ),
});

/** A download of the evidence: a sealed record asks the admin's reason. */
export const evidenceDownloadQuery = z.object({ reason: sealedReadQuery.shape.reason.optional() });

/** GET /api/lead/{id}/sealed-evidence: the sealed record, read with a reason. */
export const sealedEvidenceSchema = z.object({ evidence: consentEvidenceSchema });
