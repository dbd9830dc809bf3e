import { describe, expect, it } from 'vitest';
import {
  type Campaign,
  type CampaignFormValues,
  campaignChanges,
  campaignCreateSchema,
  campaignFormSchema,
  campaignFormValues,
  campaignRuleIssues,
  campaignUpdateSchema,
  DEFAULT_CAMPAIGN_TIME,
  newCampaignFormValues,
  parseZipTags,
  toCampaignPayload,
} from './campaign';
import { messages } from './test-support';

/** A valid Campaign form; override any field. */
function form(overrides: Partial<CampaignFormValues> = {}): CampaignFormValues {
  return {
    ...newCampaignFormValues('buy_1'),
    name: 'Roofing TX',
    price: 45,
    state: ['TX'],
    notify: { email: ['leads@acme.example'], sms: [], webhook: '', broadcast_webhooks: [] },
    ...overrides,
  };
}

/** The dotted paths of the fields in `value` that hold something: any value but an empty text or list. */
function filledPaths(value: unknown, path = ''): string[] {
  if (value === '' || (Array.isArray(value) && value.length === 0)) return [];
  if (value !== null && typeof value === 'object' && !Array.isArray(value))
    return Object.entries(value).flatMap(([key, field]) => filledPaths(field, path ? `${path}.${key}` : key));
  return [path];
}

const validApi = { name: 'Roofing TX', buyer: 'buy_1', price: 45, state: ['TX'], notify: { email: ['a@b.example'] } };

describe('parseZipTags (admin §2, Location ZIP tags)', () => {
  it('splits on commas, whitespace and newlines', () => {
    expect(parseZipTags('75201, 75202\n75203\t75204  75205,,')).toEqual({
      zips: ['75201', '75202', '75203', '75204', '75205'],
      invalid: [],
    });
  });

  it('pads entries of 3 or 4 digits to 5 with leading zeros', () => {
    expect(parseZipTags('501 2108 544').zips).toEqual(['00501', '02108', '00544']);
  });

  it('takes the first 5-digit group of longer text', () => {
    expect(parseZipTags(['75201-1234', 'ZIP:10001', 'abc123456']).zips).toEqual(['75201', '10001', '12345']);
  });

  it('reports what it cannot read, and keeps each ZIP once', () => {
    expect(parseZipTags(['12', 'abc', '75201', '75201', '12a4', 'abcdefg', 'abc'])).toEqual({
      zips: ['75201'],
      invalid: ['12', 'abc', '12a4', 'abcdefg'],
    });
  });

  it('answers nothing for empty input', () => {
    expect(parseZipTags('')).toEqual({ zips: [], invalid: [] });
    expect(parseZipTags([])).toEqual({ zips: [], invalid: [] });
  });
});

