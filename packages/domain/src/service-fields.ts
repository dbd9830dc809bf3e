import { z } from 'zod';
import { repeatedIndexes } from './common';
import { normalizeEmail, normalizeZip, parseBoolean, readPhone } from './lenient-readers';
import { whenMissing } from './messages';
import { CAMPAIGN_ID_FIELDS, FIELD_ALIASES, PLATFORM_FIELDS } from './source-api-aliases';

/**
 * Fields per service (issue 33 item 1): the admin defines, for each service, the fields its leads carry
 * beyond the specs' fixed ones (a solar lead's monthly electric bill, a roofing lead's roof type). The
 * source API reads them leniently (item 2), campaigns filter on them (item 3), every lead screen shows
 * them (item 5). Stored on the lead as `leads.fields` `{ [key]: FieldValue }`, money in integer cents.
 */

export const SERVICE_FIELD_TYPES = [
  'text',
  'number',
  'money',
  'boolean',
  'choice',
  'date',
  'phone',
  'email',
  'zip',
] as const;
export type ServiceFieldType = (typeof SERVICE_FIELD_TYPES)[number];

/** What each type is called on the screens and in the docs. */
export const SERVICE_FIELD_TYPE_LABELS: Record<ServiceFieldType, string> = {
  text: 'Text',
  number: 'Number',
  money: 'Money (dollars)',
  boolean: 'Yes / no',
  choice: 'Choice',
  date: 'Date',
  phone: 'Phone',
  email: 'Email',
  zip: 'ZIP code',
};

export const SERVICE_FIELD_STAGES = ['ping', 'post'] as const;
export type ServiceFieldStage = (typeof SERVICE_FIELD_STAGES)[number];

/** A field's value as stored on a lead: text, choice, date, phone, email and ZIP as text; number and money (cents) as numbers. */
export type FieldValue = string | number | boolean;
export const serviceFieldValueSchema = z.union([z.string(), z.number(), z.boolean()]);

/**
 * The source API's own field names (ping, post and direct lead), its platform names and every alias of
 * them (lower-cased): a service's field may take none of them as its key or an alias, or a source's
 * `zip_code` would be read as two things.
 */
export const BUILT_IN_LEAD_FIELDS: readonly string[] = [
  'service',
  'zip',
  'test',
  'channel',
  'sub_id',
  'pub_id',
  'campaign',
  'minprice',
  'phone_hash',
  'email_hash',
  'trusted_form_ping_url',
  'ping_id',
  'name',
  'first_name',
  'last_name',
  'phone',
  'email',
  'address',
  'city',
  'state',
  'homeowner',
  'tcpa_consent',
  'tcpa_language',
  'trusted_form',
  'jornaya',
  'ip',
  'user_agent',
  'metadata',
  'fields',
  'lead_id',
  'price',
];

const RESERVED_NAMES: ReadonlySet<string> = new Set(
  [
    ...BUILT_IN_LEAD_FIELDS,
    ...FIELD_ALIASES.map((a) => a.alias),
    ...CAMPAIGN_ID_FIELDS.map((f) => f.name),
    ...PLATFORM_FIELDS.map((f) => f.name),
    '__proto__',
    'constructor',
    'prototype',
  ].map((n) => n.toLowerCase()),
);

/** Whether a name (any case) is one of the lead's built-in fields, an alias of one or a platform's protocol field. */
export function isReservedFieldName(name: string): boolean {
  return RESERVED_NAMES.has(name.toLowerCase());
}

export const SERVICE_FIELD_KEY = /^[a-z][a-z0-9_]*$/;
export const SERVICE_FIELD_ALIAS = /^[A-Za-z][A-Za-z0-9_.-]*$/;
export const MAX_SERVICE_FIELDS = 50;
export const MAX_FIELD_OPTIONS = 100;
/** The longest text value a field keeps (longer is kept raw in a flag). */
export const MAX_FIELD_TEXT = 1000;
/** The largest money amount a field reads, in dollars (a loan, a home value). */
export const MAX_FIELD_MONEY_DOLLARS = 100_000_000;

const optionSchema = z
  .string()
  .trim()
  .min(1, 'An option cannot be empty')
  .max(100, 'An option is at most 100 characters');

