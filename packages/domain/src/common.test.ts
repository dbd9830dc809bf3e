import { describe, expect, it } from 'vitest';
import { campaignSourceFilterSchema, MAX_CAMPAIGN_PRICE } from './campaign';
import { dollarMessages, repeatedIndexes, SPEC_DOLLAR_MESSAGES, wholeNumber } from './common';
import { MAX_SOURCE_COST, sourceChannelSchema } from './source';

/** The first message a schema answers for an input. */
function firstMessage(
  schema: { safeParse(v: unknown): { success: boolean; error?: { issues: { message: string }[] } } },
  v: unknown,
) {
  return schema.safeParse(v).error?.issues[0]?.message;
}

describe("the specs' words for amounts (admin-back-office.md)", () => {
  it.each([
    ['Price', MAX_CAMPAIGN_PRICE],
    ['Shared Price', MAX_CAMPAIGN_PRICE],
    ['Max cost', MAX_SOURCE_COST],
  ] as const)('%s: the spelled-out words are what the schemas compose', (label, max) => {
    expect(dollarMessages(label, max)).toMatchObject(SPEC_DOLLAR_MESSAGES[label]);
  });

  it('a source filter row answers them for its price and shared price, at both sides of 0 and 5000', () => {
    const row = (price: unknown, shared_price?: unknown) => ({ source: 'src_1', price, shared_price, pct: 1 });
    expect(campaignSourceFilterSchema.safeParse(row(0, 0)).success).toBe(true);
    expect(campaignSourceFilterSchema.safeParse(row(5000, 5000)).success).toBe(true);
    expect(firstMessage(campaignSourceFilterSchema, row(-0.01))).toBe(SPEC_DOLLAR_MESSAGES.Price.min);
    expect(firstMessage(campaignSourceFilterSchema, row(5000.01))).toBe(SPEC_DOLLAR_MESSAGES.Price.max);
    expect(firstMessage(campaignSourceFilterSchema, row('ten'))).toBe(SPEC_DOLLAR_MESSAGES.Price.number);
    expect(firstMessage(campaignSourceFilterSchema, row(1, -0.01))).toBe(SPEC_DOLLAR_MESSAGES['Shared Price'].min);
    expect(firstMessage(campaignSourceFilterSchema, row(1, 5000.01))).toBe(SPEC_DOLLAR_MESSAGES['Shared Price'].max);
    expect(firstMessage(campaignSourceFilterSchema, row(1, 'ten'))).toBe(SPEC_DOLLAR_MESSAGES['Shared Price'].number);
  });

  it("a source channel's max cost is required and a number", () => {
    expect(sourceChannelSchema.safeParse({ name: 'Web', max_cost: 12.5 }).success).toBe(true);
    expect(firstMessage(sourceChannelSchema, { name: 'Web' })).toBe(SPEC_DOLLAR_MESSAGES['Max cost'].required);
    expect(firstMessage(sourceChannelSchema, { name: 'Web', max_cost: 'much' })).toBe(
      SPEC_DOLLAR_MESSAGES['Max cost'].number,
    );
  });
});

describe('wholeNumber', () => {
  const days = wholeNumber('Days', 1, 30);
  it.each([
    [1, undefined],
    [30, undefined],
    [0, 'Days must be at least 1'],
    [31, 'Days must be at most 30'],
    [1.5, 'Days must be a whole number'],
    ['7', 'Days must be a number'],
  ] as const)('takes %j or says: %s', (input, message) => {
    expect(firstMessage(days, input)).toBe(message);
  });

  it('reads numeric text when it coerces, and says more about the minimum when asked', () => {
    const years = wholeNumber('Years', 5, 50, { coerce: true, atLeast: 'Years must be at least 5 (the rule)' });
    expect(years.parse('7')).toBe(7);
    expect(firstMessage(years, '4')).toBe('Years must be at least 5 (the rule)');
    expect(firstMessage(years, 'seven')).toBe('Years must be a number');
  });
});

describe('repeatedIndexes', () => {
  it('names every repeat after the first, by its key', () => {
    expect(repeatedIndexes(['a', 'B', 'b', 'a', 'c', 'A'], (s) => s.toLowerCase())).toEqual([2, 3, 5]);
    expect(repeatedIndexes([], String)).toEqual([]);
  });
});
