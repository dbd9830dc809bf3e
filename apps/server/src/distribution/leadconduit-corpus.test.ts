import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createSourceWithKey, uniquePhone } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/harness';
import corpus from './leadconduit-corpus.json';
import { fillerPhoneProblem, normalizeEmail, normalizeState, normalizeZip, parseBoolean, readPhone } from './normalize';

// Issue 32 "Must show": tricky values run through LeadConduit's own parsers (leadconduit-types, a dev
// dependency) and Leadex's normaliser, side by side. Each row (leadconduit-corpus.json): the kind, the value sent,
// what LeadConduit reads, what Leadex reads, and where the two differ, why Leadex's answer is right
// (docs/decisions.md has the same table). `invalid`: not read; `filler`: read, but no consumer's number.
const require = createRequire(import.meta.url);
const leadconduit = require('leadconduit-types') as Record<string, { parse(raw: unknown): LcValue }>;
type LcValue = { valid?: boolean; valueOf(): unknown; country_code?: string; zip?: string };
type Kind = 'phone' | 'email' | 'zip' | 'state' | 'boolean';
type Row = [kind: Kind, sent: string | number | boolean, leadconduit: string, leadex: string, why?: string];

const CORPUS = corpus as Row[];

const LC_TYPE: Record<Kind, string> = {
  phone: 'phone',
  email: 'email',
  zip: 'postal_code',
  state: 'state',
  boolean: 'boolean',
};

/** What LeadConduit reads: its normal form, `invalid`, a foreign postal code with its country. */
function leadconduitReads(kind: Kind, sent: unknown): string {
  const parsed = leadconduit[LC_TYPE[kind]]?.parse(sent);
  if (!parsed) return 'invalid';
  // A state is always "valid" there: an unknown one is passed through as sent.
  if (kind === 'state') return String(parsed);
  if (!parsed.valid) return 'invalid';
  if (kind === 'boolean') return String(parsed.valueOf());
  if (kind === 'zip')
    return parsed.country_code === 'US' ? String(parsed.zip) : `${String(parsed)} (${parsed.country_code})`;
  return String(parsed);
}

/** What Leadex reads, with the functions the source API uses. */
function leadexReads(kind: Kind, sent: string | number | boolean): string {
  const text = String(sent);
  switch (kind) {
    case 'phone': {
      const reading = readPhone(text);
      if (!('phone' in reading)) return 'invalid';
      if (fillerPhoneProblem(reading.phone)) return 'filler';
      return reading.extension ? `${reading.phone}x${reading.extension}` : reading.phone;
    }
    case 'email':
      return normalizeEmail(text) ?? 'invalid';
    case 'zip':
      return normalizeZip(text) ?? 'invalid';
    case 'state':
      return normalizeState(text) ?? 'invalid';
    case 'boolean': {
      const value = parseBoolean(sent);
      return value === null || value === undefined ? 'invalid' : String(value);
    }
  }
}

