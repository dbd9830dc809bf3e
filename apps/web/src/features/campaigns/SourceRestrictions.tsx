import type { CampaignFormValues } from '@leadex/domain';
import { Grid } from '@mantine/core';
import { type ReactNode, useEffect, useMemo } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { SelectField } from '../../components/FormFields';
import { CampaignRowsSection } from './CampaignRowsSection';
import { NEW_SOURCE_FILTER } from './campaignForm';
import { type SourceOption, useSourceOptions } from './campaigns.api';
import { TypedNumberField } from './TypedNumberField';

/**
 * Source Restrictions (admin only): rows of source, channel, price, shared price and percent.
 * With rows, only the listed sources (and channels) sell to the campaign, at the row's prices,
 * and only the row's percent of their leads.
 */
export function SourceRestrictions() {
  const sources = useSourceOptions(true);
  const list = sources.data?.data ?? [];

  return (
    <CampaignRowsSection
      name="source_filter"
      title="Source Restrictions"
      description="Empty: every source may sell to the campaign. With rows, only those sources (and channels) may, at the row's prices, for the row's share of their leads."
      newRow={NEW_SOURCE_FILTER}
      item="restriction"
      addLabel="Add Restriction"
      row={(index, removeButton) => <FilterRow index={index} sources={list} removeButton={removeButton} />}
    />
  );
}

function FilterRow({
  index,
  sources,
  removeButton,
}: {
  index: number;
  sources: SourceOption[];
  removeButton: ReactNode;
}) {
  const { getValues, setValue } = useFormContext<CampaignFormValues>();
  const sourceId = useWatch<CampaignFormValues, `source_filter.${number}.source`>({
    name: `source_filter.${index}.source`,
  });
  const sourceOptions = useMemo(() => sources.map((s) => ({ value: s._id, label: s.name })), [sources]);
  const channelOptions = useMemo(
    () => (sources.find((s) => s._id === sourceId)?.channels ?? []).map((c) => c.name),
    [sources, sourceId],
  );
  const at = (field: string) => `source_filter.${index}.${field}`;

  // A channel belongs to one source: choosing another source clears a channel it does not have.
  useEffect(() => {
    const source = sources.find((s) => s._id === sourceId);
    const channel = getValues(`source_filter.${index}.channel`);
    if (source && channel && !source.channels.some((c) => c.name === channel))
      setValue(`source_filter.${index}.channel`, '', { shouldDirty: true });
  }, [sources, sourceId, index, getValues, setValue]);

  return (
    <Grid gap="sm" align="flex-start">
      <Grid.Col span={{ base: 12, md: 3 }}>
        <SelectField
          name={at('source')}
          label="Source"
          required
          placeholder="Choose a source"
          data={sourceOptions}
          searchable
          allowDeselect={false}
        />
      </Grid.Col>
      <Grid.Col span={{ base: 12, sm: 6, md: 2 }}>
        <SelectField
          name={at('channel')}
          label="Channel"
          placeholder="Any channel"
          data={channelOptions}
          clearable
          nothingFoundMessage="This source has no channels"
        />
      </Grid.Col>
      <Grid.Col span={{ base: 6, sm: 3, md: 2 }}>
        <TypedNumberField name={at('price')} label="Price" money placeholder="Campaign's" />
      </Grid.Col>
      <Grid.Col span={{ base: 6, sm: 3, md: 2 }}>
        <TypedNumberField name={at('shared_price')} label="Shared Price" money placeholder="Campaign's" />
      </Grid.Col>
      <Grid.Col span={{ base: 8, md: 2 }}>
        <TypedNumberField name={at('pct')} label="Percent" required suffix="%" />
      </Grid.Col>
      <Grid.Col span={{ base: 4, md: 1 }}>{removeButton}</Grid.Col>
    </Grid>
  );
}
