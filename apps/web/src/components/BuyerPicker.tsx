import { Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useMemo, useState } from 'react';
import { useController } from 'react-hook-form';
import { useBuyerOptions } from '../features/buyers/buyers.api';

/** A buyer as the picker offers it: its id and its name. */
export interface BuyerChoice {
  value: string;
  label: string;
}

export interface BuyerPickerProps {
  /** The form field holding the buyer's id; 'buyer' by default. */
  name?: string;
  /** A buyer chosen before (remembered, or the copied record's), shown before the search has loaded. */
  initial?: BuyerChoice | null;
  /** Called with each choice (null when cleared), e.g. to remember it for the next record. */
  onChoose?: (choice: BuyerChoice | null) => void;
}

/**
 * The admin's Buyer select of a new campaign or delivery: buyers are searched by name on the server
 * (there may be thousands), and the chosen one stays listed while the search text changes.
 */
export function BuyerPicker({ name = 'buyer', initial = null, onChoose }: BuyerPickerProps) {
  const { field, fieldState } = useController({ name });
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 300);
  const options = useBuyerOptions(debounced);
  const [chosen, setChosen] = useState<BuyerChoice | null>(initial);
  const data = useMemo(() => {
    const found = (options.data?.data ?? []).map((b) => ({ value: b._id, label: b.name }));
    return chosen && !found.some((o) => o.value === chosen.value) ? [chosen, ...found] : found;
  }, [options.data, chosen]);
  return (
    <Select
      label="Buyer"
      required
      placeholder="Search buyers by name"
      searchable
      data={data}
      searchValue={search}
      onSearchChange={setSearch}
      nothingFoundMessage={options.isFetching ? 'Loading...' : 'No buyers found'}
      ref={field.ref}
      name={field.name}
      value={field.value || null}
      onChange={(value, option) => {
        const next = option ? { value: option.value, label: option.label } : null;
        setChosen(next);
        onChoose?.(next);
        field.onChange(value ?? '');
      }}
      onBlur={field.onBlur}
      error={fieldState.error?.message}
    />
  );
}
