import { z } from 'zod';

/**
 * Campaign filters on the fields of the campaign's services (issue 33 item 3): rules such as
 * "Monthly electric bill at least $100", all of which must hold. The API speaks money in dollars;
 * the database and the engine hold it in cents, like every price.
 */

export const FIELD_FILTER_OP_LABELS = {
  equals: 'equals',
  not_equals: 'not equals',
  one_of: 'one of',
  none_of: 'none of',
  at_least: 'at least',
  at_most: 'at most',
  between: 'between',
  present: 'present',
  absent: 'absent',
} as const;
export type FieldFilterOp = keyof typeof FIELD_FILTER_OP_LABELS;
export const FIELD_FILTER_OPS = Object.keys(FIELD_FILTER_OP_LABELS) as FieldFilterOp[];

/** The field types a rule can name (the service fields' types). */
export type FilterFieldType = 'text' | 'number' | 'money' | 'boolean' | 'choice' | 'date' | 'phone' | 'email' | 'zip';

const ORDERED: FieldFilterOp[] = ['equals', 'not_equals', 'at_least', 'at_most', 'between', 'present', 'absent'];
const LISTED: FieldFilterOp[] = ['equals', 'not_equals', 'one_of', 'none_of', 'present', 'absent'];

/** The operators each type allows: ranges for numbers, money and dates; lists for the rest. */
export const FIELD_FILTER_OPS_BY_TYPE: Record<FilterFieldType, readonly FieldFilterOp[]> = {
  number: [...ORDERED.slice(0, 2), 'one_of', 'none_of', ...ORDERED.slice(2)],
  money: ORDERED,
  date: ORDERED,
  boolean: ['equals', 'not_equals', 'present', 'absent'],
  choice: LISTED,
  text: LISTED,
  zip: LISTED,
  phone: LISTED,
  email: LISTED,
};

/** At most this many rules per campaign, and values per list. */
export const MAX_FIELD_FILTERS = 30;
export const MAX_FILTER_VALUES = 200;

const scalar = z.union([z.string().trim().min(1).max(200), z.number().finite(), z.boolean()]);

/** One rule as the API takes and answers it (money in dollars). */
export const fieldFilterSchema = z.object({
  field: z.string().trim().min(1, 'Field is required').max(64),
  op: z.enum(FIELD_FILTER_OPS as [FieldFilterOp, ...FieldFilterOp[]], {
    error: 'Operator is not one of the operators',
  }),
  value: scalar.optional(),
  values: z
    .array(z.union([z.string().trim().min(1).max(200), z.number().finite()]))
    .max(MAX_FILTER_VALUES)
    .optional(),
  min: z.union([z.number().finite(), z.string().trim().min(1).max(10)]).optional(),
  max: z.union([z.number().finite(), z.string().trim().min(1).max(10)]).optional(),
});
export type FieldFilter = z.infer<typeof fieldFilterSchema>;

export const fieldFilterListSchema = z
  .array(fieldFilterSchema)
  .max(MAX_FIELD_FILTERS, `At most ${MAX_FIELD_FILTERS} field filters`);

/** A rule as the API answers it: with its field's type and label (as the campaign's services define them). */
export const fieldFilterAnswerSchema = fieldFilterSchema.extend({
  type: z.string(),
  label: z.string().optional(),
});
export type FieldFilterAnswer = z.infer<typeof fieldFilterAnswerSchema>;

/** A value a lead's field holds (money in cents, a date as YYYY-MM-DD). */
export type FilterValue = string | number | boolean;

/** A rule as stored with the campaign: its field's type at the time, money in cents. */
export interface StoredFieldFilter {
  field: string;
  type: FilterFieldType;
  op: FieldFilterOp;
  value?: FilterValue;
  values?: (string | number)[];
  min?: string | number;
  max?: string | number;
}