describe('Campaign validation (admin §5), on the form', () => {
  it('accepts a complete form', () => {
    expect(messages(campaignFormSchema, form())).toEqual({});
  });

  it("needs a state: 'At least one state is required when location is set to state'", () => {
    expect(messages(campaignFormSchema, form({ state: [] })).state).toBe(
      'At least one state is required when location is set to state',
    );
  });

  it("needs a zipset: 'Zipset is required when location is set to zipset'", () => {
    expect(messages(campaignFormSchema, form({ location: 'zipset', zipset: '' })).zipset).toBe(
      'Zipset is required when location is set to zipset',
    );
    expect(messages(campaignFormSchema, form({ location: 'zipset', zipset: 'zst_1' }))).toEqual({});
  });

  it("needs a zip: 'At least one zip code is required when location is set to zip'", () => {
    expect(messages(campaignFormSchema, form({ location: 'zip', zips: [] })).zips).toBe(
      'At least one zip code is required when location is set to zip',
    );
    expect(messages(campaignFormSchema, form({ location: 'zip', zips: ['75201'] }))).toEqual({});
  });

  it("checks notify emails: 'Please enter valid email addresses'", () => {
    const notify = { email: ['ok@acme.example', 'not-an-email'], sms: [], webhook: '', broadcast_webhooks: [] };
    expect(messages(campaignFormSchema, form({ notify }))['notify.email']).toBe('Please enter valid email addresses');
  });

  it("checks SMS numbers: 'Please enter valid phone numbers'", () => {
    const notify = (sms: string[]) => ({ email: [], sms, webhook: '', broadcast_webhooks: [] });
    expect(messages(campaignFormSchema, form({ notify: notify(['call me']) }))['notify.sms']).toBe(
      'Please enter valid phone numbers',
    );
    expect(messages(campaignFormSchema, form({ notify: notify(['+1 (512) 555-0142', '512-555-0143']) }))).toEqual({});
  });

  it("needs one notification method: 'At least one notification method must be configured'", () => {
    const none = { email: [], sms: [], webhook: '', broadcast_webhooks: [] };
    expect(messages(campaignFormSchema, form({ notify: none })).notify).toBe(
      'At least one notification method must be configured',
    );
    for (const one of [
      { ...none, sms: ['5125550142'] },
      { ...none, webhook: 'https://hooks.acme.example/leads' },
      { ...none, broadcast_webhooks: ['https://hooks.acme.example/all'] },
    ])
      expect(messages(campaignFormSchema, form({ notify: one }))).toEqual({});
  });

  it('shows the location and notification messages together with other field errors', () => {
    const none = { email: [], sms: [], webhook: '', broadcast_webhooks: [] };
    expect(messages(campaignFormSchema, form({ name: '', price: '', state: [], notify: none }))).toEqual({
      name: 'Name is required',
      price: 'Price is required',
      state: 'At least one state is required when location is set to state',
      notify: 'At least one notification method must be configured',
    });
  });

  it('refuses Live without a service, beside the number messages, keeping what was typed (issue 27)', () => {
    const typed = { hourly: '0', daily: '', weekly: '1001.5', monthly: 'abcde' };
    expect(messages(campaignFormSchema, form({ status: 'live', services: [], price: '-5', max: typed }))).toEqual({
      services: 'Choose at least one service before setting the campaign Live',
      price: 'Price must be at least 0',
      'max.hourly': 'Hourly limit must be at least 1',
      'max.weekly': 'Weekly limit must be a whole number',
      'max.monthly': 'Monthly limit must be a number',
    });
    expect(messages(campaignFormSchema, form({ status: 'draft', services: [] }))).toEqual({});
    expect(messages(campaignFormSchema, form({ status: 'live', services: ['roofing'] }))).toEqual({});
  });

  describe('Source Restrictions rows', () => {
    const row = (overrides: object = {}) => ({
      source: 'src_1',
      channel: '',
      price: '',
      shared_price: '',
      pct: 100,
      ...overrides,
    });
    const errors = (overrides: object) => messages(campaignFormSchema, form({ source_filter: [row(overrides)] }));

    it('accepts a row with only a source and a percent', () => {
      expect(errors({})).toEqual({});
    });

    it("needs a source: 'Source is required'", () => {
      expect(errors({ source: '' })['source_filter.0.source']).toBe('Source is required');
    });

    it.each([
      ['price', 'Price'],
      ['shared_price', 'Shared Price'],
    ])('checks %s from 0 to 5000', (field, label) => {
      expect(errors({ [field]: 'abc' })[`source_filter.0.${field}`]).toBe(`${label} must be a number`);
      expect(errors({ [field]: -1 })[`source_filter.0.${field}`]).toBe(`${label} must be at least 0`);
      expect(errors({ [field]: 5000.01 })[`source_filter.0.${field}`]).toBe(
        `${label} must be less than or equal to 5000`,
      );
      expect(errors({ [field]: 5000 })).toEqual({});
      expect(errors({ [field]: 0 })).toEqual({});
    });

    it('needs a percent from 0 to 100', () => {
      expect(errors({ pct: '' })['source_filter.0.pct']).toBe('Percent must be a number');
      expect(errors({ pct: 'half' })['source_filter.0.pct']).toBe('Percent must be a number');
      expect(errors({ pct: -1 })['source_filter.0.pct']).toBe('Percent must be at least 0');
      expect(errors({ pct: 101 })['source_filter.0.pct']).toBe('Percent must be less than or equal to 100');
      expect(errors({ pct: 0 })).toEqual({});
    });
  });

  describe('price and limits', () => {
    it('takes a price up to 5000, not negative, with 2 decimals at most', () => {
      expect(messages(campaignFormSchema, form({ price: 5000 }))).toEqual({});
      expect(messages(campaignFormSchema, form({ price: 12.34 }))).toEqual({});
      expect(messages(campaignFormSchema, form({ price: 5001 })).price).toBe(
        'Price must be less than or equal to 5000',
      );
      expect(messages(campaignFormSchema, form({ price: -1 })).price).toBe('Price must be at least 0');
      expect(messages(campaignFormSchema, form({ price: 1.234 })).price).toBe('Price must have at most 2 decimals');
      expect(messages(campaignFormSchema, form({ shared: 'yes', shared_price: 6000 })).shared_price).toBe(
        'Shared Price must be less than or equal to 5000',
      );
    });

    it('needs a shared price when leads are shared', () => {
      expect(messages(campaignFormSchema, form({ shared: 'yes', shared_price: '' })).shared_price).toBe(
        'Shared Price is required when leads are shared',
      );
      expect(messages(campaignFormSchema, form({ shared: 'yes', shared_price: 20 }))).toEqual({});
    });

    it('takes hourly, daily and weekly limits from 1, monthly from 0 to 1000; empty means no cap', () => {
      const max = (m: Partial<CampaignFormValues['max']>) =>
        messages(campaignFormSchema, form({ max: { hourly: '', daily: '', weekly: '', monthly: '', ...m } }));
      expect(max({})).toEqual({});
      expect(max({ hourly: 1, daily: 1, weekly: 1, monthly: 0 })).toEqual({});
      expect(max({ hourly: 0 })['max.hourly']).toBe('Hourly limit must be at least 1');
      expect(max({ daily: 0 })['max.daily']).toBe('Daily limit must be at least 1');
      expect(max({ weekly: 0 })['max.weekly']).toBe('Weekly limit must be at least 1');
      expect(max({ monthly: -1 })['max.monthly']).toBe('Monthly limit must be at least 0');
      expect(max({ monthly: 1001 })['max.monthly']).toBe('Monthly limit must be less than or equal to 1000');
      expect(max({ monthly: 1000 })).toEqual({});
      expect(max({ daily: 2.5 })['max.daily']).toBe('Daily limit must be a whole number');
    });
  });

  it('checks the hours only while Time Restrictions are on', () => {
    const time = { zone: 'America/New_York', weekday: { start: '7', end: '24' }, weekend: { start: '7', end: '19' } };
    expect(messages(campaignFormSchema, form({ timeOn: false, time }))).toEqual({});
    expect(messages(campaignFormSchema, form({ timeOn: true, time }))['time.weekday.end']).toBe(
      'Weekday end hour must be from 0 to 23',
    );
    expect(
      messages(
        campaignFormSchema,
        form({ timeOn: true, time: { ...time, zone: 'Europe/Paris', weekday: { start: '7', end: '19' } } }),
      )['time.zone'],
    ).toBe('Time zone must be Eastern, Central, Mountain or Pacific');
  });
});

