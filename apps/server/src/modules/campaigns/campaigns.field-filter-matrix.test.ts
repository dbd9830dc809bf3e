import {
  checkFieldFilters,
  FIELD_FILTER_OPS_BY_TYPE,
  type FieldFilter,
  type FilterableField,
  type FilterFieldType,
} from '@leadex/domain';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  createBuyer,
  createCampaign,
  createSourceWithKey,
  saveServiceFields,
  uniquePhone,
} from '../../../test/factories';
import { useAdminTestApp } from '../../../test/harness';
import { leadMatches } from '../../db/schema';

/**
 * Issue 33's Must show, through the source API on the real database (PGlite, and PostgreSQL with
 * TEST_DATABASE_URL): every field type with every operator it allows, at both sides of its boundary,
 * on a field sent at the ping (judged at the ping, the post selling what the ping quoted) and on the same
 * type sent with the post (deferred at the ping, judged at the post, the failing lead never charged and
 * its explanation naming the rule).
 */
const { t, admin } = useAdminTestApp({ PUBLIC_API_RATE_LIMIT: 0 });

const TYPES: FilterFieldType[] = ['number', 'money', 'date', 'boolean', 'choice', 'text', 'zip', 'phone', 'email'];
const OPTIONS = ['None', 'Partial', 'Heavy'];
/** Per type, a field sent at the ping and one sent with the post only. */
const FIELDS = TYPES.flatMap((type) =>
  (['ping', 'post'] as const).map((stage) => ({
    key: `${type}_${stage}`,
    label: `${type} at ${stage}`,
    type,
    stage,
    ...(type === 'choice' ? { options: OPTIONS } : {}),
  })),
);
const BY_KEY = new Map(FIELDS.map((f) => [f.key, f as FilterableField]));

/** Left out of the request. */
const NONE = Symbol('none');
type Side = [sent: unknown, holds: boolean];
type Rule = Omit<FieldFilter, 'field'>;

