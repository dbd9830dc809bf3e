import { describe, expect, it } from 'vitest';
import { bidsFor, checkEligibility, explain, matchSourceFilter, throttleDraw } from './eligibility';
import type { CapCounts, CapPeriod, Eligibility, IndexedCampaign, LeadFacts, Rule, SourceFilter } from './types';

// Thursday 2026-01-15 10:00 in New York.
const THURSDAY_10AM_NY = new Date('2026-01-15T15:00:00Z');

const campaign = (overrides: Partial<IndexedCampaign> = {}): IndexedCampaign => ({
  id: 'cmp_1',
  buyerId: 'buy_1',
  name: 'Solar NY',
  fixedId: 'SOLAR-NY',
  status: 'live',
  priceCents: 5000,
  shared: true,
  sharedPriceCents: 2000,
  services: new Set(['solar']),
  location: 'state',
  states: new Set(['NY']),
  zips: new Set(),
  caps: {},
  time: { zone: 'America/New_York', weekday: { start: 7, end: 19 }, weekend: { start: 9, end: 17 } },
  sourceFilters: [],
  lastSoldAt: 0,
  ...overrides,
});

const lead = (overrides: Partial<LeadFacts> = {}): LeadFacts => ({
  fields: {},
  key: 'png_test_1',
  sourceId: 'src_1',
  channel: null,
  service: 'solar',
  zip: '10001',
  state: 'NY',
  campaign: null,
  duplicateBuyerIds: new Set(),
  now: THURSDAY_10AM_NY,
  ...overrides,
});

const NO_COUNTS: CapCounts = new Map();
const counts = (id: string, byPeriod: Partial<Record<CapPeriod, number>>): CapCounts => new Map([[id, byPeriod]]);

const filter = (overrides: Partial<SourceFilter> = {}): SourceFilter => ({
  sourceId: 'src_1',
  channel: null,
  priceCents: null,
  sharedPriceCents: null,
  pct: 1,
  ...overrides,
});

/** The rule and detail of an exclusion, or a failed expectation when the campaign was eligible. */
function excluded(result: Eligibility): { rule: string; detail: string } {
  if (result.eligible) throw new Error('expected the campaign to be excluded');
  return { rule: result.rule, detail: result.detail };
}

