import { describe, expect, it } from 'vitest';
import { valuesOf } from './choices';

describe('valuesOf', () => {
  it('lists the values in the order their labels are written (the order selectors show them)', () => {
    expect(valuesOf({ today: 'Today', last30d: 'Last 30 Days', mtd: 'This Month' })).toEqual([
      'today',
      'last30d',
      'mtd',
    ]);
  });
});
