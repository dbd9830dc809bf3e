import { describe, expect, it } from 'vitest';
import {
  apiKeyCreateSchema,
  apiKeyHoldSchema,
  apiKeyStatus,
  sourceCreateSchema,
  sourceGetQuery,
  sourceListQuery,
  sourceStatus,
  sourceUpdateSchema,
  sourceUserSchema,
} from './source';
import { itRequiresContactFields, itRequiresNameAndEmail, messages } from './test-support';

const valid = { name: 'Apex Lead Partners', email: 'partners@apex.example', phone: '5125550190' };

describe('source form (admin spec §5)', () => {
  it('accepts the three required fields and fills the defaults', () => {
    expect(sourceCreateSchema.parse(valid)).toEqual({
      ...valid,
      tags: [],
      canPostLead: false,
      channels: [],
      campaign_services: [],
    });
  });

  it('reads a default service as its name, empty as none, and refuses a campaign id twice (issue 32)', () => {
    expect(sourceUpdateSchema.parse({ default_service: ' Solar ' })).toEqual({ default_service: 'solar' });
    expect(sourceUpdateSchema.parse({ default_service: '' })).toEqual({ default_service: null });
    expect(
      messages(sourceUpdateSchema, {
        campaign_services: [
          { campaign_id: '7', service: 'solar' },
          { campaign_id: '7', service: '' },
        ],
      }),
    ).toEqual({
      'campaign_services.1.service': 'Service is required',
      'campaign_services.1.campaign_id': 'Campaign ids must be unique',
    });
  });

  itRequiresContactFields(sourceCreateSchema, valid);

  it('names every missing field at once', () => {
    expect(messages(sourceCreateSchema, {})).toEqual({
      name: 'Name is required',
      email: 'Email is required',
      phone: 'Phone is required',
    });
  });

  it('checks the email address', () => {
    expect(messages(sourceCreateSchema, { ...valid, email: 'not-an-email' }).email).toBe('Invalid email address.');
  });

  it('takes optional contact, address, notes, tags, tier and Can Post Direct', () => {
    const parsed = sourceCreateSchema.parse({
      ...valid,
      contactName: 'Dana Whitfield',
      address: '',
      city: 'Austin',
      state: 'tx',
      zip: '78701',
      notes: 'Top partner',
      tags: ['solar'],
      tier: '2',
      canPostLead: '1',
    });
    expect(parsed).toMatchObject({ contactName: 'Dana Whitfield', state: 'TX', tier: 2, canPostLead: true });
    expect(parsed.address).toBeUndefined();
    expect(messages(sourceCreateSchema, { ...valid, tier: 'gold' }).tier).toBe('Tier must be a number');
    expect(messages(sourceCreateSchema, { ...valid, canPostLead: 'maybe' }).canPostLead).toBe(
      'Can Post Direct must be yes or no',
    );
  });
});

describe('channels (admin spec §5)', () => {
  const withChannel = (channel: object) => ({ ...valid, channels: [channel] });

  it('are optional', () => {
    expect(messages(sourceCreateSchema, { ...valid, channels: [] })).toEqual({});
  });

  it("need a name: 'Channel name is required'", () => {
    expect(messages(sourceCreateSchema, withChannel({ max_cost: 5 }))['channels.0.name']).toBe(
      'Channel name is required',
    );
    expect(messages(sourceCreateSchema, withChannel({ name: ' ', max_cost: 5 }))['channels.0.name']).toBe(
      'Channel name is required',
    );
  });

  it("need a max cost: 'Max cost is required'", () => {
    for (const max_cost of [undefined, null, '']) {
      expect(messages(sourceCreateSchema, withChannel({ name: 'facebook', max_cost }))['channels.0.max_cost']).toBe(
        'Max cost is required',
      );
    }
  });

  it("need a number: 'Max cost must be a number'", () => {
    expect(
      messages(sourceCreateSchema, withChannel({ name: 'facebook', max_cost: 'ten' }))['channels.0.max_cost'],
    ).toBe('Max cost must be a number');
  });

  it('take 0 to 5000 with at most 2 decimals', () => {
    const cost = (max_cost: unknown) =>
      messages(sourceCreateSchema, withChannel({ name: 'facebook', max_cost }))['channels.0.max_cost'];
    expect(cost(-1)).toBe('Max cost must be at least 0');
    expect(cost(5000.01)).toBe('Max cost must be less than or equal to 5000');
    expect(cost(12.345)).toBe('Max cost must have at most 2 decimals');
    expect(cost(0)).toBeUndefined();
    expect(cost(5000)).toBeUndefined();
    expect(cost('12.34')).toBeUndefined();
    expect(sourceCreateSchema.parse(withChannel({ name: 'google', max_cost: '19.99' })).channels).toEqual([
      { name: 'google', max_cost: 19.99 },
    ]);
  });

  it('have unique names', () => {
    const input = {
      ...valid,
      channels: [
        { name: 'facebook', max_cost: 5 },
        { name: 'Facebook', max_cost: 6 },
      ],
    };
    expect(messages(sourceCreateSchema, input)).toEqual({ 'channels.1.name': 'Channel names must be unique' });
  });
});