/** One field of a service, as the admin defines it. */
export const serviceFieldSchema = z
  .object({
    key: z
      .string({ error: whenMissing('Key is required') })
      .trim()
      .min(1, 'Key is required')
      .max(40, 'Key must be at most 40 characters')
      .regex(SERVICE_FIELD_KEY, 'Key must be snake_case: lower-case letters, digits and _, starting with a letter')
      .refine((k) => !isReservedFieldName(k), {
        message: 'Key is a field the lead already has (or one of its aliases): choose another',
      }),
    label: z
      .string({ error: whenMissing('Label is required') })
      .trim()
      .min(1, 'Label is required')
      .max(100, 'Label must be at most 100 characters'),
    type: z.enum(SERVICE_FIELD_TYPES, { error: `Type must be one of ${SERVICE_FIELD_TYPES.join(', ')}` }),
    /** The choices of a `choice` field (matched case-insensitively; empty for every other type). */
    options: z.array(optionSchema).max(MAX_FIELD_OPTIONS, `Options are at most ${MAX_FIELD_OPTIONS}`).default([]),
    required: z.boolean().default(false),
    /** `ping`: sent at the ping (and carried to the post); `post`: only at the post. */
    stage: z.enum(SERVICE_FIELD_STAGES, { error: 'Stage must be ping or post' }).default('post'),
    /** Personal data: never travels in a ping, and is shown like the contact fields. */
    personal: z.boolean().default(false),
    /** Other names a source may send it under (matched case-insensitively). */
    aliases: z
      .array(
        z
          .string()
          .trim()
          .min(1, 'An alias cannot be empty')
          .max(60, 'An alias is at most 60 characters')
          .regex(SERVICE_FIELD_ALIAS, 'An alias is letters, digits, _, . and -, starting with a letter')
          .refine((a) => !isReservedFieldName(a), { message: 'An alias cannot be a field the lead already has' }),
      )
      .max(20, 'Aliases are at most 20')
      .default([]),
    help: z.string().trim().max(500, 'Help must be at most 500 characters').default(''),
    /** A removed field is no longer read from sources; old leads still show it. */
    removed: z.boolean().default(false),
  })
  .superRefine((f, ctx) => {
    if (f.type === 'choice' && f.options.length === 0)
      ctx.addIssue({ code: 'custom', path: ['options'], message: `${f.label}: a choice needs at least one option` });
    if (f.type !== 'choice' && f.options.length > 0)
      ctx.addIssue({ code: 'custom', path: ['options'], message: `${f.label}: only a choice has options` });
    for (const i of repeatedIndexes(f.options, (option) => option.toLowerCase()))
      ctx.addIssue({
        code: 'custom',
        path: ['options'],
        message: `${f.label}: option “${f.options[i]}” is listed twice`,
      });
    if (f.personal && f.stage === 'ping')
      ctx.addIssue({
        code: 'custom',
        path: ['stage'],
        message: `${f.label}: a personal field never travels in a ping; its stage is post`,
      });
  });
export type ServiceField = z.infer<typeof serviceFieldSchema>;
export type ServiceFieldInput = z.input<typeof serviceFieldSchema>;

/** A field before the admin fills it in (the settings' new field): no key or label, text, the rest the schema's defaults. */
export const NEW_SERVICE_FIELD: ServiceField = {
  key: '',
  label: '',
  type: 'text',
  ...z.object(serviceFieldSchema.shape).omit({ key: true, label: true, type: true }).parse({}),
};

/**
 * PUT /api/services/{service}/fields: the service's whole list, in the order the screens and the docs
 * show it. A field left out of the list is kept, removed (old leads still show it); keys and aliases are
 * unique across the list, case-insensitively.
 */
export const serviceFieldListSchema = z
  .object({
    fields: z.array(serviceFieldSchema).max(MAX_SERVICE_FIELDS, `A service has at most ${MAX_SERVICE_FIELDS} fields`),
  })
  .superRefine(({ fields }, ctx) => {
    const names = new Map<string, string>();
    fields.forEach((f, i) => {
      for (const [name, where] of [[f.key, 'key'] as const, ...f.aliases.map((a) => [a, 'aliases'] as const)]) {
        const lower = name.toLowerCase();
        const other = names.get(lower);
        if (other !== undefined && !(other === f.key && where === 'aliases' && lower === f.key))
          ctx.addIssue({
            code: 'custom',
            path: ['fields', i, where],
            message: `${f.label}: “${name}” is already ${other === f.key ? 'its key' : `used by ${other}`}`,
          });
        else names.set(lower, f.key);
      }
    });
  });
export type ServiceFieldList = z.infer<typeof serviceFieldListSchema>;

