import { describe, expect, it } from 'vitest';
import {
  checkFieldFilters,
  type FilterableField,
  fieldFilterAnswer,
  fieldFilterFormRow,
  fieldFilterListSchema,
  fieldFilterPayload,
  NEW_FIELD_FILTER,
} from './field-filters';

const FIELDS = new Map<string, FilterableField>(
  (
    [
      { key: 'bill', label: 'Monthly electric bill', type: 'money' },
      { key: 'age', label: 'Age', type: 'number' },
      { key: 'since', label: 'Moved in', type: 'date' },
      { key: 'dui', label: 'DUI', type: 'boolean' },
      { key: 'shade', label: 'Roof shade', type: 'choice', options: ['none', 'partial', 'full'] },
      { key: 'old', label: 'Old', type: 'text', removed: true },
    ] as FilterableField[]
  ).map((f) => [f.key, f]),
);

describe('checkFieldFilters', () => {
  it('stores money in cents and answers it in dollars', () => {
    const { issues, stored } = checkFieldFilters(
      [
        { field: 'bill', op: 'between', min: 100, max: 250.5 },
        { field: 'shade', op: 'none_of', values: ['FULL'] },
      ],
      FIELDS,
    );
    expect(issues).toEqual([]);
    expect(stored).toEqual([
      { field: 'bill', type: 'money', op: 'between', min: 10_000, max: 25_050 },
      { field: 'shade', type: 'choice', op: 'none_of', values: ['full'] },
    ]);
    expect(fieldFilterAnswer(stored[0] as (typeof stored)[0], 'Monthly electric bill')).toEqual({
      field: 'bill',
      op: 'between',
      type: 'money',
      label: 'Monthly electric bill',
      min: 100,
      max: 250.5,
    });
  });

  it('names the rule at fault', () => {
    const { issues, stored } = checkFieldFilters(
      [
        { field: 'bill', op: 'at_least', value: 100 },
        { field: 'roof_age', op: 'present' },
        { field: 'shade', op: 'at_least', value: 'none' },
        { field: 'age', op: 'between', min: 65, max: 18 },
        { field: 'bill', op: 'at_most', value: 10.005 },
        { field: 'shade', op: 'one_of', values: ['dappled'] },
        { field: 'since', op: 'equals', value: '2026-02-30' },
        { field: 'old', op: 'present' },
        { field: 'dui', op: 'equals' },
        { field: 'age', op: 'one_of', values: [] },
      ],
      FIELDS,
    );
    expect(stored).toHaveLength(1);
    expect(issues).toEqual([
      {
        path: 'field_filters.1.field',
        message: 'Filter 2 (roof_age): no service of the campaign has the field roof_age',
      },
      {
        path: 'field_filters.2.op',
        message:
          'Filter 3 (shade): "at least" is not an operator for a choice field (use equals, not equals, one of, none of, present, absent)',
      },
      { path: 'field_filters.3.min', message: 'Filter 4 (age): min must not be greater than max' },
      {
        path: 'field_filters.4.value',
        message: 'Filter 5 (bill): value must have at most 2 decimals (Monthly electric bill)',
      },
      {
        path: 'field_filters.5.values',
        message: 'Filter 6 (shade): each value must be one of the options of Roof shade: none, partial, full',
      },
      { path: 'field_filters.6.value', message: 'Filter 7 (since): value must be a date YYYY-MM-DD (Moved in)' },
      { path: 'field_filters.7.field', message: 'Filter 8 (old): no service of the campaign has the field old' },
      { path: 'field_filters.8.value', message: 'Filter 9 (dui): value is required for "equals"' },
      { path: 'field_filters.9.values', message: 'Filter 10 (age): values are required for "one of"' },
    ]);
  });

  it('accepts min equal to max, and refuses an unknown operator', () => {
    expect(checkFieldFilters([{ field: 'age', op: 'between', min: 18, max: 18 }], FIELDS).issues).toEqual([]);
    expect(fieldFilterListSchema.safeParse([{ field: 'age', op: 'greater' }]).success).toBe(false);
  });
});

describe('the form rows', () => {
  it('send only the inputs an operator reads, typed for the field', () => {
    const row = { ...NEW_FIELD_FILTER, field: 'bill', type: 'money', value: '100', min: '1', max: '2' };
    expect(fieldFilterPayload({ ...row, op: 'at_least' })).toEqual({ field: 'bill', op: 'at_least', value: 100 });
    expect(fieldFilterPayload({ ...row, op: 'between' })).toEqual({ field: 'bill', op: 'between', min: 1, max: 2 });
    expect(fieldFilterPayload({ ...row, op: 'present' })).toEqual({ field: 'bill', op: 'present' });
    expect(
      fieldFilterPayload({ ...NEW_FIELD_FILTER, field: 'dui', type: 'boolean', op: 'equals', value: 'false' }),
    ).toEqual({ field: 'dui', op: 'equals', value: false });
    expect(
      fieldFilterPayload({ ...NEW_FIELD_FILTER, field: 'shade', type: 'choice', op: 'none_of', values: ['full'] }),
    ).toEqual({ field: 'shade', op: 'none_of', values: ['full'] });
    expect(fieldFilterFormRow({ field: 'bill', type: 'money', op: 'at_least', value: 100 })).toEqual({
      ...NEW_FIELD_FILTER,
      field: 'bill',
      type: 'money',
      op: 'at_least',
      value: '100',
    });
  });
});
