import { checkFieldFilters, type FieldFilter, type FilterableField, type FilterValue } from '@leadex/domain';
import { describe, expect, it } from 'vitest';
import { indexedCampaign } from '../../test/engine-fixtures';
import { checkEligibility } from './eligibility';
import { compileCampaignFilters, SharedRules } from './field-filters';
import type { CapCounts, IndexedCampaign, LeadFacts } from './types';

/**
 * Field filters in eligibility (issue 33 item 3): every operator at both sides of its boundary for each
 * type, at ping (a ping-stage field the ping carries) and at post, the post-only fields deferred at ping,
 * and the explanation naming the rule.
 */

const FIELDS: FilterableField[] = [
  { key: 'age', label: 'Age', type: 'number', stage: 'ping' },
  { key: 'bill', label: 'Monthly electric bill', type: 'money', stage: 'ping' },
  { key: 'since', label: 'Moved in', type: 'date', stage: 'ping' },
  { key: 'dui', label: 'DUI', type: 'boolean', stage: 'ping' },
  { key: 'shade', label: 'Roof shade', type: 'choice', stage: 'ping', options: ['none', 'partial', 'full'] },
  { key: 'insurer', label: 'Current insurer', type: 'text', stage: 'ping' },
  { key: 'old_zip', label: 'Previous ZIP', type: 'zip', stage: 'ping' },
  { key: 'credit', label: 'Credit rating', type: 'choice', stage: 'post', options: ['excellent', 'good', 'poor'] },
  { key: 'income', label: 'Income', type: 'money', stage: 'post' },
];
const BY_KEY = new Map(FIELDS.map((f) => [f.key, f]));

const NOW = new Date('2026-01-15T15:00:00Z');
const NO_COUNTS: CapCounts = new Map();

function campaignWith(rules: FieldFilter[], fields = BY_KEY): IndexedCampaign {
  const { issues, stored } = checkFieldFilters(rules, fields);
  expect(issues).toEqual([]);
  return indexedCampaign({
    name: 'Solar NY',
    fixedId: 'SOLAR-NY',
    services: new Set(['solar', 'roofing']),
    fieldFilters: compileCampaignFilters(stored, ['solar', 'roofing'], (s) => (s === 'solar' ? fields : new Map())),
  });
}

const facts = (fields: Record<string, FilterValue>, stage: 'ping' | 'post', service = 'solar'): LeadFacts => ({
  key: 'png_1',
  sourceId: 'src_1',
  channel: null,
  service,
  zip: '10001',
  state: 'NY',
  campaign: null,
  duplicateBuyerIds: new Set(),
  now: NOW,
  fields,
  stage,
});

type Case = [rule: FieldFilter, value: FilterValue | undefined, holds: boolean];