/** What a rule needs to know of its field (a service field's definition). */
export interface FilterableField {
  key: string;
  label: string;
  type: FilterFieldType;
  /** A choice's options: their values (or `{ value, label }`). */
  options?: readonly (string | { value: string; label?: string })[] | null;
  stage?: 'ping' | 'post';
  personal?: boolean;
  removed?: boolean | string | null;
}

/** GET /api/match/fields: a field a campaign of these services may filter on, with the services that have it. */
export const filterFieldSchema = z.object({
  key: z.string(),
  label: z.string(),
  type: z.enum(['text', 'number', 'money', 'boolean', 'choice', 'date', 'phone', 'email', 'zip']),
  /** A choice field's options, as the service defines them. */
  options: z.array(z.string()).optional(),
  stage: z.enum(['ping', 'post']),
  personal: z.boolean(),
  services: z.array(z.string()),
});
export type FilterField = z.infer<typeof filterFieldSchema>;
export const filterFieldListSchema = z.array(filterFieldSchema);

/** GET /api/match/fields?services=solar,roofing. */
export const filterFieldsQuery = z.object({
  services: z
    .string()
    .max(2000)
    .default('')
    .transform((s) =>
      s
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean),
    ),
});

export interface FilterIssue {
  path: string;
  message: string;
}

export const optionValue = (o: string | { value: string }) => (typeof o === 'string' ? o : o.value);
const optionLabel = (o: string | { value: string; label?: string }) =>
  typeof o === 'string' ? o : (o.label ?? o.value);

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const isDate = (v: unknown): v is string =>
  typeof v === 'string' &&
  DATE.test(v) &&
  !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) &&
  new Date(`${v}T00:00:00Z`).toISOString().slice(0, 10) === v;
const hasAtMostTwoDecimals = (n: number) => Math.abs(n * 100 - Math.round(n * 100)) < 1e-6;

/** "Filter 2 (monthly_bill)": how a message names the rule at fault. */
const ruleName = (i: number, field: string) => `Filter ${i + 1} (${field || 'no field'})`;

/**
 * One value of a rule for its field's type, as stored (money in cents); a message when it does not fit.
 * `what` names the part ("value", "min", …).
 */
function storedValue(
  field: FilterableField,
  raw: unknown,
  what: string,
): { ok: true; value: FilterValue } | { ok: false; message: string } {
  const label = field.label;
  switch (field.type) {
    case 'number': {
      const n = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
      return typeof n === 'number' && Number.isFinite(n)
        ? { ok: true, value: n }
        : { ok: false, message: `${what} must be a number (${label})` };
    }
    case 'money': {
      const n = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
      if (typeof n !== 'number' || !Number.isFinite(n))
        return { ok: false, message: `${what} must be an amount in dollars (${label})` };
      if (!hasAtMostTwoDecimals(n)) return { ok: false, message: `${what} must have at most 2 decimals (${label})` };
      if (Math.abs(n) > 100_000_000) return { ok: false, message: `${what} is too large (${label})` };
      return { ok: true, value: Math.round(n * 100) };
    }
    case 'date':
      return isDate(raw)
        ? { ok: true, value: raw }
        : { ok: false, message: `${what} must be a date YYYY-MM-DD (${label})` };
    case 'boolean':
      if (raw === true || raw === 'true' || raw === 'yes') return { ok: true, value: true };
      if (raw === false || raw === 'false' || raw === 'no') return { ok: true, value: false };
      return { ok: false, message: `${what} must be true or false (${label})` };
    case 'choice': {
      const text = typeof raw === 'number' ? String(raw) : raw;
      const options = field.options ?? [];
      const found = options.find(
        (o) => typeof text === 'string' && optionValue(o).toLowerCase() === text.toLowerCase(),
      );
      return found
        ? { ok: true, value: optionValue(found) }
        : {
            ok: false,
            message: `${what} must be one of the options of ${label}: ${options.map(optionValue).join(', ')}`,
          };
    }
    case 'zip': {
      const text = typeof raw === 'number' ? String(raw).padStart(5, '0') : raw;
      return typeof text === 'string' && /^\d{5}$/.test(text.trim())
        ? { ok: true, value: text.trim() }
        : { ok: false, message: `${what} must be a 5-digit ZIP (${label})` };
    }
    default: {
      const text = typeof raw === 'number' ? String(raw) : raw;
      return typeof text === 'string' && text.trim() !== ''
        ? { ok: true, value: text.trim() }
        : { ok: false, message: `${what} must be text (${label})` };
    }
  }
}