describe('the corpus: leadconduit-types and Leadex side by side', () => {
  it('holds at least 80 values of each kind together, every disagreement explained', () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(80);
    for (const kind of ['phone', 'email', 'zip', 'state', 'boolean'] as const)
      expect(CORPUS.filter((row) => row[0] === kind).length).toBeGreaterThanOrEqual(10);
    for (const [, , lc, leadex, why] of CORPUS) expect(Boolean(why)).toBe(lc !== leadex);
  });

  it('docs/decisions.md lists every disagreement, and only those, with the same reason', () => {
    const doc = readFileSync(fileURLToPath(new URL('../../../../docs/decisions.md', import.meta.url)), 'utf8');
    const section = doc.split('\n### The corpus: leadconduit-types and Leadex')[1]?.split('\n#')[0] ?? '';
    /** A cell as the table writes it: in backticks, a value with blanks at its ends also in quotes. */
    const cell = (text: string) =>
      text
        .trim()
        .replace(/^`(.*)`$/, '$1')
        .replace(/^"(.*)"$/, '$1');
    const listed = section
      .split('\n')
      .filter((line) => /^\| (phone|email|zip|state|boolean) \|/.test(line))
      .map((line) => line.split(' | ').map((part) => cell(part.replace(/^\| | \|$/g, ''))));
    const disagreements = CORPUS.filter(([, , lc, leadex]) => lc !== leadex).map(([kind, sent, lc, leadex, why]) => [
      kind,
      String(sent),
      lc,
      leadex,
      why,
    ]);
    expect(listed).toEqual(disagreements);
    expect(section).toContain(`The ${disagreements.length} disagreements left`);
    expect(section).toContain(`${CORPUS.length} values`);
  });

  it.each(CORPUS)('%s %j: LeadConduit %s, Leadex %s', (kind, sent, lc, leadex) => {
    expect(leadconduitReads(kind, sent)).toBe(lc);
    expect(leadexReads(kind, sent)).toBe(leadex);
  });
});

describe('no optional field refuses a lead', () => {
  let t: TestApp;
  let apiKey: string;
  const posted: { sent: unknown; status: number; reason?: string; errors?: unknown }[] = [];
  let n = 0;
  const email = () => `corpus.${++n}@example.com`;
  const post = async (fields: Record<string, unknown>, sent: unknown) => {
    const res = await t.sourceApi('/api/lead', apiKey, {
      service: 'roofing',
      zip: '75201',
      name: 'Pat Lee',
      ...fields,
    });
    posted.push({ sent, status: res.statusCode, reason: res.json().reason, errors: res.json().errors });
    return res;
  };

  // Some 90 leads through the whole API and a database of their own: more than the default 30 s on a busy machine.
  it('answers every phone, email, state and flag of the corpus with 200, the lead kept', async () => {
    t = await createTestApp({ PUBLIC_API_RATE_LIMIT: 0 });
    try {
      apiKey = (await createSourceWithKey(t)).apiKey;
      const fieldsOf: Partial<Record<Kind, (sent: unknown) => Record<string, unknown>>> = {
        phone: (sent) => ({ phone: sent, email: email() }),
        email: (sent) => ({ email: sent, phone: uniquePhone() }),
        state: (sent) => ({ state: sent, email: email() }),
        boolean: (sent) => ({ homeowner: sent, tcpa_consent: sent, email: email() }),
      };
      const optional = CORPUS.filter(([kind]) => fieldsOf[kind]);
      // Ten at a time: every lead has its own contact, so none waits on another.
      for (let i = 0; i < optional.length; i += 10)
        await Promise.all(optional.slice(i, i + 10).map(([kind, sent]) => post(fieldsOf[kind]?.(sent) ?? {}, sent)));
      expect(posted.length).toBeGreaterThan(60);
      expect(posted.filter((p) => p.status !== 200)).toEqual([]);
      expect(posted.filter((p) => p.reason === 'invalid')).toEqual([]);
    } finally {
      await t.close();
    }
  }, 120_000);

  it('refuses only a ZIP it cannot read (the sale needs it), naming the field', async () => {
    t = await createTestApp({ PUBLIC_API_RATE_LIMIT: 0 });
    try {
      apiKey = (await createSourceWithKey(t)).apiKey;
      for (const [kind, sent, , leadex] of CORPUS.filter((row) => row[0] === 'zip')) {
        const res = await t.sourceApi('/api/ping', apiKey, { service: 'roofing', zip: sent });
        if (leadex === 'invalid')
          expect([kind, sent, res.statusCode, res.json().errors]).toEqual([
            kind,
            sent,
            400,
            { zip: 'zip must be a 5-digit ZIP code' },
          ]);
        else expect([kind, sent, res.statusCode]).toEqual([kind, sent, 200]);
      }
    } finally {
      await t.close();
    }
  }, 120_000);
});
