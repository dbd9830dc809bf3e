import { LEAD_DATE_RANGE_LABELS, LEAD_DATE_RANGES, type LeadDateRange } from '@leadex/domain';
import { Group, SegmentedControl, Select } from '@mantine/core';
import { DatePickerInput, type DatesRangeValue } from '@mantine/dates';
import { useMediaQuery } from '@mantine/hooks';
import { IconCalendar } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { NARROW } from '../../components/DataTable';
import { type SearchParamChanges, useWriteSearchParams } from '../../lib/searchParams';
import { DEFAULT_DATE_RANGE, dateRangeOf, isoDateOf, todayInLeadsZone } from './leadRange';

const RANGE_OPTIONS = LEAD_DATE_RANGES.map((value) => ({ value, label: LEAD_DATE_RANGE_LABELS[value] }));

/**
 * The leads lists' date range (admin §2, portals §2): Today, Last 30 Days, This Month, This Year, or
 * Custom with a date range picker (MM/DD/YYYY) enabled only for Custom. Kept in the URL as `dateq`
 * (absent for today) and, for Custom, `dateRangeStart` and `dateRangeEnd` (ISO dates). Each choice is
 * a step of the history, so Back returns to the range before.
 */
export function LeadDateRangeFilter() {
  const [params] = useSearchParams();
  const dateq = dateRangeOf(params.get('dateq'));
  const start = isoDateOf(params.get('dateRangeStart')) ?? null;
  const end = isoDateOf(params.get('dateRangeEnd')) ?? null;
  // A half-chosen range (a first day clicked) until its second day is picked; else the URL's.
  const [draft, setDraft] = useState<DatesRangeValue<string> | null>(null);
  useEffect(() => {
    if (start || end) setDraft(null);
  }, [start, end]);

  const writeParams = useWriteSearchParams();
  // The page may not exist in the new range.
  const write = (changes: SearchParamChanges) => writeParams({ ...changes, page: null });

  const chooseRange = (value: string) => {
    const range = value as LeadDateRange;
    if (range === 'range') {
      // Custom starts from today's day, so the list always has a range to show; the picker changes it.
      const today = todayInLeadsZone(new Date());
      write({ dateq: range, dateRangeStart: start ?? today, dateRangeEnd: end ?? start ?? today });
    } else {
      write({ dateq: range === DEFAULT_DATE_RANGE ? null : range, dateRangeStart: null, dateRangeEnd: null });
    }
  };

  const custom = dateq === 'range';
  // A phone has no room for the five choices side by side: they become a select.
  const narrow = useMediaQuery(NARROW) ?? false;
  return (
    <Group gap="sm" wrap="wrap" align="center">
      {narrow ? (
        <Select
          aria-label="Date range"
          data={RANGE_OPTIONS}
          value={dateq}
          onChange={(value) => value && chooseRange(value)}
          allowDeselect={false}
          w="100%"
        />
      ) : (
        <SegmentedControl aria-label="Date range" data={RANGE_OPTIONS} value={dateq} onChange={chooseRange} />
      )}
      <DatePickerInput
        type="range"
        aria-label="Custom date range"
        placeholder={custom ? 'Pick dates' : 'Choose Custom to pick dates'}
        valueFormat="MM/DD/YYYY"
        leftSection={<IconCalendar size={16} />}
        value={custom ? (draft ?? [start, end]) : [null, null]}
        onChange={(value) => {
          const [from, to] = value;
          if (from && to) {
            setDraft(null);
            write({ dateRangeStart: from, dateRangeEnd: to });
          } else setDraft(value);
        }}
        allowSingleDateInRange
        disabled={!custom}
        miw={240}
        w={{ base: '100%', xs: 'auto' }}
      />
    </Group>
  );
}