describe('checkEligibility', () => {
  it('admits a campaign that passes every rule, at its own prices', () => {
    expect(checkEligibility(campaign(), lead(), NO_COUNTS)).toEqual({
      eligible: true,
      priceCents: 5000,
      sharedPriceCents: 2000,
    });
  });

  it('gives no shared price when the campaign does not take shared leads', () => {
    expect(checkEligibility(campaign({ shared: false, sharedPriceCents: 2000 }), lead(), NO_COUNTS)).toEqual({
      eligible: true,
      priceCents: 5000,
      sharedPriceCents: null,
    });
  });

  describe('rule 1: status', () => {
    it('fails a paused or draft campaign', () => {
      expect(excluded(checkEligibility(campaign({ status: 'pause' }), lead(), NO_COUNTS))).toEqual({
        rule: 'status',
        detail: 'campaign is paused',
      });
      expect(excluded(checkEligibility(campaign({ status: 'draft' }), lead(), NO_COUNTS))).toEqual({
        rule: 'status',
        detail: 'campaign is a draft',
      });
    });
  });

  describe('rule 8: branded (Branded Id)', () => {
    it('admits the named campaign, whatever the case of the id', () => {
      expect(checkEligibility(campaign(), lead({ campaign: 'solar-ny' }), NO_COUNTS).eligible).toBe(true);
      expect(checkEligibility(campaign(), lead({ campaign: 'SOLAR-NY' }), NO_COUNTS).eligible).toBe(true);
    });

    it('excludes every other campaign, naming the requested id', () => {
      expect(excluded(checkEligibility(campaign(), lead({ campaign: 'ROOF-TX' }), NO_COUNTS))).toEqual({
        rule: 'branded',
        detail: 'request names campaign ROOF-TX',
      });
    });

    it('is checked before service, so other campaigns read as "not named" rather than a side reason', () => {
      const other = campaign({ services: new Set(['roofing']) });
      expect(excluded(checkEligibility(other, lead({ campaign: 'ROOF-TX' }), NO_COUNTS)).rule).toBe('branded');
    });

    it('does not bypass the other rules for the named campaign', () => {
      const named = campaign({ services: new Set(['roofing']) });
      expect(excluded(checkEligibility(named, lead({ campaign: 'SOLAR-NY' }), NO_COUNTS)).rule).toBe('service');
    });
  });

  describe('rule 2: service', () => {
    it('admits a listed service and fails another', () => {
      expect(checkEligibility(campaign({ services: new Set(['roofing', 'solar']) }), lead(), NO_COUNTS).eligible).toBe(
        true,
      );
      expect(excluded(checkEligibility(campaign({ services: new Set(['roofing']) }), lead(), NO_COUNTS))).toEqual({
        rule: 'service',
        detail: "service 'solar' not in campaign services",
      });
    });
  });

  describe('rule 3: location', () => {
    it('state: the ZIP state must be listed', () => {
      expect(checkEligibility(campaign({ states: new Set(['NJ', 'NY']) }), lead(), NO_COUNTS).eligible).toBe(true);
      expect(excluded(checkEligibility(campaign({ states: new Set(['NJ']) }), lead(), NO_COUNTS))).toEqual({
        rule: 'location',
        detail: 'state NY (ZIP 10001) not in campaign states',
      });
    });

    it('state: a ZIP not in the ZIP table (no state) never matches', () => {
      expect(excluded(checkEligibility(campaign(), lead({ zip: '99999', state: null }), NO_COUNTS))).toEqual({
        rule: 'location',
        detail: 'ZIP 99999 has no state in the ZIP table',
      });
    });

    it('zip: the ZIP must be listed, even one missing from the ZIP table', () => {
      const zipList = campaign({ location: 'zip', states: new Set(), zips: new Set(['10001', '99999']) });
      expect(checkEligibility(zipList, lead(), NO_COUNTS).eligible).toBe(true);
      expect(checkEligibility(zipList, lead({ zip: '99999', state: null }), NO_COUNTS).eligible).toBe(true);
      expect(excluded(checkEligibility(zipList, lead({ zip: '10002' }), NO_COUNTS))).toEqual({
        rule: 'location',
        detail: 'ZIP 10002 not in campaign ZIPs',
      });
    });

    it('zip: the state list is ignored', () => {
      const zipList = campaign({ location: 'zip', states: new Set(['NY']), zips: new Set(['07001']) });
      expect(excluded(checkEligibility(zipList, lead(), NO_COUNTS)).rule).toBe('location');
    });

    it('zipset: the ZIP must be in the region', () => {
      const region = campaign({ location: 'zipset', states: new Set(), zips: new Set(['10001']) });
      expect(checkEligibility(region, lead(), NO_COUNTS).eligible).toBe(true);
      expect(excluded(checkEligibility(region, lead({ zip: '10002' }), NO_COUNTS))).toEqual({
        rule: 'location',
        detail: 'ZIP 10002 not in region',
      });
    });
  });

  describe('rule 4: time', () => {
    const sevenToSeven = {
      zone: 'America/New_York',
      weekday: { start: 7, end: 19 },
      weekend: { start: 7, end: 19 },
    };

    it('admits within the hours and always without hours', () => {
      expect(checkEligibility(campaign({ time: sevenToSeven }), lead(), NO_COUNTS).eligible).toBe(true);
      const saturdayNight = new Date('2026-01-18T02:14:00Z');
      expect(checkEligibility(campaign({ time: null }), lead({ now: saturdayNight }), NO_COUNTS).eligible).toBe(true);
    });

    it('fails outside the hours, showing the hours, zone and local time', () => {
      const saturdayNight = new Date('2026-01-18T02:14:00Z'); // Sat 21:14 EST
      expect(
        excluded(checkEligibility(campaign({ time: sevenToSeven }), lead({ now: saturdayNight }), NO_COUNTS)),
      ).toEqual({ rule: 'time', detail: 'outside hours 7-19 America/New_York (now 21:14 Sat)' });
    });

    it("shows the day's own hours (weekend hours on a Saturday)", () => {
      const saturdayMorning = new Date('2026-01-17T13:30:00Z'); // Sat 08:30 EST, before the 9-17 weekend hours
      expect(excluded(checkEligibility(campaign(), lead({ now: saturdayMorning }), NO_COUNTS)).detail).toBe(
        'outside hours 9-17 America/New_York (now 08:30 Sat)',
      );
    });

    it('fails a campaign whose zone is unknown', () => {
      const broken = campaign({ time: { ...sevenToSeven, zone: 'Atlantis/Lost' } });
      expect(excluded(checkEligibility(broken, lead(), NO_COUNTS))).toEqual({
        rule: 'time',
        detail: "unknown time zone 'Atlantis/Lost'",
      });
    });
  });

  describe('rule 5: caps', () => {
    it.each(['hourly', 'daily', 'weekly', 'monthly'] as const)(
      '%s: below the limit passes, at the limit fails',
      (p) => {
        const capped = campaign({ caps: { [p]: 25 } });
        expect(checkEligibility(capped, lead(), counts('cmp_1', { [p]: 24 })).eligible).toBe(true);
        expect(excluded(checkEligibility(capped, lead(), counts('cmp_1', { [p]: 25 })))).toEqual({
          rule: 'cap',
          detail: `${p} cap 25 reached`,
        });
        // A count past the limit (a cap lowered mid-day) also fails.
        expect(excluded(checkEligibility(capped, lead(), counts('cmp_1', { [p]: 30 }))).rule).toBe('cap');
      },
    );

    it('no count yet for the campaign means 0 sold', () => {
      expect(checkEligibility(campaign({ caps: { daily: 1 } }), lead(), NO_COUNTS).eligible).toBe(true);
    });

    it("only the campaign's own counts apply", () => {
      expect(
        checkEligibility(campaign({ caps: { daily: 1 } }), lead(), counts('cmp_other', { daily: 5 })).eligible,
      ).toBe(true);
    });

    it('null, undefined and 0 limits are no cap, for every period', () => {
      const uncapped = campaign({ caps: { hourly: 0, daily: null, weekly: 0, monthly: 0 } });
      const huge = counts('cmp_1', { hourly: 1_000, daily: 1_000, weekly: 1_000, monthly: 1_000 });
      expect(checkEligibility(uncapped, lead(), huge).eligible).toBe(true);
      expect(checkEligibility(campaign({ caps: {} }), lead(), huge).eligible).toBe(true);
    });

    it('reports the first cap reached, shortest period first', () => {
      const capped = campaign({ caps: { hourly: 5, daily: 10, monthly: 100 } });
      expect(
        excluded(checkEligibility(capped, lead(), counts('cmp_1', { hourly: 5, daily: 10, monthly: 100 }))).detail,
      ).toBe('hourly cap 5 reached');
      expect(
        excluded(checkEligibility(capped, lead(), counts('cmp_1', { hourly: 4, daily: 10, monthly: 100 }))).detail,
      ).toBe('daily cap 10 reached');
      expect(
        excluded(checkEligibility(capped, lead(), counts('cmp_1', { hourly: 4, daily: 9, monthly: 100 }))).detail,
      ).toBe('monthly cap 100 reached');
    });
  });

  describe('rule 6: source restrictions', () => {
    it('no restrictions admit every source', () => {
      expect(checkEligibility(campaign(), lead({ sourceId: 'src_anyone' }), NO_COUNTS).eligible).toBe(true);
    });

    it('a listed source passes; an unlisted one fails', () => {
      const restricted = campaign({ sourceFilters: [filter({ sourceId: 'src_1' })] });
      expect(checkEligibility(restricted, lead(), NO_COUNTS).eligible).toBe(true);
      expect(excluded(checkEligibility(restricted, lead({ sourceId: 'src_2' }), NO_COUNTS))).toEqual({
        rule: 'source',
        detail: 'source not in source restrictions (src_2)',
      });
    });

    it('a row naming a channel admits that channel only', () => {
      const restricted = campaign({ sourceFilters: [filter({ channel: 'web' })] });
      expect(checkEligibility(restricted, lead({ channel: 'web' }), NO_COUNTS).eligible).toBe(true);
      expect(excluded(checkEligibility(restricted, lead({ channel: 'tv' }), NO_COUNTS))).toEqual({
        rule: 'source',
        detail: 'source not in source restrictions (src_1, channel tv)',
      });
      expect(excluded(checkEligibility(restricted, lead({ channel: null }), NO_COUNTS)).rule).toBe('source');
    });

    it('a row without a channel admits every channel of the source', () => {
      const restricted = campaign({ sourceFilters: [filter({ channel: null })] });
      expect(checkEligibility(restricted, lead({ channel: 'tv' }), NO_COUNTS).eligible).toBe(true);
      expect(checkEligibility(restricted, lead({ channel: null }), NO_COUNTS).eligible).toBe(true);
    });

    it("the row's prices replace the campaign's; null keeps the campaign's", () => {
      const both = campaign({ sourceFilters: [filter({ priceCents: 6500, sharedPriceCents: 2500 })] });
      expect(checkEligibility(both, lead(), NO_COUNTS)).toEqual({
        eligible: true,
        priceCents: 6500,
        sharedPriceCents: 2500,
      });
      const priceOnly = campaign({ sourceFilters: [filter({ priceCents: 4000 })] });
      expect(checkEligibility(priceOnly, lead(), NO_COUNTS)).toEqual({
        eligible: true,
        priceCents: 4000,
        sharedPriceCents: 2000,
      });
    });

    it('a row shared price does not make an exclusive-only campaign bid shared', () => {
      const exclusiveOnly = campaign({ shared: false, sourceFilters: [filter({ sharedPriceCents: 2500 })] });
      expect(checkEligibility(exclusiveOnly, lead(), NO_COUNTS)).toEqual({
        eligible: true,
        priceCents: 5000,
        sharedPriceCents: null,
      });
    });

    it("a row naming the lead's channel wins over the source-wide row, in either order", () => {
      const wide = filter({ channel: null, priceCents: 3000 });
      const web = filter({ channel: 'web', priceCents: 7000 });
      for (const rows of [
        [wide, web],
        [web, wide],
      ]) {
        const c = campaign({ sourceFilters: rows });
        expect(checkEligibility(c, lead({ channel: 'web' }), NO_COUNTS)).toMatchObject({ priceCents: 7000 });
        expect(checkEligibility(c, lead({ channel: 'tv' }), NO_COUNTS)).toMatchObject({ priceCents: 3000 });
      }
    });

    it('matchSourceFilter ignores rows of other sources', () => {
      const rows = [
        filter({ sourceId: 'src_2', channel: 'web' }),
        filter({ sourceId: 'src_1', channel: null, pct: 0.3 }),
      ];
      expect(matchSourceFilter(rows, lead({ channel: 'web' }))).toBe(rows[1]);
      expect(matchSourceFilter(rows, lead({ sourceId: 'src_3' }))).toBeNull();
    });

    describe('percent throttle', () => {
      const keys = Array.from({ length: 2000 }, (_, i) => `png_${i}`);
      const admitted = (pct: number, campaignId = 'cmp_1') => {
        const c = campaign({ id: campaignId, sourceFilters: [filter({ pct })] });
        return keys.filter((key) => checkEligibility(c, lead({ key }), NO_COUNTS).eligible);
      };

      it('pct 1 admits every lead, pct 0 none', () => {
        expect(admitted(1)).toHaveLength(2000);
        expect(admitted(0)).toHaveLength(0);
      });

      it('pct 0.5 admits roughly half (45-55% of 2000 keys)', () => {
        const n = admitted(0.5).length;
        expect(n).toBeGreaterThanOrEqual(900);
        expect(n).toBeLessThanOrEqual(1100);
      });

      it('pct 0.1 admits roughly a tenth', () => {
        const n = admitted(0.1).length;
        expect(n).toBeGreaterThanOrEqual(150);
        expect(n).toBeLessThanOrEqual(250);
      });

      it('is deterministic: the same key and campaign always get the same answer', () => {
        expect(admitted(0.5)).toEqual(admitted(0.5));
        expect(throttleDraw('png_42', 'cmp_1')).toBe(throttleDraw('png_42', 'cmp_1'));
      });

      it('is nested: a lead admitted at 30% is admitted at 60%', () => {
        const low = new Set(admitted(0.3));
        const high = new Set(admitted(0.6));
        for (const key of low) expect(high.has(key)).toBe(true);
      });

      it('differs per campaign, so two throttled campaigns do not take the same slice', () => {
        const a = new Set(admitted(0.5, 'cmp_a'));
        const b = admitted(0.5, 'cmp_b');
        const both = b.filter((key) => a.has(key)).length;
        // Independent halves overlap on about a quarter of the keys, not on all of the half.
        expect(both).toBeGreaterThan(400);
        expect(both).toBeLessThan(600);
      });

      it('draws in [0, 1)', () => {
        for (const key of keys.slice(0, 200)) {
          const draw = throttleDraw(key, 'cmp_1');
          expect(draw).toBeGreaterThanOrEqual(0);
          expect(draw).toBeLessThan(1);
        }
      });

      it('names the throttle when it refuses a lead', () => {
        const c = campaign({ sourceFilters: [filter({ pct: 0.5 })] });
        const refused = keys.find((key) => !checkEligibility(c, lead({ key }), NO_COUNTS).eligible);
        expect(refused).toBeDefined();
        expect(excluded(checkEligibility(c, lead({ key: refused }), NO_COUNTS))).toEqual({
          rule: 'source',
          detail: '50% throttle: lead not in the admitted share',
        });
      });
    });
  });

  describe('rule 9: duplicate', () => {
    it("fails when the campaign's buyer already bought the phone or email; other buyers pass", () => {
      expect(
        excluded(checkEligibility(campaign(), lead({ duplicateBuyerIds: new Set(['buy_1']) }), NO_COUNTS)),
      ).toEqual({
        rule: 'duplicate',
        detail: 'buyer already bought this phone or email',
      });
      expect(checkEligibility(campaign(), lead({ duplicateBuyerIds: new Set(['buy_2']) }), NO_COUNTS).eligible).toBe(
        true,
      );
    });
  });

  it('reports the FIRST failing rule, in the order status, branded, service, location, time, cap, source, duplicate', () => {
    type Scenario = { c: IndexedCampaign; facts: LeadFacts; caps: CapCounts };
    const breakers: [Rule, (s: Scenario) => Scenario][] = [
      ['status', (s) => ({ ...s, c: { ...s.c, status: 'pause' } })],
      ['branded', (s) => ({ ...s, facts: { ...s.facts, campaign: 'OTHER' } })],
      ['service', (s) => ({ ...s, c: { ...s.c, services: new Set(['roofing']) } })],
      ['location', (s) => ({ ...s, c: { ...s.c, states: new Set(['TX']) } })],
      ['time', (s) => ({ ...s, facts: { ...s.facts, now: new Date('2026-01-18T02:14:00Z') } })],
      ['cap', (s) => ({ ...s, c: { ...s.c, caps: { daily: 1 } }, caps: counts('cmp_1', { daily: 1 }) })],
      ['source', (s) => ({ ...s, c: { ...s.c, sourceFilters: [filter({ sourceId: 'src_9' })] } })],
      ['duplicate', (s) => ({ ...s, facts: { ...s.facts, duplicateBuyerIds: new Set(['buy_1']) } })],
    ];
    const clean: Scenario = { c: campaign(), facts: lead(), caps: NO_COUNTS };
    // Break rules i..end: the campaign must be excluded by rule i, the first broken one.
    breakers.forEach(([rule], i) => {
      const s = breakers.slice(i).reduce((acc, [, breakIt]) => breakIt(acc), clean);
      expect(excluded(checkEligibility(s.c, s.facts, s.caps)).rule).toBe(rule);
    });
    expect(checkEligibility(clean.c, clean.facts, clean.caps).eligible).toBe(true);
  });
});