describe('the API schemas', () => {
  it('creates with the defaults: exclusive, state location, no caps', () => {
    const parsed = campaignCreateSchema.parse(validApi);
    expect(parsed).toMatchObject({ exclusive: 1, location: 'state', services: [], tags: [], zips: [], max: {} });
    expect(parsed.fixed_id).toBeUndefined();
  });

  it('applies the location rules and the source row messages to an API create', () => {
    expect(messages(campaignCreateSchema, { ...validApi, location: 'zip' }).zips).toBe(
      'At least one zip code is required when location is set to zip',
    );
    expect(messages(campaignCreateSchema, { ...validApi, notify: { email: [] } }).notify).toBe(
      'At least one notification method must be configured',
    );
    expect(messages(campaignCreateSchema, { ...validApi, source_filter: [{ pct: 1.5 }] })).toEqual({
      'source_filter.0.source': 'Source is required',
      'source_filter.0.pct': 'Percent must be less than or equal to 100',
    });
  });

  it('reads time { delete: true } as no time restrictions', () => {
    expect(campaignCreateSchema.parse({ ...validApi, time: { delete: true } }).time).toBeNull();
    expect(campaignUpdateSchema.parse({ time: { delete: true } })).toEqual({ time: null });
  });

  it('takes status as flags or a word, exactly one', () => {
    expect(campaignUpdateSchema.parse({ status: { live: true, draft: false, pause: false } }).status).toEqual({
      value: 'live',
      reason: undefined,
    });
    expect(campaignUpdateSchema.parse({ status: 'paused' }).status?.value).toBe('pause');
    expect(messages(campaignUpdateSchema, { status: { live: true, pause: true } }).status).toBe(
      'Status must be exactly one of Live, Draft or Paused',
    );
  });

  it('refuses to move a campaign to another buyer', () => {
    expect(messages(campaignUpdateSchema, { buyer: 'buy_2' }).buyer).toBe('Buyer cannot be changed');
  });

  it('checks the Branded Id', () => {
    expect(messages(campaignUpdateSchema, { fixed_id: 'has space' }).fixed_id).toBe(
      'Branded Id may contain only letters, digits, underscore or hyphen',
    );
    expect(messages(campaignUpdateSchema, { fixed_id: '' }).fixed_id).toBe('Branded Id is required');
  });

  it('exposes the rules for merged updates', () => {
    expect(campaignRuleIssues({ location: 'zipset', zipset: null })).toEqual([
      { path: 'zipset', message: 'Zipset is required when location is set to zipset' },
    ]);
  });
});

