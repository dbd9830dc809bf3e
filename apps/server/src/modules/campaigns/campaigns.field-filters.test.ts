import { checkFieldFilters, type FieldFilter, type FilterableField } from '@leadex/domain';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  createBuyer,
  createBuyerWithLogin,
  createCampaign,
  createSourceWithKey,
  saveServiceFields,
  uniquePhone,
} from '../../../test/factories';
import { expectScoped404, useAdminTestApp, useRoleCookies } from '../../../test/harness';
import { SOLAR_PING_FIELDS, SOLAR_POST_FIELDS } from '../../../test/solar-fields';
import { campaigns, leadMatches } from '../../db/schema';

/**
 * Campaign filters on the services' fields (issue 33 item 3), through the API on the real database
 * (PGlite, and PostgreSQL with TEST_DATABASE_URL): the campaign routes per role, and the engine at the
 * ping (with what it carries) and at the post (with everything), each type at both sides of a boundary.
 */
const { t, admin } = useAdminTestApp({ PUBLIC_API_RATE_LIMIT: 0 });
const roles = useRoleCookies(t);

const SOLAR_FIELDS = [
  ...SOLAR_PING_FIELDS,
  ...SOLAR_POST_FIELDS,
  { key: 'spouse_email', label: 'Spouse email', type: 'email', personal: true },
];
const BY_KEY = new Map(SOLAR_FIELDS.map((f) => [f.key, f as unknown as FilterableField]));

let apiKey: string;
let mine: Awaited<ReturnType<typeof createBuyerWithLogin>>;
let theirs: Awaited<ReturnType<typeof createBuyerWithLogin>>;

beforeAll(async () => {
  await saveServiceFields(t, admin.cookie, 'solar', SOLAR_FIELDS);
  apiKey = (await createSourceWithKey(t, { maxCost: 10 })).apiKey;
  mine = await createBuyerWithLogin(t);
  theirs = await createBuyerWithLogin(t);
});

const NOTIFY = { email: ['leads@buyer.example'], sms: [], broadcast_webhooks: [] };
const newCampaign = (as: string, body: Record<string, unknown>) =>
  t.request({
    method: 'POST',
    url: '/api/match',
    as,
    payload: { name: 'Solar TX', price: 40, services: ['solar'], state: ['TX'], notify: NOTIFY, ...body },
  });
const edit = (as: string, id: string, body: Record<string, unknown>) =>
  t.request({ method: 'PUT', url: `/api/match/${id}`, as, payload: body });

