import { z } from 'zod';
import { US_STATES } from './constants';

// DESIGN.md §11 "Input hygiene": a failed check reads as a sentence naming the field ("Name must
// be at most 200 characters"), never as the schema library's wording ("Too big: expected string to
// have <=200 characters"). The specs' own texts stay on the schemas; this map words every issue
// that has none. Zod keeps its configuration on globalThis, so importing @leadex/domain installs
// it for every schema of the process (the server's, the web's, the libraries'), whichever copy of
// Zod made them.

type RawIssue = z.core.$ZodRawIssue;
type Path = readonly PropertyKey[];

/** Labels of the fields whose names do not read well humanised; the longest dotted suffix wins. */
const FIELD_LABELS: Record<string, string> = {
  autoApproveReturns: 'Auto Approve Returns',
  bill: 'Billing information',
  'bill.pay': 'Payment method',
  'bill.period': 'Billing period',
  'bill.grace': 'Grace period',
  'bill.threshold': 'Credit threshold',
  canPostLead: 'Can Post Direct',
  'channels.max_cost': 'Max cost',
  'channels.name': 'Channel name',
  contactName: 'Contact name',
  showSource: 'Show Lead Sources',
  email_hash: 'Email hash',
  fixed_id: 'Branded Id',
  ip: 'IP address',
  jornaya: 'Jornaya LeadiD',
  keyname: 'Key name',
  max: 'Limits',
  'max.hourly': 'Hourly limit',
  'max.daily': 'Daily limit',
  'max.weekly': 'Weekly limit',
  'max.monthly': 'Monthly limit',
  max_cost: 'Lead cost',
  minprice: 'Min. price',
  'notify.email': 'Email list',
  'notify.sms': 'SMS list',
  notify: 'Lead Delivery',
  pageSize: 'Page size',
  pay: 'Payment method',
  pct: 'Percent',
  phone_hash: 'Phone hash',
  ping_id: 'Ping ID',
  pub_id: 'Pub ID',
  q: 'Search text',
  return_id: 'Return ID',
  secretname: 'Secret name',
  shared: 'Shared Leads',
  shared_price: 'Shared Price',
  source_filter: 'Source Restrictions',
  static: 'Hardcoded values',
  sub_id: 'Sub ID',
  tcpa_consent: 'TCPA consent',
  tcpa_language: 'TCPA language',
  time: 'Time Restrictions',
  timeOn: 'Time Restrictions',
  'weekday.start': 'Weekday start hour',
  'weekday.end': 'Weekday end hour',
  'weekend.start': 'Weekend start hour',
  'weekend.end': 'Weekend end hour',
  trusted_form: 'TrustedForm certificate',
  url: 'URL',
  user_agent: 'User agent',
  zip: 'ZIP',
  zips: 'ZIP codes',
  zone: 'Time zone',
};

/** Words kept in capitals when a field name is humanised. */
const ACRONYMS = new Set(['api', 'id', 'ip', 'sms', 'tcpa', 'url', 'zip']);

/** `tcpa_language` -> "TCPA language", `contactName` -> "Contact name". */
export function humanizeFieldName(name: string): string {
  const words = name
    .replace(/([a-z\d])([A-Z])/g, '$1 $2')
    .split(/[\s_.-]+/)
    .filter(Boolean)
    .map((word) => (ACRONYMS.has(word.toLowerCase()) ? word.toUpperCase() : word.toLowerCase()));
  const text = words.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The label a message names a field by: "Name", "Hourly limit", "Tags entry 3"; "Input" for the whole value. */
export function fieldLabel(path: Path): string {
  const last = path.at(-1);
  if (typeof last === 'number') {
    const parent = path.slice(0, -1);
    return parent.length === 0 ? `Entry ${last + 1}` : `${fieldLabel(parent)} entry ${last + 1}`;
  }
  const names = path.filter((key): key is string => typeof key === 'string');
  if (names.length === 0) return 'Input';
  for (let start = 0; start < names.length; start++) {
    const label = FIELD_LABELS[names.slice(start).join('.')];
    if (label) return label;
  }
  return humanizeFieldName(names.at(-1) as string);
}

const TYPE_NOUNS: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  bigint: 'a whole number',
  nan: 'a number',
  boolean: 'true or false',
  object: 'an object of fields',
  record: 'an object of fields',
  map: 'an object of fields',
  array: 'a list',
  tuple: 'a list',
  set: 'a list',
  date: 'a date',
  file: 'a file',
  null: 'empty',
};

