import type { ZipSuggestion } from '@leadex/domain';
import { describe, expect, it } from 'vitest';
import { addZips, countNew, describeSearch, removeZips, searchFor, validRadius, wantsSuggestions } from './region';

const zip: ZipSuggestion = {
  key: 'zip:10001',
  displayName: '10001 - New York, NY',
  name: '10001',
  state: 'NY',
  type: 'Zip',
};
const county: ZipSuggestion = {
  key: 'county:NY:Kings',
  displayName: 'Kings County, NY',
  name: 'Kings',
  state: 'NY',
  type: 'County',
};

describe('region builder logic', () => {
  it('suggests only from 2 characters', () => {
    expect(wantsSuggestions('')).toBe(false);
    expect(wantsSuggestions(' 1 ')).toBe(false);
    expect(wantsSuggestions('10')).toBe(true);
    expect(wantsSuggestions('ki')).toBe(true);
  });

  it('searches a chosen ZIP by radius, 5 miles by default, and a county by name and state', () => {
    expect(searchFor(zip)).toEqual({ type: 'radius', zip: '10001', radius: 5 });
    expect(searchFor(zip, 10)).toEqual({ type: 'radius', zip: '10001', radius: 10 });
    expect(searchFor(county)).toEqual({ type: 'county', county: 'Kings', state: 'NY' });
  });

  it('accepts a radius above 0 and up to 200 miles', () => {
    expect(validRadius(5)).toBe(5);
    expect(validRadius('12.5')).toBe(12.5);
    expect(validRadius(200)).toBe(200);
    for (const bad of ['', 0, -1, 201, 'x']) expect(validRadius(bad)).toBeNull();
  });

  it('describes a search', () => {
    expect(describeSearch({ type: 'radius', zip: '10001', radius: 10 }, 306)).toBe('306 ZIPs within 10 miles of 10001');
    expect(describeSearch({ type: 'radius', zip: '10001', radius: 1 }, 1)).toBe('1 ZIP within 1 mile of 10001');
    expect(describeSearch({ type: 'county', county: 'Kings', state: 'NY' }, 1234)).toBe(
      '1,234 ZIPs in Kings County, NY',
    );
  });

  it('adds ZIPs once each, in order, and removes them', () => {
    const region = addZips(['10001'], ['10018', '10001', '10011', '10018']);
    expect(region).toEqual(['10001', '10018', '10011']);
    expect(countNew(region, ['10001', '10036', '10037'])).toBe(2);
    expect(removeZips(region, ['10018'])).toEqual(['10001', '10011']);
  });
});