describe('the payload rules (admin §7)', () => {
  it('sends exclusive as a number, pct / 100, hours as numbers, the chosen location only', () => {
    const payload = toCampaignPayload(
      form({
        shared: 'yes',
        shared_price: '18.5',
        location: 'zip',
        zips: ['75201'],
        state: ['TX'],
        zipset: 'zst_1',
        notes: '   ',
        timeOn: true,
        time: { zone: 'America/Chicago', weekday: { start: '8', end: '20' }, weekend: { start: '0', end: '0' } },
        source_filter: [
          { source: 'src_1', channel: '', price: '', shared_price: '', pct: 12.5 },
          { source: 'src_2', channel: 'facebook', price: 30, shared_price: 10, pct: '100' },
        ],
      }),
      { withSourceFilter: true },
    );
    expect(payload).toEqual({
      name: 'Roofing TX',
      buyer: 'buy_1',
      price: 45,
      exclusive: 0,
      shared_price: 18.5,
      status: { live: false, draft: true, pause: false },
      services: [],
      tags: [],
      location: 'zip',
      zips: ['75201'],
      max: { hourly: null, daily: null, weekly: null, monthly: null },
      budget: { daily: null, weekly: null, monthly: null },
      notify: { email: ['leads@acme.example'], sms: [], broadcast_webhooks: [] },
      source_filter: [
        { source: 'src_1', pct: 0.125 },
        { source: 'src_2', channel: 'facebook', price: 30, shared_price: 10, pct: 1 },
      ],
      field_filters: [],
      time: { zone: 'America/Chicago', weekday: { start: 8, end: 20 }, weekend: { start: 0, end: 0 } },
      require_named_consent: false,
      refuse_outside_calling_window: false,
    });
  });

  it('sends time as a delete flag when Time Restrictions are off, and no source restrictions for a buyer', () => {
    const payload = toCampaignPayload(
      form({ source_filter: [{ source: 's', channel: '', price: '', shared_price: '', pct: 5 }] }),
      {
        withSourceFilter: false,
      },
    );
    expect(payload.time).toEqual({ delete: true });
    expect(payload.exclusive).toBe(1);
    expect('source_filter' in payload).toBe(false);
    expect('shared_price' in payload).toBe(false);
    expect(payload.state).toEqual(['TX']);
  });

  it('round-trips a stored campaign and sends only what changed', () => {
    const stored: Campaign = {
      _id: 'cmp_1',
      name: 'Roofing TX',
      buyer: 'buy_1',
      buyer_name: 'Acme',
      fixed_id: 'ACME-1',
      price: 45,
      exclusive: 1,
      services: ['roofing'],
      tags: [],
      notes: 'Call first',
      location: 'state',
      state: ['TX'],
      zips: [],
      max: { hourly: null, daily: 10, weekly: null, monthly: null },
      budget: { daily: 500, weekly: null, monthly: null },
      notify: { email: ['a@acme.example'], sms: [], broadcast_webhooks: [] },
      time: DEFAULT_CAMPAIGN_TIME,
      source_filter: [{ source: 'src_1', pct: 0.125 }],
      status: { live: false, draft: true, pause: false, history: [] },
      ts: 1,
      tsdate: '1970-01-01T00:00:01.000Z',
      delivery_failure: null,
    };
    const before = campaignFormValues(stored);
    expect(before.source_filter[0]?.pct).toBe(12.5);
    expect(before.timeOn).toBe(true);
    const opts = { withSourceFilter: true };
    expect(campaignChanges(before, before, opts)).toEqual({});
    expect(campaignChanges(before, { ...before, status: 'live', state: ['TX', 'OK'] }, opts)).toEqual({
      status: { live: true, draft: false, pause: false },
      location: 'state',
      state: ['TX', 'OK'],
    });
    expect(campaignChanges(before, { ...before, location: 'zip', zips: ['75201'] }, opts)).toEqual({
      location: 'zip',
      zips: ['75201'],
    });
    expect(campaignChanges(before, { ...before, notes: '', timeOn: false }, opts)).toEqual({
      notes: null,
      time: { delete: true },
    });
    expect(campaignChanges(before, { ...before, fixed_id: ' ' }, opts)).toEqual({ fixed_id: '' });
    expect(campaignChanges(before, { ...before, max: { ...before.max, daily: '' } }, opts)).toEqual({
      max: { hourly: null, daily: null, weekly: null, monthly: null },
    });
  });
});