/** GET /api/services/{service}/fields. */
export const serviceFieldsAnswerSchema = z.object({ service: z.string(), fields: z.array(serviceFieldSchema) });
export type ServiceFieldsAnswer = z.infer<typeof serviceFieldsAnswerSchema>;
/** GET /api/services/fields: every service's fields (removed ones included, flagged), services by key. */
export const allServiceFieldsAnswerSchema = z.array(serviceFieldsAnswerSchema);

/** A value the source sent that counts as not sent: undefined, null, blanks. */
export function isBlankFieldValue(raw: unknown): boolean {
  return raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '');
}

/** A value as text, for a flag and for the text-based readers. */
export function sentText(raw: unknown): string {
  if (typeof raw === 'string') return raw.trim();
  if (typeof raw === 'object' && raw !== null) return JSON.stringify(raw) ?? '';
  return String(raw);
}

const NUMBER_TEXT = /^[+-]?(?:\d{1,3}(?:,\d{3})+|\d+)?(?:\.\d+)?$/;
const MONEY_TEXT = /^(?:(-)\s*)?(?:\$|usd)?\s*(-)?\s*((?:\d{1,3}(?:,\d{3})+|\d+)?(?:\.\d+)?)\s*(?:usd|dollars?)?$/i;
const ISO_DATE = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ].*)?$/;
const US_DATE = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/;

function readNumber(raw: unknown): number | null {
  if (typeof raw === 'number') return Number.isFinite(raw) ? raw : null;
  if (typeof raw !== 'string') return null;
  const text = raw.trim();
  if (!NUMBER_TEXT.test(text) || !/\d/.test(text)) return null;
  const value = Number(text.replace(/,/g, ''));
  return Number.isFinite(value) ? value : null;
}