describe('the campaign routes: field_filters', () => {
  it('stores money in cents and answers it in dollars, with the labels', async () => {
    const res = await newCampaign(admin.cookie, {
      buyer: mine.buyer._id,
      field_filters: [
        { field: 'electric_bill', op: 'at_least', value: 100 },
        { field: 'roof_shade', op: 'none_of', values: ['heavy'] },
      ],
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().field_filters).toEqual([
      { field: 'electric_bill', op: 'at_least', value: 100, type: 'money', label: 'Monthly electric bill' },
      { field: 'roof_shade', op: 'none_of', values: ['Heavy'], type: 'choice', label: 'Roof shade' },
    ]);
    const [row] = await t.database.db.select().from(campaigns).where(eq(campaigns.id, res.json()._id));
    expect(row?.fieldFilters[0]).toEqual({ field: 'electric_bill', type: 'money', op: 'at_least', value: 10_000 });
  });

  it('refuses a rule with a 400 naming it', async () => {
    const cases: [FieldFilter, string, string][] = [
      [
        { field: 'roof_type', op: 'present' },
        'field_filters.0.field',
        'Filter 1 (roof_type): no service of the campaign has the field roof_type',
      ],
      [
        { field: 'roof_shade', op: 'at_least', value: 'None' },
        'field_filters.0.op',
        'Filter 1 (roof_shade): "at least" is not an operator for a choice field (use equals, not equals, one of, none of, present, absent)',
      ],
      [
        { field: 'age', op: 'between', min: 65, max: 18 },
        'field_filters.0.min',
        'Filter 1 (age): min must not be greater than max',
      ],
      [
        { field: 'electric_bill', op: 'at_least', value: 99.999 },
        'field_filters.0.value',
        'Filter 1 (electric_bill): value must have at most 2 decimals (Monthly electric bill)',
      ],
    ];
    for (const [rule, path, message] of cases) {
      const res = await newCampaign(admin.cookie, { buyer: mine.buyer._id, field_filters: [rule] });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().errors[path]).toBe(message);
    }
    // A field of a service the campaign does not buy is unknown to it.
    const other = await newCampaign(admin.cookie, {
      buyer: mine.buyer._id,
      services: ['roofing'],
      field_filters: [{ field: 'electric_bill', op: 'present' }],
    });
    expect(other.statusCode).toBe(400);
    expect(other.json().message).toBe(
      'Filter 1 (electric_bill): no service of the campaign has the field electric_bill',
    );
  });

  it('lets a buyer edit its own campaign filters; another buyer gets 404, a source 403, nobody 401', async () => {
    const created = await newCampaign(mine.cookie, {});
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json()._id as string;
    const rules = [{ field: 'age', op: 'between', min: 18, max: 64 }];
    const res = await edit(mine.cookie, id, { field_filters: rules });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().field_filters).toEqual([{ ...rules[0], type: 'number', label: 'Age' }]);
    expect((await t.request({ method: 'GET', url: `/api/match/${id}`, as: mine.cookie })).json().field_filters).toEqual(
      res.json().field_filters,
    );
    await expectScoped404(t, theirs.cookie, 'Campaign', [
      { method: 'PUT', url: `/api/match/${id}`, payload: { field_filters: [] } },
      { method: 'GET', url: `/api/match/${id}` },
    ]);
    expect((await edit(roles.source, id, { field_filters: [] })).statusCode).toBe(403);
    expect((await t.request({ method: 'PUT', url: `/api/match/${id}`, payload: {} })).statusCode).toBe(401);
    // The admin edits any campaign's; a service taken away leaves a rule naming its field refused.
    expect((await edit(admin.cookie, id, { field_filters: [] })).json().field_filters).toEqual([]);
    await edit(admin.cookie, id, { field_filters: rules });
    const away = await edit(mine.cookie, id, { services: ['roofing'] });
    expect(away.statusCode).toBe(400);
    expect(away.json().errors['field_filters.0.field']).toMatch(/^Filter 1 \(age\)/);
  });

  it('GET /api/match/fields offers the fields of the services, to the admin and a buyer only', async () => {
    for (const as of [roles.admin, roles.buyer]) {
      const res = await t.request({ method: 'GET', url: '/api/match/fields?services=solar,roofing,llamas', as });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().map((f: { key: string }) => f.key)).toEqual(SOLAR_FIELDS.map((f) => f.key));
      expect(res.json()[1]).toEqual({
        key: 'roof_shade',
        label: 'Roof shade',
        type: 'choice',
        options: ['None', 'Partial', 'Heavy'],
        stage: 'ping',
        personal: false,
        services: ['solar'],
      });
    }
    expect((await t.request({ method: 'GET', url: '/api/match/fields', as: roles.source })).statusCode).toBe(403);
    expect((await t.request({ method: 'GET', url: '/api/match/fields' })).statusCode).toBe(401);
  });
});

/** A live campaign with one rule, reached by its Branded Id so no other campaign answers for it. */
async function ruled(rule: FieldFilter) {
  const { issues, stored } = checkFieldFilters([rule], BY_KEY);
  expect(issues).toEqual([]);
  const buyer = await createBuyer(t);
  const fixedId = `FF-${Math.random().toString(36).slice(2, 10).toUpperCase()}`;
  const id = await createCampaign(t, buyer._id, { services: ['solar'], fixedId, fieldFilters: stored });
  return { id, fixedId };
}

const contact = () => ({ name: 'Pat Lee', phone: uniquePhone(), tcpa_consent: true });

async function pingFor(campaign: string, fields: Record<string, unknown>) {
  const res = await t.sourceApi('/api/ping', apiKey, { service: 'solar', zip: '75201', campaign, ...fields });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { ok: boolean; ping_id?: string; conditions?: { field: string; message: string }[] };
}

async function postFor(pingId: string, fields: Record<string, unknown>) {
  const res = await t.sourceApi('/api/post', apiKey, { ping_id: pingId, ...contact(), ...fields });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { ok: boolean; lead_id: string; status?: string };
}

