import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createSourceWithKey, uniquePhone } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/harness';
import { fillerPhoneProblem, normalizeEmail, normalizeState, normalizeZip, parseBoolean, readPhone } from './normalize';

// Issue 32 "Must show": tricky values run through LeadConduit's own parsers (leadconduit-types, a dev
// dependency) and Leadex's normaliser, side by side. Each row: the kind, the value sent, what
// LeadConduit reads, what Leadex reads, and where the two differ, why Leadex's answer is right
// (docs/decisions.md has the same table). `invalid`: not read; `filler`: read, but no consumer's number.
const require = createRequire(import.meta.url);
const leadconduit = require('leadconduit-types') as Record<string, { parse(raw: unknown): LcValue }>;
type LcValue = { valid?: boolean; valueOf(): unknown; country_code?: string; zip?: string };
type Kind = 'phone' | 'email' | 'zip' | 'state' | 'boolean';
type Row = [kind: Kind, sent: string | number | boolean, leadconduit: string, leadex: string, why?: string];

const CORPUS: Row[] = [
  ['phone', '5127891111', '5127891111', '5127891111'],
  ['phone', '(512) 789-1111', '5127891111', '5127891111'],
  ['phone', '512.789.1111', '5127891111', '5127891111'],
  ['phone', '+1 512 789 1111', '5127891111', '5127891111'],
  ['phone', '1-512-789-1111', '5127891111', '5127891111'],
  ['phone', '15127891111', '5127891111', '5127891111'],
  ['phone', '5127891111x44', '5127891111x44', '5127891111x44'],
  ['phone', '512-789-1111 ext. 44', '5127891111x44', '5127891111x44'],
  ['phone', '512-789-1111 extension 44', '5127891111x44', '5127891111x44'],
  ['phone', '512-789-1111 #44', '5127891111x44', '5127891111x44'],
  ['phone', '512 789 1111 (h)', '5127891111', '5127891111'],
  ['phone', '5127891111c', '5127891111', '5127891111'],
  [
    'phone',
    '512-555-0100',
    '5125550100',
    'filler',
    '555-0100 to 555-0199 are reserved for fiction (NANPA): no consumer answers it; the normaliser refuses filler (issue 32)',
  ],
  [
    'phone',
    '512-555-0199',
    '5125550199',
    'filler',
    'the last number of the fictional block; 555-0200 (agreed) is outside it',
  ],
  ['phone', '512-555-0200', '5125550200', '5125550200'],
  [
    'phone',
    '555-555-5555',
    'invalid',
    'filler',
    'both refuse it; Leadex says why (one digit repeated), LeadConduit only that it is invalid',
  ],
  ['phone', '222-222-2222', 'invalid', 'filler', 'both refuse it; Leadex says why (one digit repeated)'],
  ['phone', '0127891111', 'invalid', 'invalid'],
  ['phone', '5121781111', 'invalid', 'invalid'],
  ['phone', '512789111', 'invalid', 'invalid'],
  ['phone', '25127891111', 'invalid', 'invalid'],
  [
    'phone',
    '+44 20 7946 0958',
    '2079460958',
    'invalid',
    "a UK number: Leadex's buyers dial US numbers only; LeadConduit keeps its national digits, which read as a wrong US number",
  ],
  [
    'phone',
    '512-789-CALL',
    '5127892255',
    'invalid',
    "letters are a business's vanity number, not a consumer's; turning them into digits is a guess a buyer would dial",
  ],
  ['phone', '800-555-1212', '8005551212', '8005551212'],
  [
    'phone',
    '512789****',
    '512789****',
    'invalid',
    "a masked number (LeadConduit's own masking) has no digits to call: the buyer pays for the contact",
  ],
  ['phone', '(512)7891111', '5127891111', '5127891111'],
  ['phone', '5127891111 x', '5127891111', '5127891111'],
  ['email', 'jane@example.com', 'jane@example.com', 'jane@example.com'],
  ['email', ' Jane.Doe@Example.COM ', 'jane.doe@example.com', 'jane.doe@example.com'],
  ['email', 'Jane Doe <jane@example.com>', 'jane@example.com', 'jane@example.com'],
  ['email', '"Doe, Jane" <jane@example.com>', 'jane@example.com', 'jane@example.com'],
  ['email', '<jane@example.com>', 'jane@example.com', 'jane@example.com'],
  [
    'email',
    'mailto:jane@example.com',
    'invalid',
    'jane@example.com',
    'a pasted mailto: link names one address without doubt',
  ],
  ['email', 'jane.doe+solar@gmail.com', 'jane.doe+solar@gmail.com', 'jane.doe+solar@gmail.com'],
  [
    'email',
    'jane@localhost',
    'jane@localhost',
    'invalid',
    "no public domain: the buyer's mail can never arrive (the app's one email rule, zod's)",
  ],
  ['email', 'jane@', 'invalid', 'invalid'],
  ['email', '@example.com', 'invalid', 'invalid'],
  ['email', 'jane.example.com', 'invalid', 'invalid'],
  ['email', 'jane doe@example.com', 'invalid', 'invalid'],
  ['email', 'jane@doe@example.com', 'invalid', 'invalid'],
  ['email', 'jane@example', 'jane@example', 'invalid', 'no top-level domain: undeliverable'],
  ['email', 'jane@example..com', 'invalid', 'invalid'],
  [
    'email',
    'jane@-example.com',
    'jane@-example.com',
    'invalid',
    'a domain label cannot start with a hyphen (RFC 1035): undeliverable',
  ],
  ['email', 'jane@example.com.', 'invalid', 'invalid'],
  ['email', 'JANE@EXAMPLE.COM', 'jane@example.com', 'jane@example.com'],
  ['email', 'jane@example.c', 'jane@example.c', 'invalid', 'no top-level domain has one letter: undeliverable'],
  ['email', 'jane@例え.jp', 'invalid', 'invalid'],
  ['email', 'Jane <not an address>', 'invalid', 'invalid'],
  ['zip', '78701', '78701', '78701'],
  ['zip', ' 78701 ', '78701', '78701'],
  ['zip', '78701-1234', '78701', '78701'],
  ['zip', '78701 1234', '78701', '78701'],
  ['zip', '787011234', '78701', '78701'],
  ['zip', '78701 - 1234', '78701', '78701'],
  ['zip', '78701-', '78701', '78701'],
  ['zip', '7870', 'invalid', 'invalid'],
  ['zip', '787012', 'invalid', 'invalid'],
  ['zip', '78701-12', 'invalid', 'invalid'],
  ['zip', 'ABCDE', 'invalid', 'invalid'],
  [
    'zip',
    'K1A 0B1',
    'K1A 0B1 (CA)',
    'invalid',
    "a Canadian code: the exchange sells US ZIPs only (the ZIP table, the campaigns' locations); ZIP is required, so 400",
  ],
  ['zip', 'SW1A 1AA', 'SW1A 1AA (GB)', 'invalid', 'a UK postcode: as above'],
  ['zip', '02134', '02134', '02134'],
  ['zip', '2134', 'invalid', 'invalid'],
  ['zip', '78701.1234', 'invalid', 'invalid'],
  ['zip', '78701–1234', 'invalid', 'invalid'],
  ['zip', '00000', '00000', '00000'],
  ['zip', '78701-123456', 'invalid', 'invalid'],
  ['state', 'TX', 'TX', 'TX'],
  ['state', 'tx', 'TX', 'TX'],
  ['state', 'Texas', 'TX', 'TX'],
  ['state', 'texas', 'TX', 'TX'],
  ['state', 'TEXAS', 'TX', 'TX'],
  ['state', 'New York', 'NY', 'NY'],
  ['state', 'new york', 'NY', 'NY'],
  ['state', 'N.Y.', 'N.Y.', 'NY', "LeadConduit passes it through unread; the dots are noise around a state's code"],
  ['state', 'T.X.', 'T.X.', 'TX', 'as N.Y.'],
  [
    'state',
    'District of Columbia',
    'District of Columbia',
    'DC',
    'LeadConduit\'s name lookup capitalises every word ("District Of Columbia") and misses its own table\'s entry',
  ],
  ['state', 'DC', 'DC', 'DC'],
  ['state', 'PR', 'PR', 'PR'],
  ['state', 'Puerto Rico', 'PR', 'PR'],
  [
    'state',
    'Ontario',
    'ON',
    'invalid',
    "a province: not a US state, and no US ZIP is in it; flagged, the ZIP's state used",
  ],
  ['state', 'ON', 'ON', 'invalid', 'as Ontario'],
  [
    'state',
    'ZZ',
    'ZZ',
    'invalid',
    "LeadConduit calls any text a valid state; Leadex flags it and routes by the ZIP's state",
  ],
  ['state', 'Tex', 'Tex', 'invalid', 'an abbreviation no table holds: flagged rather than guessed'],
  ['state', 'Texass', 'Texass', 'invalid', 'a typo: flagged rather than guessed'],
  ['state', ' TX ', ' TX ', 'TX', 'LeadConduit does not trim a state; blanks around a code are noise'],
  ['state', 'New  York', 'New  York', 'NY', "a doubled space is noise; LeadConduit's lookup misses it"],
  ['boolean', 'true', 'true', 'true'],
  ['boolean', 'false', 'false', 'false'],
  ['boolean', 'TRUE', 'true', 'true'],
  ['boolean', 'yes', 'true', 'true'],
  ['boolean', 'no', 'false', 'false'],
  ['boolean', 'Y', 'true', 'true'],
  ['boolean', 'N', 'false', 'false'],
  ['boolean', 'T', 'true', 'true'],
  ['boolean', 'F', 'false', 'false'],
  ['boolean', 't', 'true', 'true'],
  ['boolean', 'f', 'false', 'false'],
  ['boolean', '1', 'true', 'true'],
  ['boolean', '0', 'false', 'false'],
  ['boolean', 'Yes.', 'true', 'true'],
  ['boolean', 'No!', 'false', 'false'],
  ['boolean', 'on', 'invalid', 'true', 'what an HTML checkbox sends when ticked'],
  ['boolean', 'off', 'invalid', 'false', "the checkbox's opposite, as Leadex has always read it"],
  ['boolean', 'maybe', 'invalid', 'invalid'],
  ['boolean', 'yes please', 'invalid', 'invalid'],
  ['boolean', '-1', 'true', 'invalid', 'LeadConduit strips the sign and reads 1 (yes); a negative number is not a yes'],
  ['boolean', '2', 'invalid', 'invalid'],
  ['boolean', '"yes"', 'true', 'true'],
  ['boolean', 'Si', 'invalid', 'invalid'],
  ['boolean', 'x', 'invalid', 'invalid'],
  ['boolean', true, 'true', 'true'],
  ['boolean', false, 'false', 'false'],
  ['boolean', 1, 'true', 'true'],
  ['boolean', 0, 'false', 'false'],
];

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