describe('campaign form values (mutation testing)', () => {
  const stored = (overrides: Partial<Campaign> = {}): Campaign => ({
    _id: 'cmp_2',
    name: 'Solar CA',
    buyer: 'buy_2',
    buyer_name: 'Sunny',
    fixed_id: 'SUNNY-1',
    price: 30,
    exclusive: 0,
    services: ['solar'],
    tags: ['west'],
    location: 'zipset',
    state: [],
    zips: [],
    max: { hourly: null, daily: 0, weekly: null, monthly: 200 },
    budget: { daily: null, weekly: 250.5, monthly: null },
    notify: { email: [], sms: ['+15555550100'], broadcast_webhooks: ['https://hooks.example/a'] },
    status: { live: false, draft: false, pause: true, history: [] },
    ts: 1,
    tsdate: '1970-01-01T00:00:01.000Z',
    delivery_failure: null,
    ...overrides,
  });

  it('starts a new campaign as an empty draft located by state, with no time restriction', () => {
    const { status, shared, location, timeOn, time, require_named_consent, refuse_outside_calling_window, ...others } =
      newCampaignFormValues();
    expect({ require_named_consent, refuse_outside_calling_window }).toEqual({
      require_named_consent: false,
      refuse_outside_calling_window: false,
    });
    expect({ status, shared, location, timeOn }).toEqual({
      status: 'draft',
      shared: 'no',
      location: 'state',
      timeOn: false,
    });
    // What the Time Restrictions toggle offers once switched on.
    expect(time).toEqual({
      zone: 'America/New_York',
      weekday: { start: '7', end: '19' },
      weekend: { start: '7', end: '19' },
    });
    // Every other field is empty, down to the caps and the notify lists.
    expect(filledPaths(others)).toEqual([]);
    expect(DEFAULT_CAMPAIGN_TIME).toEqual({
      zone: 'America/New_York',
      weekday: { start: 7, end: 19 },
      weekend: { start: 7, end: 19 },
    });
  });

  it('shows every empty stored value as an empty field, and a shared paused campaign as such', () => {
    expect(campaignFormValues(stored())).toEqual({
      name: 'Solar CA',
      buyer: 'buy_2',
      price: 30,
      status: 'pause',
      fixed_id: 'SUNNY-1',
      shared: 'yes',
      shared_price: '',
      services: ['solar'],
      tags: ['west'],
      notes: '',
      location: 'zipset',
      state: [],
      zips: [],
      zipset: '',
      max: { hourly: '', daily: 0, weekly: '', monthly: 200 },
      budget: { daily: '', weekly: 250.5, monthly: '' },
      notify: { email: [], sms: ['+15555550100'], webhook: '', broadcast_webhooks: ['https://hooks.example/a'] },
      source_filter: [],
      field_filters: [],
      timeOn: false,
      time: { zone: 'America/New_York', weekday: { start: '7', end: '19' }, weekend: { start: '7', end: '19' } },
      require_named_consent: false,
      refuse_outside_calling_window: false,
    });
  });

  it('shows stored values as they are', () => {
    const time = { zone: 'America/Chicago', weekday: { start: 8, end: 18 }, weekend: { start: 10, end: 14 } };
    const values = campaignFormValues(
      stored({
        exclusive: 1,
        shared_price: 12,
        notes: 'VIP',
        zipset: 'reg_1',
        notify: { email: [], sms: [], webhook: 'https://hooks.example/c', broadcast_webhooks: [] },
        source_filter: [{ source: 'src_1', shared_price: 7, pct: 1 }],
        status: { live: true, draft: false, pause: false, history: [] },
        time,
      }),
    );
    expect(values).toMatchObject({
      status: 'live',
      shared: 'no',
      shared_price: 12,
      notes: 'VIP',
      zipset: 'reg_1',
      notify: { webhook: 'https://hooks.example/c' },
      source_filter: [{ source: 'src_1', channel: '', price: '', shared_price: 7, pct: 100 }],
      timeOn: true,
      time: { zone: 'America/Chicago', weekday: { start: '8', end: '18' }, weekend: { start: '10', end: '14' } },
    });
    expect(campaignFormValues(stored({ status: { live: false, draft: true, pause: false, history: [] } })).status).toBe(
      'draft',
    );
  });

  it('sends trimmed text, the zipset of a zipset campaign, and a shared price only when shared and set', () => {
    const base = form({
      name: '  Roofing TX  ',
      location: 'zipset',
      zipset: 'reg_9',
      notify: { email: ['a@b.example'], sms: [], webhook: '  https://hooks.example/x  ', broadcast_webhooks: [] },
      source_filter: [{ source: 'src_1', channel: '  web  ', price: '', shared_price: '', pct: 50 }],
    });
    const payload = toCampaignPayload(base, { withSourceFilter: true });
    expect(payload.name).toBe('Roofing TX');
    expect(payload).toMatchObject({ location: 'zipset', zipset: 'reg_9' });
    expect(payload).not.toHaveProperty('state');
    expect(payload.notify.webhook).toBe('https://hooks.example/x');
    expect(payload.source_filter).toEqual([{ source: 'src_1', channel: 'web', pct: 0.5 }]);
    expect(toCampaignPayload({ ...base, zipset: '' }, { withSourceFilter: false })).not.toHaveProperty('zipset');
    expect(toCampaignPayload({ ...base, location: 'state' }, { withSourceFilter: false })).not.toHaveProperty('zipset');
    expect(
      toCampaignPayload({ ...base, shared: 'yes', shared_price: '' }, { withSourceFilter: false }),
    ).not.toHaveProperty('shared_price');
    expect(
      toCampaignPayload({ ...base, shared: 'no', shared_price: 9 }, { withSourceFilter: false }),
    ).not.toHaveProperty('shared_price');
    expect(toCampaignPayload({ ...base, shared: 'yes', shared_price: '9' }, { withSourceFilter: false })).toMatchObject(
      {
        exclusive: 0,
        shared_price: 9,
      },
    );
  });

  it('never sends the buyer in an edit, and leaves an off time restriction alone', () => {
    const before = form({ timeOn: false });
    const opts = { withSourceFilter: false };
    expect(campaignChanges(before, { ...before, buyer: 'buy_other' }, opts)).toEqual({});
    expect(campaignChanges(before, { ...before, name: 'Other' }, opts)).toEqual({ name: 'Other' });
    expect(campaignChanges(before, { ...before, timeOn: true }, opts)).toEqual({
      time: DEFAULT_CAMPAIGN_TIME,
    });
    const on = form({ timeOn: true });
    expect(campaignChanges(on, { ...on, timeOn: false }, opts)).toEqual({ time: { delete: true } });
    // Notes or a Branded Id that were empty and stay empty are not sent.
    expect(campaignChanges(before, { ...before, notes: '  ' }, opts)).toEqual({});
    expect(campaignChanges(before, { ...before, fixed_id: '  ' }, opts)).toEqual({});
  });
});