const FORMAT_NOUNS: Record<string, string> = {
  email: 'a valid email address',
  url: 'a valid URL',
  uuid: 'a valid id',
  guid: 'a valid id',
  cuid: 'a valid id',
  cuid2: 'a valid id',
  ulid: 'a valid id',
  nanoid: 'a valid id',
  datetime: 'a valid date and time',
  date: 'a valid date',
  time: 'a valid time',
  duration: 'a valid duration',
  ipv4: 'a valid IPv4 address',
  ipv6: 'a valid IPv6 address',
  cidrv4: 'a valid IPv4 range',
  cidrv6: 'a valid IPv6 range',
  base64: 'valid base64 text',
  base64url: 'valid base64url text',
  e164: 'a phone number in E.164 format',
  jwt: 'a valid token',
  json_string: 'valid JSON',
  lowercase: 'in lowercase',
  uppercase: 'in uppercase',
};

/** "a, b or c". */
function orList(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`;
}

/** "1 character", "200 characters", "3 entries". */
const plural = (count: number | bigint, word: string) =>
  Number(count) === 1 ? `${count} ${word}` : `${count} ${word.replace(/y$/, 'ie')}s`;

/** "Tags are", "Status is": the verb that agrees with a label. */
const is = (label: string) => (/[^siu]s$/i.test(label) ? `${label} are` : `${label} is`);
const has = (label: string) => (/[^siu]s$/i.test(label) ? `${label} have` : `${label} has`);
const needs = (label: string) => (/[^siu]s$/i.test(label) ? `${label} need` : `${label} needs`);

/** An option of a union that failed on its type alone (so says little about what was meant). */
const typeMismatch = (option: readonly z.core.$ZodIssue[]) =>
  option.length === 1 && option[0]?.code === 'invalid_type' && option[0].path.length === 0;
const isUsStateList = (values: readonly unknown[]) =>
  values.length === US_STATES.length && US_STATES.every((state) => values.includes(state));

/** How a maximum and a minimum are worded: an inclusive bound, a strict one on a count or on a value, a date's. */
const UPPER_BOUND = { within: 'at most', strictCount: 'fewer than', strictValue: 'less than', date: 'no later than' };
const LOWER_BOUND = {
  within: 'at least',
  strictCount: 'more than',
  strictValue: 'greater than',
  date: 'no earlier than',
};

/** "must be at most 200 characters", "must have at least 2 entries", …: a length, size or value past its bound. */
function boundMessage(
  label: string,
  issue: z.core.$ZodRawIssue<z.core.$ZodIssueTooBig | z.core.$ZodIssueTooSmall>,
  bound: number | bigint,
  words: typeof UPPER_BOUND,
): string {
  switch (issue.origin) {
    case 'string':
      if (issue.exact) return `${label} must be exactly ${plural(bound, 'character')}`;
      return `${label} must be ${issue.inclusive === false ? words.strictCount : words.within} ${plural(bound, 'character')}`;
    case 'array':
    case 'set':
      if (issue.exact) return `${label} must have exactly ${plural(bound, 'entry')}`;
      return `${label} must have ${words.within} ${plural(bound, 'entry')}`;
    case 'date':
      return `${label} must be ${words.date} ${new Date(Number(bound)).toISOString()}`;
    case 'file':
      return `${label} must be ${words.within} ${plural(bound, 'byte')}`;
    default:
      return `${label} must be ${issue.inclusive === false ? words.strictValue : words.within} ${bound}`;
  }
}

/** The sentence for an issue whose schema gave no message of its own. */
export function issueMessage(issue: RawIssue): string {
  const path = issue.path ?? [];
  const label = fieldLabel(path);
  // A list's length checks also run on a text sent in its place, after its "must be a list".
  const owner = issue.schema?._zod.def.type;
  if ((owner === 'array' || owner === 'set') && (issue.code === 'too_big' || issue.code === 'too_small'))
    if (!Array.isArray(issue.input) && !(issue.input instanceof Set)) return `${label} must be a list`;
  switch (issue.code) {
    case 'invalid_type': {
      if (issue.input === undefined) return `${is(label)} required`;
      if (['never', 'undefined', 'void'].includes(issue.expected)) return `${is(label)} not accepted here`;
      const noun = TYPE_NOUNS[issue.expected];
      return noun ? `${label} must be ${noun}` : `${is(label)} not valid`;
    }
    case 'too_big':
      return boundMessage(label, issue, issue.maximum, UPPER_BOUND);
    case 'too_small': {
      // Below a minimum of one, a text is empty and a list has nothing: said as such.
      if (Number(issue.minimum) === 1 && !issue.exact) {
        if (issue.origin === 'string' && issue.inclusive !== false) return `${label} cannot be empty`;
        if (issue.origin === 'array' || issue.origin === 'set') return `${needs(label)} at least one entry`;
      }
      return boundMessage(label, issue, issue.minimum, LOWER_BOUND);
    }
    case 'invalid_format': {
      const format = issue as RawIssue & { prefix?: string; suffix?: string; includes?: string };
      if (issue.format === 'starts_with') return `${label} must start with "${format.prefix}"`;
      if (issue.format === 'ends_with') return `${label} must end with "${format.suffix}"`;
      if (issue.format === 'includes') return `${label} must contain "${format.includes}"`;
      const noun = FORMAT_NOUNS[issue.format];
      return noun ? `${label} must be ${noun}` : `${is(label)} not in a valid format`;
    }
    case 'not_multiple_of':
      return `${label} must be a multiple of ${issue.divisor}`;
    case 'unrecognized_keys': {
      const keys = orList(issue.keys.map((key) => `"${key}"`)).replace(/ or /, ' and ');
      const known = issue.keys.length === 1 ? 'is not a known field' : 'are not known fields';
      return path.length === 0 ? `${keys} ${known}` : `${keys} ${known} of ${label}`;
    }
    case 'invalid_key': {
      const tooLong = issue.issues.find((inner) => inner.code === 'too_big');
      return tooLong?.code === 'too_big'
        ? `${has(label)} a field name longer than ${plural(tooLong.maximum, 'character')}`
        : `${has(label)} a field name that is not valid`;
    }
    case 'invalid_element':
      return `${has(label)} an entry that is not valid`;
    case 'invalid_value': {
      const values = issue.values;
      if (isUsStateList(values)) return `${label} must be a US state`;
      if (values.length === 0) return `${is(label)} not valid`;
      if (values.length <= 10) return `${label} must be ${orList(values.map((value) => String(value)))}`;
      return `${is(label)} not one of the accepted values`;
    }
    case 'invalid_union': {
      if (issue.inclusive === false) return `${label} matches more than one accepted form`;
      // An option whose type fit but whose content failed says best what is wrong ("Include entry
      // 1 must be text"); its message names the field from inside the option, so it is renamed.
      const first = issue.errors.find((option) => option.length > 0 && !typeMismatch(option))?.[0];
      if (first) {
        const inner = fieldLabel(first.path);
        const outer = fieldLabel([...path, ...first.path]);
        return first.message.startsWith(`${inner} `) ? outer + first.message.slice(inner.length) : first.message;
      }
      const expected = issue.errors.flatMap((option) =>
        option[0]?.code === 'invalid_type' ? [TYPE_NOUNS[option[0].expected] ?? option[0].expected] : [],
      );
      if (expected.length > 0) return `${label} must be ${orList([...new Set(expected)])}`;
      if (issue.options && issue.options.length > 0)
        return `${label} must be ${orList(issue.options.map((value) => String(value)))}`;
      return `${is(label)} not valid`;
    }
    default:
      return `${is(label)} not valid`;
  }
}

const isMissing = (input: unknown) => input === undefined || input === null || input === '';

/**
 * The `error` of a schema whose spec text is for a missing value only ("Name is required"): absent,
 * null, or the empty string a cleared select sends. Any other failure (a number, a too-long text,
 * an unknown option) falls through to its own check's message or the map.
 */
export function whenMissing(message: string) {
  return (issue: RawIssue) =>
    (issue.code === 'invalid_type' || issue.code === 'invalid_value') && isMissing(issue.input) ? message : undefined;
}

z.config({ customError: issueMessage });