/** Dollars as sources write them (`$1,200.50`, `1200.5`, `1200 USD`), in cents; a reason when not. */
function readMoneyCents(raw: unknown): number | string {
  let dollars: number | null = null;
  if (typeof raw === 'number') dollars = Number.isFinite(raw) ? raw : null;
  else if (typeof raw === 'string') {
    const match = MONEY_TEXT.exec(raw.trim());
    if (match?.[3] && /\d/.test(match[3])) {
      dollars = Number(match[3].replace(/,/g, ''));
      if (match[1] || match[2]) dollars = -dollars;
    }
  }
  if (dollars === null || !Number.isFinite(dollars)) return 'it is not an amount in dollars';
  if (dollars < 0) return 'an amount cannot be negative';
  if (dollars > MAX_FIELD_MONEY_DOLLARS)
    return `an amount is at most $${MAX_FIELD_MONEY_DOLLARS.toLocaleString('en-US')}`;
  const cents = Math.round(dollars * 100);
  if (Math.abs(cents - dollars * 100) > 1e-6 * Math.max(1, Math.abs(dollars * 100)))
    return 'an amount has at most 2 decimals (cents)';
  return cents;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const isLeapYear = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
const twoDigits = (n: number) => (n < 10 ? `0${n}` : String(n));

/** `YYYY-MM-DD` of a real day of the Gregorian calendar (years 1900-2200), else null; read on every ping. */
function validDate(y: number, m: number, d: number): string | null {
  if (y < 1900 || y > 2200 || m < 1 || m > 12 || d < 1) return null;
  const last = m === 2 && isLeapYear(y) ? 29 : (DAYS_IN_MONTH[m - 1] as number);
  if (d > last) return null;
  return `${y}-${twoDigits(m)}-${twoDigits(d)}`;
}

/** A date as `YYYY-MM-DD` (also a timestamp's date) or the US `MM/DD/YYYY`; null when not a real date. */
export function readFieldDate(raw: string): string | null {
  const text = raw.trim();
  const iso = ISO_DATE.exec(text);
  if (iso) return validDate(Number(iso[1]), Number(iso[2]), Number(iso[3]));
  const us = US_DATE.exec(text);
  if (us) return validDate(Number(us[3]), Number(us[1]), Number(us[2]));
  return null;
}

/**
 * Reads one value a source sent for a service's field with the source API's lenient rules; the caller
 * handles a value not sent (`isBlankFieldValue`) first. Answers the value to store (text and choice as
 * text, a choice in its option's own spelling, number as a number, money in integer cents, boolean,
 * date `YYYY-MM-DD`, phone 10 digits, email lower-cased, ZIP 5 digits) or the problem to flag.
 */
export function readFieldValue(
  field: Pick<ServiceField, 'type' | 'options'>,
  raw: unknown,
): { value: FieldValue } | { flag: string } {
  if (typeof raw === 'object' && raw !== null) return { flag: 'it is not a single value' };
  switch (field.type) {
    case 'text': {
      const text = sentText(raw);
      if (text.length > MAX_FIELD_TEXT) return { flag: `it is longer than ${MAX_FIELD_TEXT} characters` };
      return { value: text };
    }
    case 'choice': {
      const text = sentText(raw).toLowerCase();
      const option = field.options.find((o) => o.toLowerCase() === text);
      return option !== undefined ? { value: option } : { flag: `it is not one of: ${field.options.join(', ')}` };
    }
    case 'number': {
      const value = readNumber(raw);
      return value === null ? { flag: 'it is not a number' } : { value };
    }
    case 'money': {
      const cents = readMoneyCents(raw);
      return typeof cents === 'number' ? { value: cents } : { flag: cents };
    }
    case 'boolean': {
      const value = parseBoolean(
        typeof raw === 'string' || typeof raw === 'number' || typeof raw === 'boolean' ? raw : sentText(raw),
      );
      return typeof value === 'boolean' ? { value } : { flag: 'it is neither a yes nor a no' };
    }
    case 'date': {
      const value = typeof raw === 'string' ? readFieldDate(raw) : null;
      return value === null ? { flag: 'it is not a date (YYYY-MM-DD or MM/DD/YYYY)' } : { value };
    }
    case 'phone': {
      const reading = readPhone(sentText(raw));
      return 'phone' in reading ? { value: reading.phone } : { flag: reading.problem };
    }
    case 'email': {
      const value = normalizeEmail(sentText(raw));
      return value === null ? { flag: 'it is not an email address' } : { value };
    }
    case 'zip': {
      const value = normalizeZip(typeof raw === 'number' ? String(raw).padStart(5, '0') : sentText(raw));
      return value === null ? { flag: 'it is not a 5-digit ZIP code' } : { value };
    }
  }
}

/** A stored value as the answers give it: money in dollars (stored in cents), the rest as stored. */
export function fieldValueForAnswer(field: Pick<ServiceField, 'type'> | undefined, value: FieldValue): FieldValue {
  return field?.type === 'money' && typeof value === 'number' ? value / 100 : value;
}

/** A lead's stored fields as the answers give them (`{ [key]: value }`, money in dollars). */
export function fieldsForAnswer(
  definitions: readonly Pick<ServiceField, 'key' | 'type'>[],
  stored: Record<string, FieldValue> | null | undefined,
): Record<string, FieldValue> {
  const out: Record<string, FieldValue> = {};
  if (!stored) return out;
  for (const [key, value] of Object.entries(stored))
    out[key] = fieldValueForAnswer(
      definitions.find((d) => d.key === key),
      value,
    );
  return out;
}

/** A lead's fields in an answer: `{ [key]: value }`, money in dollars. */
export const leadFieldsSchema = z.record(z.string(), serviceFieldValueSchema);
export type LeadFields = z.infer<typeof leadFieldsSchema>;

/** A value for a field shown to a person: money as dollars, yes/no for booleans. */
export function formatFieldValue(field: Pick<ServiceField, 'type'> | undefined, answered: FieldValue): string {
  if (typeof answered === 'boolean') return answered ? 'Yes' : 'No';
  if (field?.type === 'money' && typeof answered === 'number')
    return answered.toLocaleString('en-US', { style: 'currency', currency: 'USD' });
  return String(answered);
}

/** The fields a source sends at a stage: at the ping, the ping-stage fields that are not personal; at the post, every live field. */
export function fieldsAtStage(fields: readonly ServiceField[], stage: ServiceFieldStage): ServiceField[] {
  return fields.filter((f) => !f.removed && (stage === 'post' || (f.stage === 'ping' && !f.personal)));
}

/** A value of the field as a source would send it, for the docs' examples. */
export function exampleFieldValue(field: Pick<ServiceField, 'key' | 'type' | 'options'>): string | number | boolean {
  switch (field.type) {
    case 'text':
      return 'Example';
    case 'choice':
      return field.options[0] ?? '';
    case 'number':
      return 12;
    case 'money':
      return 150.5;
    case 'boolean':
      return true;
    case 'date':
      return '2027-03-01';
    case 'phone':
      return '5127891111';
    case 'email':
      return 'jo@example.com';
    case 'zip':
      return '78701';
  }
}

/** What the docs say a field takes, in a few words. */
export function fieldTypeHint(field: Pick<ServiceField, 'type' | 'options'>): string {
  switch (field.type) {
    case 'choice':
      return `one of ${field.options.map((o) => `\`${o}\``).join(', ')}`;
    case 'money':
      return 'dollars (`$1,200.50` or `1200.5`)';
    case 'boolean':
      return 'yes or no (true/false, Y/N, 1/0)';
    case 'date':
      return 'a date (YYYY-MM-DD or MM/DD/YYYY)';
    case 'number':
      return 'a number';
    case 'phone':
      return 'a 10-digit US phone';
    case 'email':
      return 'an email address';
    case 'zip':
      return 'a 5-digit ZIP';
    case 'text':
      return 'text';
  }
}

/** A service's example ping and post, generated from its fields: the ping its ping fields, the post the rest. */
export function serviceFieldExamples(
  service: string,
  fields: readonly ServiceField[],
): { ping: Record<string, unknown>; post: Record<string, unknown> } {
  const live = fields.filter((f) => !f.removed);
  const ping: Record<string, unknown> = { service, zip: '78701' };
  const post: Record<string, unknown> = {
    ping_id: '<ping_id from the ping>',
    name: 'Pat Lee',
    phone: '5127891111',
    email: 'pat@example.com',
  };
  for (const f of live) {
    if (f.stage === 'ping' && !f.personal) ping[f.key] = exampleFieldValue(f);
    else post[f.key] = exampleFieldValue(f);
  }
  return { ping, post };
}

/** The JSON Schema of a service's fields (the OpenAPI document's `x-service-fields`). */
export function serviceFieldsJsonSchema(fields: readonly ServiceField[]): Record<string, unknown> {
  const live = fields.filter((f) => !f.removed);
  const TYPES: Record<ServiceFieldType, Record<string, unknown>> = {
    text: { type: 'string', maxLength: MAX_FIELD_TEXT },
    choice: { type: 'string' },
    number: { type: ['number', 'string'] },
    money: { type: ['number', 'string'], description: 'Dollars' },
    boolean: { type: ['boolean', 'string'] },
    date: { type: 'string', format: 'date' },
    phone: { type: 'string' },
    email: { type: 'string', format: 'email' },
    zip: { type: 'string' },
  };
  return {
    type: 'object',
    properties: Object.fromEntries(
      live.map((f) => [
        f.key,
        {
          ...TYPES[f.type],
          ...(f.type === 'choice' ? { enum: f.options } : {}),
          title: f.label,
          description: [
            f.help,
            `Sent at ${f.stage === 'ping' ? 'the ping (and kept for the post)' : 'the post'}.`,
            f.personal ? 'Personal: never in a ping.' : '',
            f.aliases.length > 0 ? `Also read as ${f.aliases.join(', ')}.` : '',
          ]
            .filter(Boolean)
            .join(' '),
          'x-stage': f.stage,
          'x-personal': f.personal,
          'x-aliases': f.aliases,
        },
      ]),
    ),
    required: live.filter((f) => f.required).map((f) => f.key),
  };
}

/**
 * A service's fields as docs/api.md shows them (a test keeps the file equal to this for the demo
 * services): a table, then an example ping and post.
 */
export function serviceFieldsMarkdown(service: string, label: string, fields: readonly ServiceField[]): string {
  const live = fields.filter((f) => !f.removed);
  const rows = live.map(
    (f) =>
      `| \`${f.key}\` | ${f.label} | ${fieldTypeHint(f)} | ${f.stage === 'ping' && !f.personal ? 'ping' : 'post'} | ${f.required ? 'yes' : 'no'} | ${f.personal ? 'yes' : 'no'} | ${f.aliases.map((a) => `\`${a}\``).join(', ')} | ${f.help} |`,
  );
  const { ping, post } = serviceFieldExamples(service, fields);
  return [
    `### ${label} (\`${service}\`)`,
    '',
    '| Field | Label | Takes | Sent at | Required | Personal | Aliases | Help |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
    '',
    'Ping:',
    '',
    '```json',
    JSON.stringify(ping, null, 2),
    '```',
    '',
    'Post:',
    '',
    '```json',
    JSON.stringify(post, null, 2),
    '```',
  ].join('\n');
}