describe('campaign API field rules (mutation testing)', () => {
  const parse = (overrides: Record<string, unknown>) => campaignCreateSchema.safeParse({ ...validApi, ...overrides });
  const create = (overrides: Record<string, unknown>) => messages(campaignCreateSchema, { ...validApi, ...overrides });

  it('reads numeric text with spaces and decimals, and treats blank or null as missing', () => {
    expect(parse({ price: ' 45.55 ' }).data?.price).toBe(45.55);
    expect(parse({ price: '-0' }).data?.price).toBe(-0);
    expect(create({ price: '   ' })).toEqual({ price: 'Price is required' });
    expect(create({ price: null })).toEqual({ price: 'Price is required' });
    expect(create({ price: '4 5' })).toEqual({ price: 'Price must be a number' });
    expect(create({ exclusive: true })).toEqual({ exclusive: 'Exclusive must be a number' });
    expect(create({ exclusive: null })).toEqual({ exclusive: 'Exclusive must be a number' });
  });

  it('removes the hours on null or { delete: true }, and keeps real hours', () => {
    const time = { zone: 'America/Chicago', weekday: { start: 8, end: 18 }, weekend: { start: 10, end: 14 } };
    expect(parse({ time }).data?.time).toEqual(time);
    expect(parse({ time: { delete: true } }).data?.time).toBeNull();
    expect(parse({ time: null }).data?.time).toBeNull();
    expect(parse({ time: { delete: 'yes' } }).success).toBe(false);
    expect(parse({ time: 'none' }).success).toBe(false);
  });

  it('takes only http and https webhooks, trimmed, and an empty webhook as none', () => {
    const notify = (extra: Record<string, unknown>) => ({ email: ['a@b.example'], ...extra });
    expect(parse({ notify: notify({ webhook: '  https://hooks.example/x  ' }) }).data?.notify?.webhook).toBe(
      'https://hooks.example/x',
    );
    expect(parse({ notify: notify({ webhook: 'http://hooks.example/x' }) }).success).toBe(true);
    expect(create({ notify: notify({ webhook: 'ftp://hooks.example/x' }) })).toEqual({
      'notify.webhook': 'Webhook must be a valid URL',
    });
    const blank = parse({ notify: notify({ webhook: '  ' }) });
    expect(blank.success).toBe(true);
    expect(blank.data?.notify?.webhook).toBeUndefined();
  });

  it('reads a missing or null list as empty, and refuses a list that is not a list', () => {
    expect(parse({ notify: { email: ['a@b.example'], sms: null } }).data?.notify?.sms).toEqual([]);
    expect(parse({ notify: { email: ['a@b.example'] } }).data?.notify?.sms).toEqual([]);
    expect(parse({ notify: { email: ['a@b.example'], sms: '+15555550100' } }).success).toBe(false);
  });

  it('upper-cases, trims and dedupes states, and refuses ZIPs that are not exactly 5 digits', () => {
    expect(parse({ state: ['tx', ' TX ', 'ok'] }).data?.state).toEqual(['TX', 'OK']);
    expect(parse({ location: 'zip', zips: ['100011'] }).success).toBe(false);
    expect(parse({ location: 'zip', zips: ['x10001'] }).success).toBe(false);
    expect(parse({ location: 'zip', zips: [' 10001 '] }).data?.zips).toEqual(['10001']);
  });

  it('takes a status word in any case, or the flags', () => {
    const status = (value: unknown) => campaignUpdateSchema.safeParse({ status: value }).data?.status;
    expect(status('PAUSED')).toMatchObject({ value: 'pause' });
    expect(status('paused')).toMatchObject({ value: 'pause' });
    expect(status('Live')).toMatchObject({ value: 'live' });
    expect(status({ live: true })).toMatchObject({ value: 'live' });
  });

  it('needs a source on each source restriction row, and takes a null channel as none', () => {
    expect(parse({ source_filter: [{ source: 'src_1', channel: null, pct: 0.5 }] }).data?.source_filter).toEqual([
      { source: 'src_1', pct: 0.5 },
    ]);
    expect(parse({ source_filter: [{ source: null, pct: 0.5 }] }).success).toBe(false);
  });

  it('checks the cross-field rules on whatever fields there are', () => {
    expect(campaignRuleIssues({ location: 'zip' }).map((issue) => issue.path)).toEqual(['zips']);
    expect(campaignRuleIssues({ location: 'state', exclusive: 0, shared_price: 0 })).toEqual([
      { path: 'state', message: expect.any(String) },
    ]);
    expect(create({ exclusive: 0 })).toEqual({ shared_price: 'Shared Price is required when leads are shared' });
    expect(create({ exclusive: 0, shared_price: 10 })).toEqual({});
    expect(create({ location: 'zipset', zipset: 'reg_1' })).toEqual({});
    expect(create({ location: 'zipset' })).toHaveProperty('zipset');
    // A field that failed its own rule is not also called missing.
    expect(create({ state: 'TX' })).toEqual({ state: expect.not.stringMatching(/required/i) });
  });
});

