import { Button, Group, Select, Text } from '@mantine/core';
import { useEffect, useMemo, useState } from 'react';
import { Section } from '../../components/Section';
import { ApiRequestError } from '../../lib/api';
import { formatTimestamp } from '../../lib/format';
import { showSuccess } from '../../lib/notify';
import { useExchangeZone, useSaveExchangeZone } from './settings.api';

/** Every IANA zone the browser knows (UTC included), for the select. */
function zoneNames(current: string | undefined): string[] {
  const names = new Set(['UTC', ...Intl.supportedValuesOf('timeZone')]);
  if (current) names.add(current);
  return [...names].sort();
}

/**
 * The exchange's time zone (docs/decisions.md "One clock"): every time on every screen is shown in it
 * and labelled with it, and "Today", date ranges, bills and the dashboard count days in it.
 */
export function TimeZoneSection() {
  const stored = useExchangeZone();
  const save = useSaveExchangeZone();
  const [zone, setZone] = useState<string | null>(null);
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    if (stored.data) setZone(stored.data.zone);
  }, [stored.data]);
  const data = useMemo(() => zoneNames(stored.data?.zone), [stored.data?.zone]);

  const submit = async () => {
    if (!zone) return setError('Time zone is required');
    setError(undefined);
    try {
      const saved = await save.mutateAsync(zone);
      showSuccess(`The exchange's time zone is now ${saved.zone} (${saved.abbreviation}).`);
    } catch (failure) {
      setError(
        failure instanceof ApiRequestError ? (failure.errors.zone ?? failure.message) : 'The zone was not saved',
      );
    }
  };

  return (
    <Section
      title="Time Zone"
      description="Every time on every screen is shown in this zone, with its abbreviation; Today, date ranges, bills, the dashboard and the CSV follow it."
    >
      <Group align="flex-end" gap="sm">
        <Select
          label="Exchange time zone"
          searchable
          data={data}
          value={zone}
          onChange={setZone}
          error={error}
          w={320}
          disabled={stored.isPending}
        />
        <Button onClick={submit} loading={save.isPending} disabled={!zone || zone === stored.data?.zone}>
          Save Time Zone
        </Button>
      </Group>
      {stored.data && (
        <Text c="dimmed" fz="sm" mt="xs">
          Times on the screens read like this: {formatTimestamp(Math.floor(Date.now() / 1000))}
        </Text>
      )}
    </Section>
  );
}