describe('lead cost (max_cost, admin spec §5)', () => {
  const cost = (max_cost: unknown) => messages(sourceCreateSchema, { ...valid, max_cost }).max_cost;

  it('is optional; empty means an internal source', () => {
    expect(sourceCreateSchema.parse(valid).max_cost).toBeUndefined();
    expect(sourceCreateSchema.parse({ ...valid, max_cost: '' }).max_cost).toBeNull();
    expect(sourceUpdateSchema.parse({ max_cost: null }).max_cost).toBeNull();
  });

  it('takes 0 to 5000 with at most 2 decimals, no negatives', () => {
    expect(cost(-0.01)).toBe('Lead cost must be at least 0');
    expect(cost(5001)).toBe('Lead cost must be less than or equal to 5000');
    expect(cost(1.005)).toBe('Lead cost must have at most 2 decimals');
    expect(cost('abc')).toBe('Lead cost must be a number');
    expect(cost(18.5)).toBeUndefined();
  });
});

describe('source update', () => {
  it('takes only the changed fields, with the same messages', () => {
    expect(sourceUpdateSchema.parse({ city: 'Dallas' })).toEqual({ city: 'Dallas' });
    expect(messages(sourceUpdateSchema, { name: '' })).toEqual({ name: 'Name is required' });
    expect(messages(sourceUpdateSchema, { channels: [{ name: '', max_cost: '' }] })).toEqual({
      'channels.0.name': 'Channel name is required',
      'channels.0.max_cost': 'Max cost is required',
    });
  });
});

describe('Source User Details modal (admin spec §5)', () => {
  itRequiresNameAndEmail(sourceUserSchema, { name: 'Dana', email: 'dana@apex.example' });
});

describe('API key requests', () => {
  it('creates with no body, or a name, Can Post Lead and an expiration', () => {
    expect(apiKeyCreateSchema.parse(undefined)).toBeUndefined();
    expect(apiKeyCreateSchema.parse({ name: 'Staging', canPostLead: true, expiration: 1893456000 })).toEqual({
      name: 'Staging',
      canPostLead: true,
      expiration: 1893456000,
    });
    expect(apiKeyCreateSchema.parse({ expiration: '2030-01-01T00:00:00Z' })?.expiration).toBe(1893456000);
    expect(messages(apiKeyCreateSchema, { expiration: 'soon' }).expiration).toBe('Expiration must be a date');
  });

  it('holds a named key', () => {
    expect(messages(apiKeyHoldSchema, {})).toEqual({ name: 'API key name is required' });
  });
});

describe('list and detail queries', () => {
  it('pages sources by 25', () => {
    expect(sourceListQuery.parse({})).toMatchObject({ page: 1, pageSize: 25 });
    expect(sourceListQuery.parse({ pageSize: '200' }).pageSize).toBe(200);
  });

  it('reads include twice or comma separated', () => {
    expect(sourceGetQuery.parse({ include: ['users', 'leads'] }).include).toEqual(['users', 'leads']);
    expect(sourceGetQuery.parse({ include: 'users,leads' }).include).toEqual(['users', 'leads']);
    expect(sourceGetQuery.parse({}).include).toEqual([]);
  });

  it('refuses an include it does not know, naming the field', () => {
    const result = sourceGetQuery.safeParse({ include: 'users,secrets' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]).toMatchObject({ path: ['include'], message: 'include takes users and leads' });
  });
});

describe('sourceStatus (admin spec §4)', () => {
  it('is On Hold when held, whatever was sent', () => {
    expect(sourceStatus({ hold: { ts: 10 }, lastLeadSent: 5 })).toBe('On Hold');
  });

  it('is Active when a lead or a ping was sent', () => {
    expect(sourceStatus({ lastLeadSent: 5 })).toBe('Active');
    expect(sourceStatus({ lastPingSent: 5, lastTestPingSent: 6 })).toBe('Active');
  });

  it('is Test Sent when only a test lead or test ping was sent', () => {
    expect(sourceStatus({ lastTestLeadSent: 5 })).toBe('Test Sent');
    expect(sourceStatus({ lastTestPingSent: 5 })).toBe('Test Sent');
  });

  it('is No Activity otherwise', () => {
    expect(sourceStatus({})).toBe('No Activity');
    expect(sourceStatus({ hold: null, lastLeadSent: null })).toBe('No Activity');
  });
});

describe('apiKeyStatus (admin spec §4)', () => {
  const now = 1_800_000_000;
  it('is On hold when it has a hold timestamp', () => {
    expect(apiKeyStatus({ hold: now - 10 }, now)).toBe('On hold');
    expect(apiKeyStatus({ hold: now - 10, exp: now - 5 }, now)).toBe('On hold');
  });

  it('is Expired once its expiration has passed', () => {
    expect(apiKeyStatus({ exp: now }, now)).toBe('Expired');
    expect(apiKeyStatus({ exp: now - 1 }, now)).toBe('Expired');
  });

  it('is Active otherwise', () => {
    expect(apiKeyStatus({}, now)).toBe('Active');
    expect(apiKeyStatus({ exp: now + 1 }, now)).toBe('Active');
  });
});