describe('campaign form and edit rules (mutation testing)', () => {
  it('needs a shared price for shared leads even when the rule input has no shared price at all', () => {
    // The server's merged update passes null; another caller may leave the field out.
    const required = [{ path: 'shared_price', message: 'Shared Price is required when leads are shared' }];
    expect(campaignRuleIssues({ exclusive: 0 })).toEqual(required);
    expect(campaignRuleIssues({ exclusive: 0, shared_price: null })).toEqual(required);
    expect(campaignRuleIssues({ exclusive: 0, shared_price: 12 })).toEqual([]);
    expect(campaignRuleIssues({ exclusive: 1 })).toEqual([]);
  });

  it('checks the hours while Time Restrictions are on: valid hours pass, a blank hour is named', () => {
    expect(messages(campaignFormSchema, form({ timeOn: true }))).toEqual({});
    const time = { zone: 'America/Los_Angeles', weekday: { start: '0', end: '23' }, weekend: { start: '9', end: '9' } };
    expect(messages(campaignFormSchema, form({ timeOn: true, time }))).toEqual({});
    // Only the blank hour is reported, on the field the form shows it under.
    const blank = { ...time, weekday: { start: '', end: '23' } };
    expect(messages(campaignFormSchema, form({ timeOn: true, time: blank }))).toEqual({
      'time.weekday.start': 'Weekday start hour must be a number',
    });
  });

  it('sends a paused campaign as paused, and a pause made in an edit', () => {
    const paused = { live: false, draft: false, pause: true };
    expect(toCampaignPayload(form({ status: 'pause' }), { withSourceFilter: false }).status).toEqual(paused);
    const live = form({ status: 'live' });
    expect(campaignChanges(live, { ...live, status: 'pause' }, { withSourceFilter: false })).toEqual({
      status: paused,
    });
  });

  it('re-sends only the chosen location type with its values when the location changes', () => {
    // toStrictEqual: the other types' fields must be absent, not present as undefined.
    const opts = { withSourceFilter: false };
    const byZip = form({ location: 'zip', zips: ['75201'], state: [] });
    expect(campaignChanges(byZip, { ...byZip, zips: ['75201', '75202'] }, opts)).toStrictEqual({
      location: 'zip',
      zips: ['75201', '75202'],
    });
    expect(campaignChanges(byZip, { ...byZip, location: 'state', state: ['OK'] }, opts)).toStrictEqual({
      location: 'state',
      state: ['OK'],
    });
    expect(campaignChanges(byZip, { ...byZip, location: 'zipset', zipset: 'reg_1' }, opts)).toStrictEqual({
      location: 'zipset',
      zipset: 'reg_1',
    });
  });
});

describe('budget caps in dollars (issue 33)', () => {
  const budget = (b: Record<string, unknown>) => messages(campaignCreateSchema, { ...validApi, budget: b });
  it('takes empty budgets as none, 0 and cents, and names the field of a bad one', () => {
    expect(budget({})).toEqual({});
    expect(budget({ daily: '', weekly: null, monthly: 0 })).toEqual({});
    expect(budget({ daily: 500, weekly: '1234.56' })).toEqual({});
    expect(budget({ daily: 'lots' })).toEqual({ 'budget.daily': 'Daily budget must be a number' });
    expect(budget({ weekly: -0.01 })).toEqual({ 'budget.weekly': 'Weekly budget must be at least 0' });
    expect(budget({ monthly: 10.001 })).toEqual({ 'budget.monthly': 'Monthly budget must have at most 2 decimals' });
    expect(budget({ daily: 1_000_000.01 })).toEqual({
      'budget.daily': 'Daily budget must be less than or equal to 1000000',
    });
  });
});