describe('explain', () => {
  it('lists every campaign in order, with the first rule that excluded it or its prices', () => {
    const campaigns = [
      campaign({ id: 'cmp_a', name: 'A', buyerId: 'buy_a' }),
      campaign({ id: 'cmp_b', name: 'B', buyerId: 'buy_b', status: 'pause' }),
      campaign({ id: 'cmp_c', name: 'C', buyerId: 'buy_c', services: new Set(['roofing']) }),
    ];
    expect(explain(campaigns, lead(), NO_COUNTS)).toEqual([
      {
        campaignId: 'cmp_a',
        buyerId: 'buy_a',
        name: 'A',
        eligibility: { eligible: true, priceCents: 5000, sharedPriceCents: 2000 },
      },
      {
        campaignId: 'cmp_b',
        buyerId: 'buy_b',
        name: 'B',
        eligibility: { eligible: false, rule: 'status', detail: 'campaign is paused' },
      },
      {
        campaignId: 'cmp_c',
        buyerId: 'buy_c',
        name: 'C',
        eligibility: { eligible: false, rule: 'service', detail: "service 'solar' not in campaign services" },
      },
    ]);
  });

  it('is empty with no campaigns', () => {
    expect(explain([], lead(), NO_COUNTS)).toEqual([]);
  });
});

