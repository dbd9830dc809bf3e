import { describe, expect, it } from 'vitest';
import { withChanges } from './searchParams';

describe('withChanges', () => {
  it('sets the parameters given a value and keeps the others', () => {
    expect(withChanges('?name=summit&service=roofing', { zip: '10001', name: 'apex' }).toString()).toBe(
      'name=apex&service=roofing&zip=10001',
    );
  });

  it('removes a parameter given an empty value, null or undefined', () => {
    const next = withChanges('?name=summit&service=roofing&page=3&zip=10001', {
      name: '',
      page: null,
      zip: undefined,
    });
    expect(next.toString()).toBe('service=roofing');
  });

  it('repeats a parameter given a list, in its order, empty items left out; an empty list removes it', () => {
    const next = withChanges('?field=old:1&service=solar', { field: ['roof_shade:none', '', 'credit_rating:good'] });
    expect(next.getAll('field')).toEqual(['roof_shade:none', 'credit_rating:good']);
    expect(next.get('service')).toBe('solar');
    expect(withChanges(`?${next}`, { field: [] }).toString()).toBe('service=solar');
  });

  it('starts from the query it is given, so a second write keeps the first', () => {
    const first = withChanges('', { service: 'roofing' });
    expect(withChanges(`?${first}`, { name: 'summit' }).toString()).toBe('service=roofing&name=summit');
  });
});