/**
 * Checks a campaign's rules against the fields of its services, and turns them into what is stored
 * (money in cents). Every message names the rule (`Filter 2 (monthly_bill): …`); `fields` holds the
 * live fields of the campaign's services by key.
 */
export function checkFieldFilters(
  rules: readonly FieldFilter[],
  fields: ReadonlyMap<string, FilterableField>,
): { issues: FilterIssue[]; stored: StoredFieldFilter[] } {
  const issues: FilterIssue[] = [];
  const stored: StoredFieldFilter[] = [];
  rules.forEach((rule, i) => {
    const name = ruleName(i, rule.field);
    const at = (part: string) => `field_filters.${i}.${part}`;
    const field = fields.get(rule.field);
    if (!field || field.removed) {
      issues.push({ path: at('field'), message: `${name}: no service of the campaign has the field ${rule.field}` });
      return;
    }
    const allowed = FIELD_FILTER_OPS_BY_TYPE[field.type] ?? [];
    if (!allowed.includes(rule.op)) {
      issues.push({
        path: at('op'),
        message: `${name}: "${FIELD_FILTER_OP_LABELS[rule.op]}" is not an operator for a ${field.type} field (use ${allowed.map((o) => FIELD_FILTER_OP_LABELS[o]).join(', ')})`,
      });
      return;
    }
    const out: StoredFieldFilter = { field: field.key, type: field.type, op: rule.op };
    const one = (part: 'value' | 'min' | 'max', raw: unknown): FilterValue | undefined => {
      if (raw === undefined || raw === null || raw === '') {
        issues.push({
          path: at(part),
          message: `${name}: ${part} is required for "${FIELD_FILTER_OP_LABELS[rule.op]}"`,
        });
        return undefined;
      }
      const v = storedValue(field, raw, part);
      if (!v.ok) {
        issues.push({ path: at(part), message: `${name}: ${v.message}` });
        return undefined;
      }
      return v.value;
    };
    const before = issues.length;
    switch (rule.op) {
      case 'equals':
      case 'not_equals':
      case 'at_least':
      case 'at_most':
        out.value = one('value', rule.value);
        break;
      case 'one_of':
      case 'none_of': {
        if (!rule.values?.length) {
          issues.push({
            path: at('values'),
            message: `${name}: values are required for "${FIELD_FILTER_OP_LABELS[rule.op]}"`,
          });
          break;
        }
        const values: (string | number)[] = [];
        for (const raw of rule.values) {
          const v = storedValue(field, raw, 'each value');
          if (!v.ok) {
            issues.push({ path: at('values'), message: `${name}: ${v.message}` });
            break;
          }
          if (typeof v.value !== 'boolean' && !values.includes(v.value)) values.push(v.value);
        }
        out.values = values;
        break;
      }
      case 'between': {
        const min = one('min', rule.min);
        const max = one('max', rule.max);
        if (min !== undefined && max !== undefined) {
          if ((min as number | string) > (max as number | string))
            issues.push({ path: at('min'), message: `${name}: min must not be greater than max` });
          out.min = min as number | string;
          out.max = max as number | string;
        }
        break;
      }
      default:
        break;
    }
    if (issues.length === before) stored.push(out);
  });
  return { issues, stored };
}

const toDollars = (cents: number) => Math.round(cents) / 100;

