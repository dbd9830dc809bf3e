import { NO_BUYER } from '@leadex/domain';
import { Select, type StyleProp } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconUser } from '@tabler/icons-react';
import { type CSSProperties, useMemo, useState } from 'react';
import { useUrlFilter } from '../../components/DataTable';
import { useBuyerOptions } from '../buyers/buyers.api';
import { NO_BUYER_OPTION } from './leadColumns';
import { useFilteredBuyer } from './leads.api';

/**
 * The admin's Buyer filter of the leads list (admin §2: "including No Buyer"), kept in the URL param
 * `buyer` (a buyer's id, or `none`). Buyers are searched by name on the server, as there may be
 * thousands; a buyer named by a shared link is read by its id so its name shows.
 */
export function LeadBuyerFilter({ w }: { w?: StyleProp<CSSProperties['width']> }) {
  const [value, setValue] = useUrlFilter('buyer');
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 300);
  const found = useBuyerOptions(debounced);
  const chosenId = value && value !== NO_BUYER ? value : null;
  const listed = found.data?.data.some((b) => b._id === chosenId) ?? false;
  const chosen = useFilteredBuyer(chosenId, !listed && !found.isPending);
  const data = useMemo(() => {
    const options = (found.data?.data ?? []).map((b) => ({ value: b._id, label: b.name }));
    if (chosen.data && !options.some((o) => o.value === chosen.data._id))
      options.unshift({ value: chosen.data._id, label: chosen.data.name });
    return [NO_BUYER_OPTION, ...options];
  }, [found.data, chosen.data]);

  return (
    <Select
      aria-label="Filter by buyer"
      placeholder="Filter by buyer"
      leftSection={<IconUser size={16} />}
      data={data}
      value={value || null}
      onChange={(next) => setValue(next ?? '')}
      searchable
      clearable
      searchValue={search}
      onSearchChange={setSearch}
      // The server has searched already; every option it answered is shown.
      filter={({ options }) => options}
      nothingFoundMessage={found.isFetching ? 'Loading...' : 'No buyers found'}
      w={w}
    />
  );
}
