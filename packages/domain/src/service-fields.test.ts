import { describe, expect, it } from 'vitest';
import { readFieldValue, type ServiceField, serviceFieldListSchema, serviceFieldSchema } from './service-fields';

const field = (type: ServiceField['type'], options: string[] = []) => ({ type, options });
const value = (type: ServiceField['type'], raw: unknown, options: string[] = []) =>
  readFieldValue(field(type, options), raw);

describe('readFieldValue: each type at both sides of its boundaries', () => {
  it('text: kept trimmed up to 1000 characters, flagged past them', () => {
    expect(value('text', '  State Farm ')).toEqual({ value: 'State Farm' });
    expect(value('text', 'x'.repeat(1000))).toEqual({ value: 'x'.repeat(1000) });
    expect(value('text', 'x'.repeat(1001))).toEqual({ flag: 'it is longer than 1000 characters' });
    expect(value('text', 42)).toEqual({ value: '42' });
  });

  it('choice: matched case-insensitively to its option’s spelling, anything else flagged', () => {
    const options = ['None', 'Partial', 'Heavy'];
    expect(value('choice', 'partial', options)).toEqual({ value: 'Partial' });
    expect(value('choice', ' HEAVY ', options)).toEqual({ value: 'Heavy' });
    expect(value('choice', 'Some', options)).toEqual({ flag: 'it is not one of: None, Partial, Heavy' });
  });

  it('number: numbers and numerals with thousands separators; words flagged', () => {
    expect(value('number', 0)).toEqual({ value: 0 });
    expect(value('number', '1,200')).toEqual({ value: 1200 });
    expect(value('number', '-3.5')).toEqual({ value: -3.5 });
    expect(value('number', '12 years')).toEqual({ flag: 'it is not a number' });
    expect(value('number', Number.NaN)).toEqual({ flag: 'it is not a number' });
    expect(value('number', '1,20')).toEqual({ flag: 'it is not a number' });
  });

  it('money: dollars in integer cents, 0 to $100,000,000, two decimals at most', () => {
    expect(value('money', '$1,200.50')).toEqual({ value: 120050 });
    expect(value('money', 1200.5)).toEqual({ value: 120050 });
    expect(value('money', '0')).toEqual({ value: 0 });
    expect(value('money', '150 USD')).toEqual({ value: 15000 });
    expect(value('money', 0.29)).toEqual({ value: 29 });
    expect(value('money', '100000000')).toEqual({ value: 10_000_000_000 });
    expect(value('money', '100000000.01')).toEqual({ flag: 'an amount is at most $100,000,000' });
    expect(value('money', '-0.01')).toEqual({ flag: 'an amount cannot be negative' });
    expect(value('money', '$-5')).toEqual({ flag: 'an amount cannot be negative' });
    expect(value('money', '1.005')).toEqual({ flag: 'an amount has at most 2 decimals (cents)' });
    expect(value('money', 'a lot')).toEqual({ flag: 'it is not an amount in dollars' });
  });

  it('boolean: the lenient yes and no words; anything else flagged', () => {
    for (const yes of [true, 'Y', 'yes', '1', 1, 'TRUE']) expect(value('boolean', yes)).toEqual({ value: true });
    for (const no of [false, 'N', 'no', '0', 0, 'false']) expect(value('boolean', no)).toEqual({ value: false });
    expect(value('boolean', 'maybe')).toEqual({ flag: 'it is neither a yes nor a no' });
    expect(value('boolean', 2)).toEqual({ flag: 'it is neither a yes nor a no' });
  });

  it('date: YYYY-MM-DD or MM/DD/YYYY of a real day', () => {
    expect(value('date', '2024-02-29')).toEqual({ value: '2024-02-29' });
    expect(value('date', '02/28/2023')).toEqual({ value: '2023-02-28' });
    expect(value('date', '2023-02-29')).toMatchObject({ flag: expect.any(String) });
    expect(value('date', '13/01/2023')).toMatchObject({ flag: expect.any(String) });
    expect(value('date', 20240101)).toMatchObject({ flag: expect.any(String) });
  });

  it.each([
    ['2000-02-29', '2000-02-29'],
    ['1900-02-28', '1900-02-28'],
    ['1900-02-29', null],
    ['2100-02-29', null],
    ['2028-2-29', '2028-02-29'],
    ['2027-04-30', '2027-04-30'],
    ['2027-04-31', null],
    ['2027-12-31', '2027-12-31'],
    ['2027-12-32', null],
    ['2027-01-01T10:00:00Z', '2027-01-01'],
    ['1/1/2027', '2027-01-01'],
    ['2027-00-10', null],
    ['2027-13-10', null],
    ['2027-06-00', null],
    ['1899-12-31', null],
    ['1900-01-01', '1900-01-01'],
    ['2200-12-31', '2200-12-31'],
    ['2201-01-01', null],
  ])('date %s reads as %s (leap years, month ends, the range)', (sent, stored) => {
    expect(value('date', sent)).toEqual(stored === null ? { flag: expect.any(String) } : { value: stored });
  });

  it('phone: 10 US digits; 9 or a non-NANP number flagged', () => {
    expect(value('phone', '(512) 789-1111')).toEqual({ value: '5127891111' });
    expect(value('phone', '+1 512 789 1111')).toEqual({ value: '5127891111' });
    expect(value('phone', '512789111')).toEqual({ flag: 'a US phone number has 10 digits' });
    expect(value('phone', '1127891111')).toEqual({ flag: 'it is not a valid US phone number' });
  });

  it('email: lower-cased; not an address flagged', () => {
    expect(value('email', 'Jo@Example.COM')).toEqual({ value: 'jo@example.com' });
    expect(value('email', 'jo@')).toEqual({ flag: 'it is not an email address' });
  });

  it('zip: 5 digits (ZIP+4 cut, a number padded); 4 digits flagged', () => {
    expect(value('zip', '78701-1234')).toEqual({ value: '78701' });
    expect(value('zip', 2134)).toEqual({ value: '02134' });
    expect(value('zip', '7870')).toEqual({ flag: 'it is not a 5-digit ZIP code' });
  });

  it('an object or a list is never a value', () => {
    expect(value('text', { a: 1 })).toEqual({ flag: 'it is not a single value' });
  });
});