async function directLead(campaign: string, fields: Record<string, unknown>) {
  const res = await t.sourceApi('/api/lead', apiKey, {
    service: 'solar',
    zip: '75201',
    campaign,
    ...contact(),
    ...fields,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { ok: boolean; lead_id: string; status?: string };
}

const explanationOf = async (leadId: string) =>
  (await t.request({ method: 'GET', url: `/api/lead/${leadId}?includeMatchLog=true`, as: admin.cookie })).json()
    .explanation as {
    campaign: string;
    eligible: boolean;
    rule?: string;
    detail?: string;
  }[];

type Side = [sent: Record<string, unknown>, holds: boolean];

// Each type's rule on a ping-stage field, at both sides of its boundary (values as a source sends them).
const PING_STAGE: [string, FieldFilter, Side[]][] = [
  [
    'money',
    { field: 'electric_bill', op: 'at_least', value: 100 },
    [
      [{ electric_bill: 99.99 }, false],
      [{ electric_bill: 100 }, true],
    ],
  ],
  [
    'number',
    { field: 'age', op: 'between', min: 18, max: 64 },
    [
      [{ age: 17 }, false],
      [{ age: 18 }, true],
      [{ age: 64 }, true],
      [{ age: 65 }, false],
    ],
  ],
  [
    'date',
    { field: 'install_by', op: 'at_most', value: '2027-01-01' },
    [
      [{ install_by: '2027-01-01' }, true],
      [{ install_by: '2027-01-02' }, false],
    ],
  ],
  [
    'choice',
    { field: 'roof_shade', op: 'none_of', values: ['Heavy'] },
    [
      [{ roof_shade: 'heavy' }, false],
      [{ roof_shade: 'Partial' }, true],
    ],
  ],
  [
    'text',
    { field: 'utility', op: 'one_of', values: ['PG&E', 'SCE'] },
    [
      [{ utility: 'sce' }, true],
      [{ utility: 'SDG&E' }, false],
    ],
  ],
  [
    'zip',
    { field: 'mailing_zip', op: 'equals', value: '75201' },
    [
      [{ mailing_zip: '75201' }, true],
      [{ mailing_zip: '75202' }, false],
    ],
  ],
];

describe('the engine: field filters at ping and at post', () => {
  for (const [type, rule, sides] of PING_STAGE) {
    it(`${type}: ${rule.op} at both sides, at ping, at its post and in a direct lead`, async () => {
      const { id, fixedId } = await ruled(rule);
      for (const [sent, holds] of sides) {
        const ping = await pingFor(fixedId, sent);
        expect(ping.ok, JSON.stringify(sent)).toBe(holds);
        expect(ping.conditions).toBeUndefined();
        if (ping.ping_id) expect((await postFor(ping.ping_id, {})).status).toBe('sold');
        const lead = await directLead(fixedId, sent);
        expect(lead.ok, JSON.stringify(sent)).toBe(holds);
        if (!holds) {
          const entry = (await explanationOf(lead.lead_id)).find((e) => e.campaign === id);
          expect(entry).toMatchObject({ eligible: false, rule: 'filter' });
          expect(entry?.detail).toMatch(/^Filter: /);
        }
      }
    });
  }

  it('names the rule and the value in the explanation', async () => {
    const { id, fixedId } = await ruled({ field: 'electric_bill', op: 'at_least', value: 100 });
    const lead = await directLead(fixedId, { electric_bill: 80 });
    expect(lead.ok).toBe(false);
    expect((await explanationOf(lead.lead_id)).find((e) => e.campaign === id)).toMatchObject({
      eligible: false,
      rule: 'filter',
      detail: 'Filter: Monthly electric bill at least $100 (lead: $80)',
    });
  });

  it('a post-stage rule: the ping says the sale depends on it; the post sells only a lead that meets it', async () => {
    const { id, fixedId } = await ruled({ field: 'panels', op: 'at_least', value: 10 });
    const ping = await pingFor(fixedId, {});
    expect(ping).toMatchObject({
      ok: true,
      conditions: [{ field: 'panels', message: "The sale depends on panels: a buyer's filter checks it at post" }],
    });
    const below = await postFor(ping.ping_id as string, { panels: 9 });
    expect(below.ok).toBe(false);
    // Never charged: no match for the lead that failed the rule at post.
    expect(await t.database.db.select().from(leadMatches).where(eq(leadMatches.leadId, below.lead_id))).toEqual([]);
    expect((await explanationOf(below.lead_id)).find((e) => e.campaign === id)).toMatchObject({
      rule: 'filter',
      detail: 'Filter: Panels wanted at least 10 (lead: 9)',
    });
    const again = await pingFor(fixedId, {});
    expect((await postFor(again.ping_id as string, { panels: 10 })).status).toBe('sold');
    // A post without the field fails the rule too.
    const third = await pingFor(fixedId, {});
    expect((await postFor(third.ping_id as string, {})).ok).toBe(false);
  });

  it('boolean (post-stage) at both sides, and a personal field, deferred at ping and checked at post', async () => {
    const battery = await ruled({ field: 'battery', op: 'equals', value: true });
    for (const [value, holds] of [
      [false, false],
      [true, true],
    ] as const) {
      const ping = await pingFor(battery.fixedId, {});
      expect(ping.conditions?.map((c) => c.field)).toEqual(['battery']);
      expect((await postFor(ping.ping_id as string, { battery: value })).ok).toBe(holds);
      expect((await directLead(battery.fixedId, { battery: value })).ok).toBe(holds);
    }
    const personal = await ruled({ field: 'spouse_email', op: 'absent' });
    const ping = await pingFor(personal.fixedId, {});
    expect(ping.conditions?.map((c) => c.field)).toEqual(['spouse_email']);
    expect((await postFor(ping.ping_id as string, { spouse_email: 'sam@example.com' })).ok).toBe(false);
    const clean = await pingFor(personal.fixedId, {});
    expect((await postFor(clean.ping_id as string, {})).ok).toBe(true);
  });
});