// Values as a lead holds them: money in cents, dates YYYY-MM-DD. Rules as the API takes them: money in dollars.
const CASES: Record<string, Case[]> = {
  number: [
    [{ field: 'age', op: 'equals', value: 30 }, 30, true],
    [{ field: 'age', op: 'equals', value: 30 }, 31, false],
    [{ field: 'age', op: 'not_equals', value: 30 }, 30, false],
    [{ field: 'age', op: 'not_equals', value: 30 }, 29, true],
    [{ field: 'age', op: 'one_of', values: [30, 40] }, 40, true],
    [{ field: 'age', op: 'one_of', values: [30, 40] }, 41, false],
    [{ field: 'age', op: 'none_of', values: [30, 40] }, 40, false],
    [{ field: 'age', op: 'none_of', values: [30, 40] }, 39, true],
    [{ field: 'age', op: 'at_least', value: 18 }, 17, false],
    [{ field: 'age', op: 'at_least', value: 18 }, 18, true],
    [{ field: 'age', op: 'at_most', value: 64 }, 64, true],
    [{ field: 'age', op: 'at_most', value: 64 }, 65, false],
    [{ field: 'age', op: 'between', min: 18, max: 64 }, 17, false],
    [{ field: 'age', op: 'between', min: 18, max: 64 }, 18, true],
    [{ field: 'age', op: 'between', min: 18, max: 64 }, 64, true],
    [{ field: 'age', op: 'between', min: 18, max: 64 }, 65, false],
    [{ field: 'age', op: 'present' }, 0, true],
    [{ field: 'age', op: 'present' }, undefined, false],
    [{ field: 'age', op: 'absent' }, undefined, true],
    [{ field: 'age', op: 'absent' }, 0, false],
  ],
  money: [
    [{ field: 'bill', op: 'at_least', value: 100 }, 9_999, false],
    [{ field: 'bill', op: 'at_least', value: 100 }, 10_000, true],
    [{ field: 'bill', op: 'at_most', value: 250.5 }, 25_050, true],
    [{ field: 'bill', op: 'at_most', value: 250.5 }, 25_051, false],
    [{ field: 'bill', op: 'between', min: 100, max: 200 }, 9_999, false],
    [{ field: 'bill', op: 'between', min: 100, max: 200 }, 10_000, true],
    [{ field: 'bill', op: 'between', min: 100, max: 200 }, 20_000, true],
    [{ field: 'bill', op: 'between', min: 100, max: 200 }, 20_001, false],
    [{ field: 'bill', op: 'equals', value: 100 }, 10_000, true],
    [{ field: 'bill', op: 'equals', value: 100 }, 10_001, false],
    [{ field: 'bill', op: 'not_equals', value: 100 }, 10_000, false],
    [{ field: 'bill', op: 'not_equals', value: 100 }, 9_999, true],
    [{ field: 'bill', op: 'present' }, 1, true],
    [{ field: 'bill', op: 'absent' }, 1, false],
    [{ field: 'bill', op: 'at_least', value: 100 }, undefined, false],
  ],
  date: [
    [{ field: 'since', op: 'at_least', value: '2026-01-01' }, '2025-12-31', false],
    [{ field: 'since', op: 'at_least', value: '2026-01-01' }, '2026-01-01', true],
    [{ field: 'since', op: 'at_most', value: '2026-01-01' }, '2026-01-01', true],
    [{ field: 'since', op: 'at_most', value: '2026-01-01' }, '2026-01-02', false],
    [{ field: 'since', op: 'between', min: '2025-01-01', max: '2025-12-31' }, '2024-12-31', false],
    [{ field: 'since', op: 'between', min: '2025-01-01', max: '2025-12-31' }, '2025-01-01', true],
    [{ field: 'since', op: 'between', min: '2025-01-01', max: '2025-12-31' }, '2025-12-31', true],
    [{ field: 'since', op: 'between', min: '2025-01-01', max: '2025-12-31' }, '2026-01-01', false],
    [{ field: 'since', op: 'equals', value: '2025-06-30' }, '2025-06-30', true],
    [{ field: 'since', op: 'equals', value: '2025-06-30' }, '2025-07-01', false],
    [{ field: 'since', op: 'not_equals', value: '2025-06-30' }, '2025-06-30', false],
    [{ field: 'since', op: 'not_equals', value: '2025-06-30' }, '2025-06-29', true],
    [{ field: 'since', op: 'present' }, '2025-06-29', true],
    [{ field: 'since', op: 'absent' }, undefined, true],
  ],
  boolean: [
    [{ field: 'dui', op: 'equals', value: false }, false, true],
    [{ field: 'dui', op: 'equals', value: false }, true, false],
    [{ field: 'dui', op: 'equals', value: false }, undefined, false],
    [{ field: 'dui', op: 'not_equals', value: true }, true, false],
    [{ field: 'dui', op: 'not_equals', value: true }, false, true],
    [{ field: 'dui', op: 'present' }, false, true],
    [{ field: 'dui', op: 'present' }, undefined, false],
    [{ field: 'dui', op: 'absent' }, false, false],
    [{ field: 'dui', op: 'absent' }, undefined, true],
  ],
  choice: [
    [{ field: 'shade', op: 'equals', value: 'none' }, 'none', true],
    [{ field: 'shade', op: 'equals', value: 'none' }, 'partial', false],
    [{ field: 'shade', op: 'not_equals', value: 'full' }, 'full', false],
    [{ field: 'shade', op: 'not_equals', value: 'full' }, 'partial', true],
    [{ field: 'shade', op: 'one_of', values: ['none', 'partial'] }, 'partial', true],
    [{ field: 'shade', op: 'one_of', values: ['none', 'partial'] }, 'full', false],
    [{ field: 'shade', op: 'none_of', values: ['full'] }, 'full', false],
    [{ field: 'shade', op: 'none_of', values: ['full'] }, 'FULL', false],
    [{ field: 'shade', op: 'none_of', values: ['full'] }, 'partial', true],
    [{ field: 'shade', op: 'none_of', values: ['full'] }, undefined, true],
    [{ field: 'shade', op: 'present' }, 'none', true],
    [{ field: 'shade', op: 'absent' }, 'none', false],
  ],
  text: [
    [{ field: 'insurer', op: 'equals', value: 'Geico' }, ' geico ', true],
    [{ field: 'insurer', op: 'equals', value: 'Geico' }, 'Geico Direct', false],
    [{ field: 'insurer', op: 'not_equals', value: 'Geico' }, 'GEICO', false],
    [{ field: 'insurer', op: 'not_equals', value: 'Geico' }, 'Allstate', true],
    [{ field: 'insurer', op: 'one_of', values: ['Geico', 'Allstate'] }, 'allstate', true],
    [{ field: 'insurer', op: 'one_of', values: ['Geico', 'Allstate'] }, 'Progressive', false],
    [{ field: 'insurer', op: 'none_of', values: ['Geico', 'Allstate'] }, 'Allstate', false],
    [{ field: 'insurer', op: 'none_of', values: ['Geico', 'Allstate'] }, 'Progressive', true],
    [{ field: 'insurer', op: 'present' }, '', false],
    [{ field: 'insurer', op: 'present' }, 'x', true],
    [{ field: 'insurer', op: 'absent' }, '', true],
    [{ field: 'insurer', op: 'absent' }, 'x', false],
  ],
  zip: [
    [{ field: 'old_zip', op: 'equals', value: '10001' }, '10001', true],
    [{ field: 'old_zip', op: 'equals', value: '10001' }, '10002', false],
    [{ field: 'old_zip', op: 'not_equals', value: '10001' }, '10001', false],
    [{ field: 'old_zip', op: 'not_equals', value: '10001' }, '10002', true],
    [{ field: 'old_zip', op: 'one_of', values: ['10001', '10002'] }, '10002', true],
    [{ field: 'old_zip', op: 'one_of', values: ['10001', '10002'] }, '10003', false],
    [{ field: 'old_zip', op: 'none_of', values: ['10001', '10002'] }, '10002', false],
    [{ field: 'old_zip', op: 'none_of', values: ['10001', '10002'] }, '10003', true],
    [{ field: 'old_zip', op: 'present' }, '10003', true],
    [{ field: 'old_zip', op: 'absent' }, '10003', false],
  ],
};