describe('bidsFor', () => {
  it('bids the effective prices of eligible campaigns only, and explains them all', () => {
    const campaigns = [
      campaign({ id: 'cmp_a', buyerId: 'buy_a', lastSoldAt: 1_000 }),
      campaign({ id: 'cmp_b', buyerId: 'buy_b', caps: { daily: 2 } }),
      campaign({
        id: 'cmp_c',
        buyerId: 'buy_c',
        shared: false,
        sourceFilters: [filter({ priceCents: 7500 })],
        lastSoldAt: 5,
      }),
    ];
    const { bids, considered } = bidsFor(campaigns, lead(), counts('cmp_b', { daily: 2 }));
    expect(bids).toEqual([
      { campaignId: 'cmp_a', buyerId: 'buy_a', priceCents: 5000, sharedPriceCents: 2000, lastSoldAt: 1_000 },
      { campaignId: 'cmp_c', buyerId: 'buy_c', priceCents: 7500, sharedPriceCents: null, lastSoldAt: 5 },
    ]);
    expect(considered.map((e) => [e.campaignId, e.eligibility.eligible ? 'bid' : e.eligibility.rule])).toEqual([
      ['cmp_a', 'bid'],
      ['cmp_b', 'cap'],
      ['cmp_c', 'bid'],
    ]);
    expect(considered).toEqual(explain(campaigns, lead(), counts('cmp_b', { daily: 2 })));
  });
});

describe('eligibility edges (mutation testing)', () => {
  it('reads an empty Branded Id as naming no campaign', () => {
    expect(checkEligibility(campaign(), lead({ campaign: '' }), NO_COUNTS).eligible).toBe(true);
  });

  it('takes leads at any hour when the campaign has no time restriction', () => {
    const threeAmSunday = new Date('2026-01-18T08:00:00Z');
    expect(checkEligibility(campaign({ time: null }), lead({ now: threeAmSunday }), NO_COUNTS).eligible).toBe(true);
    expect(checkEligibility(campaign(), lead({ now: threeAmSunday }), NO_COUNTS)).toMatchObject({ rule: 'time' });
  });
});