describe('serviceFieldSchema', () => {
  const ok = { key: 'roof_age', label: 'Age of roof', type: 'number' };

  it('fills the defaults', () => {
    expect(serviceFieldSchema.parse(ok)).toEqual({
      ...ok,
      options: [],
      required: false,
      stage: 'post',
      personal: false,
      aliases: [],
      help: '',
      removed: false,
    });
  });

  it('refuses a key that is not snake_case or is the lead’s own field or alias, naming it', () => {
    for (const key of ['Roof_age', '1st', 'roof-age', 'zip', 'phone', 'zip_code', 'Primary_Phone', 'fields'])
      expect(serviceFieldSchema.safeParse({ ...ok, key }).success, key).toBe(false);
    expect(serviceFieldSchema.safeParse({ ...ok, key: 'a'.repeat(40) }).success).toBe(true);
    expect(serviceFieldSchema.safeParse({ ...ok, key: 'a'.repeat(41) }).success).toBe(false);
  });

  it('a choice needs options, only a choice has them, a personal field is never at the ping', () => {
    const issue = (input: object) => serviceFieldSchema.safeParse({ ...ok, ...input }).error?.issues[0]?.message;
    expect(issue({ type: 'choice' })).toBe('Age of roof: a choice needs at least one option');
    expect(issue({ options: ['a'] })).toBe('Age of roof: only a choice has options');
    expect(issue({ type: 'choice', options: ['A', 'a'] })).toBe('Age of roof: option “a” is listed twice');
    expect(issue({ personal: true, stage: 'ping' })).toBe(
      'Age of roof: a personal field never travels in a ping; its stage is post',
    );
    expect(issue({ personal: true, stage: 'post' })).toBeUndefined();
  });

  it('a list refuses a key or alias used twice, naming the field', () => {
    const res = serviceFieldListSchema.safeParse({
      fields: [
        { ...ok, aliases: ['RoofAge'] },
        { key: 'roof_type', label: 'Roof type', type: 'text', aliases: ['roofage'] },
      ],
    });
    expect(res.error?.issues[0]).toMatchObject({
      path: ['fields', 1, 'aliases'],
      message: 'Roof type: “roofage” is already used by roof_age',
    });
  });
});