const words = (rule: FieldFilter) => `${rule.op} ${JSON.stringify(rule.value ?? rule.values ?? [rule.min, rule.max])}`;

describe('field filters in eligibility', () => {
  for (const [type, cases] of Object.entries(CASES)) {
    for (const stage of ['ping', 'post'] as const) {
      it.each(cases.map((c) => [words(c[0]), c[1] === undefined ? 'none' : c[1], ...c] as const))(
        `${type} at ${stage}: %s, lead %j`,
        (_name, _shown, rule, value, holds) => {
          const result = checkEligibility(
            campaignWith([rule]),
            facts(value === undefined ? {} : { [rule.field]: value }, stage),
            NO_COUNTS,
          );
          expect(result.eligible).toBe(holds);
          if (!result.eligible) expect(result.rule).toBe('filter');
        },
      );
    }
  }

  it('names the rule and the lead value in the explanation', () => {
    const c = campaignWith([
      { field: 'shade', op: 'none_of', values: ['full'] },
      { field: 'bill', op: 'at_least', value: 100 },
    ]);
    expect(checkEligibility(c, facts({ shade: 'none', bill: 8000 }, 'post'), NO_COUNTS)).toEqual({
      eligible: false,
      rule: 'filter',
      detail: 'Filter: Monthly electric bill at least $100 (lead: $80)',
    });
    expect(checkEligibility(c, facts({ bill: 12_000, shade: 'full' }, 'post'), NO_COUNTS)).toMatchObject({
      detail: 'Filter: Roof shade none of full (lead: full)',
    });
    expect(checkEligibility(c, facts({ shade: 'none' }, 'ping'), NO_COUNTS)).toMatchObject({
      detail: 'Filter: Monthly electric bill at least $100 (lead: none)',
    });
  });

  it('all rules must hold: one failing excludes', () => {
    const c = campaignWith([
      { field: 'age', op: 'at_least', value: 18 },
      { field: 'dui', op: 'equals', value: false },
    ]);
    expect(checkEligibility(c, facts({ age: 30, dui: false }, 'post'), NO_COUNTS).eligible).toBe(true);
    expect(checkEligibility(c, facts({ age: 30, dui: true }, 'post'), NO_COUNTS).eligible).toBe(false);
    expect(checkEligibility(c, facts({ age: 17, dui: false }, 'post'), NO_COUNTS).eligible).toBe(false);
  });

  it('defers a post-only field the ping lacks, and checks it at post', () => {
    const c = campaignWith([
      { field: 'credit', op: 'one_of', values: ['excellent', 'good'] },
      { field: 'income', op: 'at_least', value: 50_000 },
      { field: 'age', op: 'at_least', value: 18 },
    ]);
    const atPing = checkEligibility(c, facts({ age: 40 }, 'ping'), NO_COUNTS);
    expect(atPing).toMatchObject({ eligible: true, pending: ['credit', 'income'] });
    // A ping-stage rule is still judged at ping.
    expect(checkEligibility(c, facts({ age: 17 }, 'ping'), NO_COUNTS)).toMatchObject({ eligible: false });
    // A post-only field a ping does carry is judged at once.
    expect(checkEligibility(c, facts({ age: 40, credit: 'poor' }, 'ping'), NO_COUNTS)).toMatchObject({
      eligible: false,
      detail: 'Filter: Credit rating one of excellent, good (lead: poor)',
    });
    // At post the post-only fields are required by their rules, at both sides of the boundary.
    expect(checkEligibility(c, facts({ age: 40 }, 'post'), NO_COUNTS).eligible).toBe(false);
    expect(checkEligibility(c, facts({ age: 40, credit: 'good', income: 4_999_999 }, 'post'), NO_COUNTS).eligible).toBe(
      false,
    );
    const ok = checkEligibility(c, facts({ age: 40, credit: 'good', income: 5_000_000 }, 'post'), NO_COUNTS);
    expect(ok).toEqual({ eligible: true, priceCents: 5000, sharedPriceCents: null });
  });

  it('applies a rule only to the services that define its field; a removed field filters no more', () => {
    const c = campaignWith([{ field: 'bill', op: 'at_least', value: 100 }]);
    expect(checkEligibility(c, facts({}, 'post', 'roofing'), NO_COUNTS).eligible).toBe(true);
    const removed = new Map(BY_KEY);
    const { stored } = checkFieldFilters([{ field: 'bill', op: 'at_least', value: 100 }], BY_KEY);
    removed.set('bill', { ...(BY_KEY.get('bill') as FilterableField), removed: true });
    expect(compileCampaignFilters(stored, ['solar'], () => removed)).toBeUndefined();
  });

  it('a field whose type changed since the rule was saved excludes, saying so', () => {
    const { stored } = checkFieldFilters([{ field: 'age', op: 'at_least', value: 18 }], BY_KEY);
    const changed = new Map(BY_KEY);
    changed.set('age', { key: 'age', label: 'Age', type: 'text' });
    const c = { ...campaignWith([]), fieldFilters: compileCampaignFilters(stored, ['solar'], () => changed) };
    expect(checkEligibility(c, facts({ age: '40' }, 'post'), NO_COUNTS)).toMatchObject({
      eligible: false,
      detail: 'Filter: Age: the field is now text, not number; edit this filter (lead: 40)',
    });
  });

  describe('rules shared across the campaigns of a snapshot', () => {
    const rulesOf = (rules: FieldFilter[]) => checkFieldFilters(rules, BY_KEY).stored;
    const compile = (shared: SharedRules, rules: FieldFilter[], id: string): IndexedCampaign => ({
      ...campaignWith([]),
      id,
      fieldFilters: compileCampaignFilters(rulesOf(rules), ['solar'], () => BY_KEY, shared),
    });

    it('compiles the same rule once for every campaign of a service, a different one apart', () => {
      const shared = new SharedRules();
      const a = compile(shared, [{ field: 'age', op: 'at_least', value: 18 }], 'cmp_a');
      const b = compile(shared, [{ field: 'age', op: 'at_least', value: 18 }], 'cmp_b');
      const c = compile(shared, [{ field: 'age', op: 'at_least', value: 19 }], 'cmp_c');
      const [ruleA] = a.fieldFilters?.get('solar') ?? [];
      const [ruleB] = b.fieldFilters?.get('solar') ?? [];
      const [ruleC] = c.fieldFilters?.get('solar') ?? [];
      expect(ruleB).toBe(ruleA);
      expect(ruleC).not.toBe(ruleA);
      expect(ruleA?.slots.size).toBe(2);
    });

    it('keeps each lead its own verdicts, on both sides of a shared rule', () => {
      const shared = new SharedRules();
      const campaigns = ['cmp_a', 'cmp_b', 'cmp_c'].map((id) =>
        compile(shared, [{ field: 'age', op: 'between', min: 18, max: 65 }], id),
      );
      for (const [age, holds] of [
        [17, false],
        [18, true],
        [65, true],
        [66, false],
      ] as const) {
        const lead = facts({ age }, 'post');
        for (const c of campaigns) expect(checkEligibility(c, lead, NO_COUNTS).eligible).toBe(holds);
      }
    });

    it('tests a lead again on a newer snapshot whose same slot holds another rule', () => {
      const lead = facts({ age: 20 }, 'post');
      const before = compile(new SharedRules(), [{ field: 'age', op: 'at_least', value: 18 }], 'cmp_a');
      expect(checkEligibility(before, lead, NO_COUNTS).eligible).toBe(true);
      // The campaign's rule was edited: the new snapshot's slot 0 is a rule the lead fails.
      const after = compile(new SharedRules(), [{ field: 'age', op: 'at_least', value: 21 }], 'cmp_a');
      expect(checkEligibility(after, lead, NO_COUNTS)).toMatchObject({
        eligible: false,
        detail: 'Filter: Age at least 21 (lead: 20)',
      });
    });
  });
});
