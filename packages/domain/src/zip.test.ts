import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { messages } from './test-support';
import {
  countyBaseName,
  countyDisplayName,
  ZIP_MESSAGES,
  ZIP_RADIUS,
  zipSearchQuery,
  zipSuggestionsQuery,
  zipsetCreateSchema,
} from './zip';

describe('zip search query', () => {
  it('defaults the radius to 5 miles (admin §9)', () => {
    expect(ZIP_RADIUS.defaultMiles).toBe(5);
    expect(zipSearchQuery.parse({ type: 'radius', zip: '10001' })).toMatchObject({ zip: '10001', radius: 5 });
    expect(zipSearchQuery.parse({ type: 'radius', zip: '10001', radius: '' }).radius).toBe(5);
    expect(zipSearchQuery.parse({ type: 'radius', zip: '10001', radius: '12.5' }).radius).toBe(12.5);
  });

  it('needs a 5-digit zip for a radius search', () => {
    expect(messages(zipSearchQuery, { type: 'radius' }).zip).toBe(ZIP_MESSAGES.zipRequired);
    expect(messages(zipSearchQuery, { type: 'radius', zip: '1001' }).zip).toBe('Zip must be 5 digits');
    expect(messages(zipSearchQuery, { type: 'radius', zip: 'abcde' }).zip).toBe('Zip must be 5 digits');
  });

  it('keeps the radius above 0 and at most 200 miles', () => {
    expect(messages(zipSearchQuery, { type: 'radius', zip: '10001', radius: 'far' }).radius).toBe(
      'Radius must be a number',
    );
    expect(messages(zipSearchQuery, { type: 'radius', zip: '10001', radius: '0' }).radius).toBe(
      'Radius must be greater than 0',
    );
    expect(messages(zipSearchQuery, { type: 'radius', zip: '10001', radius: '201' }).radius).toBe(
      'Radius must be less than or equal to 200',
    );
  });

  it('needs a county and a state for a county search', () => {
    expect(messages(zipSearchQuery, { type: 'county' })).toEqual({
      county: 'County is required',
      state: 'State is required',
    });
    expect(messages(zipSearchQuery, { type: 'county', county: 'Kings', state: 'ZZ' }).state).toBe('Choose a US state');
    expect(zipSearchQuery.parse({ type: 'county', county: ' Kings County ', state: 'ny' })).toMatchObject({
      county: 'Kings County',
      state: 'NY',
    });
  });

  it('knows only radius and county searches', () => {
    expect(messages(zipSearchQuery, { type: 'city' }).type).toBe('Type must be radius or county');
  });
});

describe('zip suggestions query', () => {
  it('treats a missing q as empty', () => {
    expect(zipSuggestionsQuery.parse({}).q).toBe('');
  });
});

describe('zipset form', () => {
  const valid = { name: 'Manhattan 10 mi', zips: ['10001', '10011'] };

  it('accepts a region and keeps each ZIP once, in order', () => {
    expect(zipsetCreateSchema.parse({ ...valid, zips: ['10011', ' 10001', '10011', '10001 '] })).toEqual({
      name: 'Manhattan 10 mi',
      zips: ['10011', '10001'],
    });
    expect(zipsetCreateSchema.parse({ ...valid, description: '' }).description).toBeUndefined();
    expect(zipsetCreateSchema.parse({ ...valid, description: ' Midtown ' }).description).toBe('Midtown');
  });

  it('requires a name', () => {
    expect(messages(zipsetCreateSchema, { ...valid, name: '' }).name).toBe('Name is required');
    expect(messages(zipsetCreateSchema, { ...valid, name: undefined }).name).toBe('Name is required');
    expect(messages(zipsetCreateSchema, undefined)['(root)']).toBe('Name is required');
  });

  it('requires at least one five-digit ZIP', () => {
    expect(messages(zipsetCreateSchema, { ...valid, zips: [] }).zips).toBe('At least one zip code is required');
    expect(messages(zipsetCreateSchema, { name: 'x' }).zips).toBe('At least one zip code is required');
    expect(messages(zipsetCreateSchema, { ...valid, zips: ['10001', '1001'] }).zips).toBe('Zip codes must be 5 digits');
    expect(messages(zipsetCreateSchema, { ...valid, zips: [10001] }).zips).toBe('Zip codes must be 5 digits');
  });
});

describe('county names', () => {
  it('shows a county with its state', () => {
    expect(countyDisplayName('Kings', 'NY')).toBe('Kings County, NY');
    expect(countyDisplayName('Caddo Parish', 'LA')).toBe('Caddo Parish, LA');
    expect(countyDisplayName('Oglala Lakota County', 'SD')).toBe('Oglala Lakota County, SD');
    expect(countyDisplayName('Baltimore (city)', 'MD')).toBe('Baltimore (city), MD');
    expect(countyDisplayName('Anchorage Municipality', 'AK')).toBe('Anchorage Municipality, AK');
    expect(countyDisplayName('City and County of San Francisco', 'CA')).toBe('City and County of San Francisco, CA');
  });

  it('drops a trailing County or Parish', () => {
    expect(countyBaseName('Kings County')).toBe('Kings');
    expect(countyBaseName(' kings county ')).toBe('kings');
    expect(countyBaseName('Caddo Parish')).toBe('Caddo');
    expect(countyBaseName('Kings')).toBe('Kings');
  });
});

describe('ZIP rules edges (mutation testing)', () => {
  const issues = (schema: z.ZodType, input: unknown) => {
    const result = schema.safeParse(input);
    return result.success ? [] : result.error.issues.map((issue) => [issue.path.join('.'), issue.message]);
  };

  it('names the missing field of a radius or county search', () => {
    expect(issues(zipSearchQuery, { type: 'radius' })).toEqual([['zip', ZIP_MESSAGES.zipRequired]]);
    expect(issues(zipSearchQuery, { type: 'county' })).toEqual([
      ['county', ZIP_MESSAGES.countyRequired],
      ['state', ZIP_MESSAGES.stateRequired],
    ]);
  });

  it('takes a state with spaces around it in any case', () => {
    const parsed = zipSearchQuery.parse({ type: 'county', county: 'Kings', state: '  ny ' });
    expect(parsed.state).toBe('NY');
  });

  it('refuses a ZIP list entry with more than five digits on either side', () => {
    for (const bad of ['100011', '010001', 'x10001', '10001x']) {
      expect(zipsetCreateSchema.safeParse({ name: 'R', zips: [bad] }).success).toBe(false);
    }
    expect(zipsetCreateSchema.parse({ name: 'R', zips: [' 10001 '] }).zips).toEqual(['10001']);
  });

  it('trims county names before reading them', () => {
    expect(countyDisplayName('  Kings  ', 'NY')).toBe('Kings County, NY');
    expect(countyDisplayName('  Caddo Parish  ', 'LA')).toBe('Caddo Parish, LA');
    expect(countyBaseName('  Kings County  ')).toBe('Kings');
    expect(countyBaseName('Kings  County')).toBe('Kings');
    expect(countyBaseName('Kings County Line')).toBe('Kings County Line');
    expect(countyBaseName('  Kings  ')).toBe('Kings');
  });
});
