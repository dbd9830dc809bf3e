import { normalizeEmail, normalizePhone } from '@leadex/domain';
import { sha256Hex } from '../lib/secrets';

/** 555-0100 to 555-0199: the exchange's numbers reserved for fiction (NANPA), never a consumer's. */
const FICTIONAL_555 = /^\d{3}5550[1]\d{2}$/;
/** One digit ten times over (555-555-5555, 222-222-2222): typed to get past a form. */
const ONE_DIGIT_REPEATED = /^(\d)\1{9}$/;

/**
 * Why a valid-looking number is filler no consumer answers (the fictional 555-01xx, one digit
 * repeated), or null for a number that may be real.
 */
export function fillerPhoneProblem(phone: string): string | null {
  if (FICTIONAL_555.test(phone)) return '555-0100 to 555-0199 are reserved for fiction, not a consumer’s number';
  if (ONE_DIGIT_REPEATED.test(phone)) return 'it is one digit repeated, not a consumer’s number';
  return null;
}

/** The states' names, DC's and the territories', by their lower-cased name. */
const STATE_NAMES: ReadonlyMap<string, string> = new Map(
  Object.entries({
    alabama: 'AL',
    alaska: 'AK',
    arizona: 'AZ',
    arkansas: 'AR',
    california: 'CA',
    colorado: 'CO',
    connecticut: 'CT',
    delaware: 'DE',
    'district of columbia': 'DC',
    // The territories with US ZIP codes (the ZIP table may place a lead there); dots read as spaces.
    'puerto rico': 'PR',
    'u s virgin islands': 'VI',
    'us virgin islands': 'VI',
    'virgin islands': 'VI',
    guam: 'GU',
    'american samoa': 'AS',
    'northern mariana islands': 'MP',
    florida: 'FL',
    georgia: 'GA',
    hawaii: 'HI',
    idaho: 'ID',
    illinois: 'IL',
    indiana: 'IN',
    iowa: 'IA',
    kansas: 'KS',
    kentucky: 'KY',
    louisiana: 'LA',
    maine: 'ME',
    maryland: 'MD',
    massachusetts: 'MA',
    michigan: 'MI',
    minnesota: 'MN',
    mississippi: 'MS',
    missouri: 'MO',
    montana: 'MT',
    nebraska: 'NE',
    nevada: 'NV',
    'new hampshire': 'NH',
    'new jersey': 'NJ',
    'new mexico': 'NM',
    'new york': 'NY',
    'north carolina': 'NC',
    'north dakota': 'ND',
    ohio: 'OH',
    oklahoma: 'OK',
    oregon: 'OR',
    pennsylvania: 'PA',
    'rhode island': 'RI',
    'south carolina': 'SC',
    'south dakota': 'SD',
    tennessee: 'TN',
    texas: 'TX',
    utah: 'UT',
    vermont: 'VT',
    virginia: 'VA',
    washington: 'WA',
    'west virginia': 'WV',
    wisconsin: 'WI',
    wyoming: 'WY',
  }),
);
const STATE_CODES: ReadonlySet<string> = new Set(STATE_NAMES.values());
/** Dots and runs of spaces in a state as typed (`N.Y.`, `New  York`). */
const STATE_NOISE = /[.\s]+/g;

/**
 * A US state's 2-letter code from its code or its name, any case (`tx`, `T.X.`, `Texas`, `new york`);
 * DC and the territories too (`PR`, `Puerto Rico`); null for anything else (a province, a typo).
 */
export function normalizeState(raw: string): string | null {
  const text = raw.trim().toLowerCase();
  const code = text.replace(STATE_NOISE, '').toUpperCase();
  if (code.length === 2) return STATE_CODES.has(code) ? code : null;
  return STATE_NAMES.get(text.replace(STATE_NOISE, ' ').trim()) ?? null;
}

/**
 * The state a lead is routed and delivered with: the ZIP's when the ZIP table knows it, else the one
 * sent. A sent state the ZIP contradicts is kept in a flag, with the ZIP's state said in its problem.
 */
export function stateOfLead(
  sent: { code: string | null; raw: string } | undefined,
  zip: string,
  zipState: string | null,
): { state: string | null; flag?: { field: 'state'; value: string; problem: string } } {
  if (!zipState) return { state: sent?.code ?? null };
  if (!sent?.code || sent.code === zipState) return { state: zipState };
  return {
    state: zipState,
    flag: {
      field: 'state',
      value: sent.raw,
      problem: `${sent.raw} does not match ZIP ${zip}, which is in ${zipState}: the lead is routed and delivered as ${zipState}.`,
    },
  };
}

/** The duplicate hash of a phone: SHA-256 hex of its 10 normalised digits; null when not a valid number. */
export function phoneHash(raw: string): string | null {
  const phone = normalizePhone(raw);
  return phone === null ? null : sha256Hex(phone);
}

/** The duplicate hash of an email: SHA-256 hex of the trimmed, lower-cased address; null when not an address. */
export function emailHash(raw: string): string | null {
  const email = normalizeEmail(raw);
  return email === null ? null : sha256Hex(email);
}

const SHA256_HEX = /^[0-9a-f]{64}$/;

/** A `phone_hash` / `email_hash` sent with a ping: 64 hex digits, lower-cased; null when malformed. */
export function normalizeSha256Hex(raw: string): string | null {
  const hex = raw.trim().toLowerCase();
  return SHA256_HEX.test(hex) ? hex : null;
}

/** Moved to the domain (issue 33: the services' own fields read with them too). */
export {
  normalizeEmail,
  normalizePhone,
  normalizeZip,
  type PhoneReading,
  parseBoolean,
  readPhone,
} from '@leadex/domain';
export { sha256Hex };