/** Each operator of each type with values as a source sends them, at both sides of the boundary. */
const MATRIX: Record<FilterFieldType, [Rule, Side[]][]> = {
  number: [
    [
      { op: 'equals', value: 30 },
      [
        [30, true],
        [31, false],
      ],
    ],
    [
      { op: 'not_equals', value: 30 },
      [
        [30, false],
        [29, true],
        [NONE, true],
      ],
    ],
    [
      { op: 'one_of', values: [30, 40] },
      [
        [40, true],
        [41, false],
      ],
    ],
    [
      { op: 'none_of', values: [30, 40] },
      [
        [40, false],
        [39, true],
      ],
    ],
    [
      { op: 'at_least', value: 18 },
      [
        [17, false],
        [18, true],
        [NONE, false],
      ],
    ],
    [
      { op: 'at_most', value: 64 },
      [
        [64, true],
        [65, false],
      ],
    ],
    [
      { op: 'between', min: 18, max: 64 },
      [
        [17, false],
        [18, true],
        [64, true],
        [65, false],
      ],
    ],
    [
      { op: 'present' },
      [
        [0, true],
        [NONE, false],
      ],
    ],
    [
      { op: 'absent' },
      [
        [NONE, true],
        [0, false],
      ],
    ],
  ],
  money: [
    [
      { op: 'equals', value: 100 },
      [
        ['$100.00', true],
        [100.01, false],
      ],
    ],
    [
      { op: 'not_equals', value: 100 },
      [
        [100, false],
        [99.99, true],
      ],
    ],
    [
      { op: 'at_least', value: 100 },
      [
        [99.99, false],
        [100, true],
      ],
    ],
    [
      { op: 'at_most', value: 250.5 },
      [
        ['250.50', true],
        [250.51, false],
      ],
    ],
    [
      { op: 'between', min: 100, max: 200 },
      [
        [99.99, false],
        [100, true],
        [200, true],
        [200.01, false],
      ],
    ],
    [
      { op: 'present' },
      [
        [1, true],
        [NONE, false],
      ],
    ],
    [
      { op: 'absent' },
      [
        [NONE, true],
        [1, false],
      ],
    ],
  ],
  date: [
    [
      { op: 'equals', value: '2025-06-30' },
      [
        ['2025-06-30', true],
        ['2025-07-01', false],
      ],
    ],
    [
      { op: 'not_equals', value: '2025-06-30' },
      [
        ['06/30/2025', false],
        ['2025-06-29', true],
      ],
    ],
    [
      { op: 'at_least', value: '2026-01-01' },
      [
        ['2025-12-31', false],
        ['2026-01-01', true],
      ],
    ],
    [
      { op: 'at_most', value: '2026-01-01' },
      [
        ['2026-01-01', true],
        ['2026-01-02', false],
      ],
    ],
    [
      { op: 'between', min: '2025-01-01', max: '2025-12-31' },
      [
        ['2024-12-31', false],
        ['2025-01-01', true],
        ['2025-12-31', true],
        ['2026-01-01', false],
      ],
    ],
    [
      { op: 'present' },
      [
        ['2025-01-01', true],
        [NONE, false],
      ],
    ],
    [
      { op: 'absent' },
      [
        [NONE, true],
        ['2025-01-01', false],
      ],
    ],
  ],
  boolean: [
    [
      { op: 'equals', value: false },
      [
        ['no', true],
        ['yes', false],
        [NONE, false],
      ],
    ],
    [
      { op: 'not_equals', value: true },
      [
        [true, false],
        [false, true],
      ],
    ],
    [
      { op: 'present' },
      [
        [false, true],
        [NONE, false],
      ],
    ],
    [
      { op: 'absent' },
      [
        [NONE, true],
        [false, false],
      ],
    ],
  ],
  choice: [
    [
      { op: 'equals', value: 'None' },
      [
        ['none', true],
        ['Partial', false],
      ],
    ],
    [
      { op: 'not_equals', value: 'Heavy' },
      [
        ['Heavy', false],
        ['Partial', true],
      ],
    ],
    [
      { op: 'one_of', values: ['None', 'Partial'] },
      [
        ['Partial', true],
        ['Heavy', false],
      ],
    ],
    [
      { op: 'none_of', values: ['Heavy'] },
      [
        ['HEAVY', false],
        ['Partial', true],
        [NONE, true],
      ],
    ],
    [
      { op: 'present' },
      [
        ['None', true],
        [NONE, false],
      ],
    ],
    [
      { op: 'absent' },
      [
        [NONE, true],
        ['None', false],
      ],
    ],
  ],
  text: [
    [
      { op: 'equals', value: 'Geico' },
      [
        [' geico ', true],
        ['Geico Direct', false],
      ],
    ],
    [
      { op: 'not_equals', value: 'Geico' },
      [
        ['GEICO', false],
        ['Allstate', true],
      ],
    ],
    [
      { op: 'one_of', values: ['Geico', 'Allstate'] },
      [
        ['allstate', true],
        ['Progressive', false],
      ],
    ],
    [
      { op: 'none_of', values: ['Geico', 'Allstate'] },
      [
        ['Allstate', false],
        ['Progressive', true],
      ],
    ],
    [
      { op: 'present' },
      [
        ['x', true],
        [NONE, false],
      ],
    ],
    [
      { op: 'absent' },
      [
        [NONE, true],
        ['x', false],
      ],
    ],
  ],
  zip: [
    [
      { op: 'equals', value: '75201' },
      [
        ['75201-1234', true],
        ['75202', false],
      ],
    ],
    [
      { op: 'not_equals', value: '75201' },
      [
        ['75201', false],
        ['75202', true],
      ],
    ],
    [
      { op: 'one_of', values: ['75201', '75202'] },
      [
        ['75202', true],
        ['75203', false],
      ],
    ],
    [
      { op: 'none_of', values: ['75201', '75202'] },
      [
        ['75202', false],
        ['75203', true],
      ],
    ],
    [
      { op: 'present' },
      [
        ['75203', true],
        [NONE, false],
      ],
    ],
    [
      { op: 'absent' },
      [
        [NONE, true],
        ['75203', false],
      ],
    ],
  ],
  phone: [
    [
      { op: 'equals', value: '5125550100' },
      [
        ['(512) 555-0100', true],
        ['5125550101', false],
      ],
    ],
    [
      { op: 'not_equals', value: '5125550100' },
      [
        ['512-555-0100', false],
        ['5125550101', true],
      ],
    ],
    [
      { op: 'one_of', values: ['5125550100', '5125550101'] },
      [
        ['5125550101', true],
        ['5125550102', false],
      ],
    ],
    [
      { op: 'none_of', values: ['5125550100', '5125550101'] },
      [
        ['5125550101', false],
        ['5125550102', true],
      ],
    ],
    [
      { op: 'present' },
      [
        ['5125550102', true],
        [NONE, false],
      ],
    ],
    [
      { op: 'absent' },
      [
        [NONE, true],
        ['5125550102', false],
      ],
    ],
  ],
  email: [
    [
      { op: 'equals', value: 'pat@example.com' },
      [
        ['PAT@Example.com', true],
        ['pat@example.org', false],
      ],
    ],
    [
      { op: 'not_equals', value: 'pat@example.com' },
      [
        ['pat@example.com', false],
        ['sam@example.com', true],
      ],
    ],
    [
      { op: 'one_of', values: ['pat@example.com', 'sam@example.com'] },
      [
        ['Sam@example.com', true],
        ['lee@example.com', false],
      ],
    ],
    [
      { op: 'none_of', values: ['pat@example.com', 'sam@example.com'] },
      [
        ['sam@example.com', false],
        ['lee@example.com', true],
      ],
    ],
    [
      { op: 'present' },
      [
        ['lee@example.com', true],
        [NONE, false],
      ],
    ],
    [
      { op: 'absent' },
      [
        [NONE, true],
        ['lee@example.com', false],
      ],
    ],
  ],
};