/** A stored rule as the API answers it: money back in dollars. */
export function fieldFilterAnswer(rule: StoredFieldFilter, label?: string): FieldFilterAnswer {
  const money = rule.type === 'money';
  const show = <T>(v: T): T => (money && typeof v === 'number' ? (toDollars(v) as T) : v);
  return {
    field: rule.field,
    op: rule.op,
    type: rule.type,
    ...(label ? { label } : {}),
    ...(rule.value !== undefined ? { value: show(rule.value) } : {}),
    ...(rule.values !== undefined ? { values: rule.values.map(show) } : {}),
    ...(rule.min !== undefined ? { min: show(rule.min) } : {}),
    ...(rule.max !== undefined ? { max: show(rule.max) } : {}),
  };
}

/** "$1,250" or "$99.50": an amount of cents as a rule or a lead shows it. */
function money(cents: number): string {
  const dollars = cents / 100;
  return `$${dollars.toLocaleString('en-US', { minimumFractionDigits: Number.isInteger(dollars) ? 0 : 2, maximumFractionDigits: 2 })}`;
}

/** A value as words: money in dollars, a choice by its label, yes/no for a boolean. */
function showValue(field: FilterableField, v: FilterValue): string {
  if (field.type === 'money' && typeof v === 'number') return money(v);
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  if (field.type === 'choice') {
    const option = field.options?.find((o) => optionValue(o) === v);
    if (option) return optionLabel(option);
  }
  return String(v);
}

/** A rule compiled for one field definition: its test and its words, built once per engine snapshot. */
export interface CompiledFieldFilter {
  field: string;
  /** "Monthly electric bill at least $100". */
  text: string;
  /** The field travels only in a post (a post-stage or personal field): a ping without it defers the rule to the post. */
  postOnly: boolean;
  /** Whether a lead's value (undefined: the lead has none) satisfies the rule. */
  test(value: FilterValue | undefined): boolean;
  /** The lead's value in words, for the explanation ("$80", "none"). */
  show(value: FilterValue | undefined): string;
}

const norm = (v: FilterValue): FilterValue => (typeof v === 'string' ? v.trim().toLowerCase() : v);

/** Numbers and money compare as numbers, dates as YYYY-MM-DD text; a value of another kind never matches. */
function comparable(type: FilterFieldType, v: FilterValue): number | string | null {
  if (type === 'date') return typeof v === 'string' && DATE.test(v) ? v : null;
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return null;
}

/**
 * Compiles a stored rule for the field as a service defines it now. An absent value fails every
 * operator but `absent` and the negative ones (`not equals`, `none of`: an absent value is none of
 * them); a value of the wrong kind (a lenient field kept raw) fails the comparisons.
 */