let apiKey: string;

beforeAll(async () => {
  await saveServiceFields(t, admin.cookie, 'windows', FIELDS);
  apiKey = (await createSourceWithKey(t, { maxCost: 10 })).apiKey;
});

/** A live campaign with one rule, reached by its Branded Id so no other campaign answers for it. */
async function ruled(rule: FieldFilter) {
  const { issues, stored } = checkFieldFilters([rule], BY_KEY);
  expect(issues).toEqual([]);
  const buyer = await createBuyer(t);
  const fixedId = `FM-${Math.random().toString(36).slice(2, 10).toUpperCase()}`;
  const id = await createCampaign(t, buyer._id, { services: ['windows'], fixedId, fieldFilters: stored });
  return { id, fixedId };
}

const carrying = (key: string, sent: unknown) => (sent === NONE ? {} : { [key]: sent });

async function source(path: string, body: Record<string, unknown>) {
  const res = await t.sourceApi(path, apiKey, body);
  expect(res.statusCode, `${path} ${JSON.stringify(body)}: ${res.body}`).toBe(200);
  return res.json() as {
    ok: boolean;
    ping_id?: string;
    lead_id?: string;
    status?: string;
    conditions?: { field: string }[];
  };
}
const ping = (campaign: string, fields: object) =>
  source('/api/ping', { service: 'windows', zip: '75201', campaign, ...fields });
const post = (pingId: string, fields: object) =>
  source('/api/post', { ping_id: pingId, name: 'Pat Lee', phone: uniquePhone(), tcpa_consent: true, ...fields });

async function explanationOf(leadId: string, campaignId: string) {
  const res = await t.request({ method: 'GET', url: `/api/lead/${leadId}?includeMatchLog=true`, as: admin.cookie });
  const entries = res.json().explanation as { campaign: string; rule?: string; detail?: string }[];
  return entries.find((e) => e.campaign === campaignId);
}

describe('every field type and operator at both sides, at ping and at post', () => {
  it('the matrix covers every operator each type allows', () => {
    for (const type of TYPES) expect(MATRIX[type].map(([rule]) => rule.op)).toEqual(FIELD_FILTER_OPS_BY_TYPE[type]);
  });

  for (const type of TYPES) {
    it(`${type}: judged at the ping when sent at the ping; deferred, then judged at the post when sent with it`, async () => {
      for (const [rule, sides] of MATRIX[type]) {
        const atPing = await ruled({ ...rule, field: `${type}_ping` } as FieldFilter);
        const atPost = await ruled({ ...rule, field: `${type}_post` } as FieldFilter);
        for (const [sent, holds] of sides) {
          const what = `${type} ${rule.op} ${JSON.stringify(rule)}, sent ${String(sent)}`;
          // Sent at the ping: the ping is quoted only when the rule holds, and its post sells.
          const quoted = await ping(atPing.fixedId, carrying(`${type}_ping`, sent));
          expect(quoted.ok, `at ping: ${what}`).toBe(holds);
          expect(quoted.conditions, what).toBeUndefined();
          if (quoted.ok) expect((await post(quoted.ping_id as string, {})).status, what).toBe('sold');

          // Sent with the post: the ping says the sale depends on the field; the post decides.
          const deferred = await ping(atPost.fixedId, {});
          expect(deferred.ok, what).toBe(true);
          expect(
            deferred.conditions?.map((c) => c.field),
            what,
          ).toEqual([`${type}_post`]);
          const posted = await post(deferred.ping_id as string, carrying(`${type}_post`, sent));
          expect(posted.ok, `at post: ${what}`).toBe(holds);
          if (!holds) {
            const lead = posted.lead_id as string;
            expect(await t.database.db.select().from(leadMatches).where(eq(leadMatches.leadId, lead)), what).toEqual(
              [],
            );
            expect(await explanationOf(lead, atPost.id), what).toMatchObject({
              rule: 'filter',
              detail: expect.stringMatching(new RegExp(`^Filter: ${type} at post `)),
            });
          }
        }
      }
    }, 120_000);
  }
});