export function compileFieldFilter(rule: StoredFieldFilter, field: FilterableField): CompiledFieldFilter {
  const type = field.type;
  const show = (v: FilterValue) => showValue(field, v);
  const opText = FIELD_FILTER_OP_LABELS[rule.op];
  let words: string;
  let test: (v: FilterValue | undefined) => boolean;
  const present = (v: FilterValue | undefined): v is FilterValue => v !== undefined && v !== null && v !== '';
  const eq = (a: FilterValue, b: FilterValue) => {
    if (type === 'number' || type === 'money') return comparable(type, a) === comparable(type, b);
    if (type === 'zip') return String(a).trim().slice(0, 5) === String(b).trim().slice(0, 5);
    return norm(a) === norm(b);
  };
  switch (rule.op) {
    case 'equals':
    case 'not_equals': {
      const want = rule.value as FilterValue;
      words = `${opText} ${show(want)}`;
      test = rule.op === 'equals' ? (v) => present(v) && eq(v, want) : (v) => !present(v) || !eq(v, want);
      break;
    }
    case 'one_of':
    case 'none_of': {
      const list = rule.values ?? [];
      const set = new Set(list.map((x) => (type === 'number' ? comparable(type, x) : norm(x))));
      const has = (v: FilterValue) =>
        type === 'number'
          ? set.has(comparable(type, v))
          : type === 'zip'
            ? set.has(String(v).trim().slice(0, 5))
            : set.has(norm(v));
      words = `${opText} ${list.map(show).join(', ')}`;
      test = rule.op === 'one_of' ? (v) => present(v) && has(v) : (v) => !present(v) || !has(v);
      break;
    }
    case 'at_least':
    case 'at_most': {
      const bound = comparable(type, rule.value as FilterValue);
      words = `${opText} ${show(rule.value as FilterValue)}`;
      test = (v) => {
        if (!present(v) || bound === null) return false;
        const x = comparable(type, v);
        if (x === null || typeof x !== typeof bound) return false;
        return rule.op === 'at_least' ? x >= bound : x <= bound;
      };
      break;
    }
    case 'between': {
      const lo = comparable(type, rule.min as FilterValue);
      const hi = comparable(type, rule.max as FilterValue);
      words = `between ${show(rule.min as FilterValue)} and ${show(rule.max as FilterValue)}`;
      test = (v) => {
        if (!present(v) || lo === null || hi === null) return false;
        const x = comparable(type, v);
        return x !== null && typeof x === typeof lo && x >= lo && x <= hi;
      };
      break;
    }
    case 'present':
      words = 'present';
      test = present;
      break;
    default:
      words = 'absent';
      test = (v) => !present(v);
      break;
  }
  return {
    field: rule.field,
    text: `${field.label} ${words}`,
    postOnly: field.stage === 'post' || field.personal === true,
    test,
    show: (v) => (present(v) ? show(v) : 'none'),
  };
}

// ---------------------------------------------------------------------------------------------
// The campaign form's rows

/** A rule as the campaign form's inputs hold it: text in every input, the field's type beside it. */
export interface FieldFilterFormRow {
  field: string;
  type: string;
  op: FieldFilterOp | '';
  value: string;
  values: string[];
  min: string;
  max: string;
}

/** A new, empty row. */
export const NEW_FIELD_FILTER: FieldFilterFormRow = {
  field: '',
  type: '',
  op: '',
  value: '',
  values: [],
  min: '',
  max: '',
};

const asText = (v: unknown) => (v === undefined || v === null ? '' : String(v));

/** A stored rule (as answered) as a form row. */
export function fieldFilterFormRow(rule: FieldFilterAnswer): FieldFilterFormRow {
  return {
    field: rule.field,
    type: rule.type,
    op: rule.op,
    value: asText(rule.value),
    values: (rule.values ?? []).map(String),
    min: asText(rule.min),
    max: asText(rule.max),
  };
}

/** Which inputs an operator reads. */
export function fieldFilterInputs(op: FieldFilterOp | ''): 'value' | 'values' | 'range' | 'none' {
  if (op === 'one_of' || op === 'none_of') return 'values';
  if (op === 'between') return 'range';
  if (op === 'present' || op === 'absent' || op === '') return 'none';
  return 'value';
}

/** A form input's text as the API takes it for the field's type: numbers for numbers and money, true/false for a boolean. */
function typedValue(type: string, text: string): string | number | boolean {
  const trimmed = text.trim();
  if ((type === 'number' || type === 'money') && /^-?\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed);
  if (type === 'boolean' && (trimmed === 'true' || trimmed === 'false')) return trimmed === 'true';
  return trimmed;
}

/** A form row as the API takes it: only the inputs its operator reads. */
export function fieldFilterPayload(row: FieldFilterFormRow): FieldFilter {
  const op = row.op as FieldFilterOp;
  const typed = (text: string) => typedValue(row.type, text);
  switch (fieldFilterInputs(row.op)) {
    case 'value':
      return { field: row.field, op, value: typed(row.value) };
    case 'values':
      return { field: row.field, op, values: row.values.map((v) => typed(v) as string | number) };
    case 'range':
      return { field: row.field, op, min: typed(row.min) as string | number, max: typed(row.max) as string | number };
    default:
      return { field: row.field, op };
  }
}
