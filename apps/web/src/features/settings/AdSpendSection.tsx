import { type AdSpendEntry, type AdSpendRow, adSpendEntrySchema, INTEGRATION_INFO } from '@leadex/domain';
import { Button, FileButton, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { DateInput } from '@mantine/dates';
import { IconCalendar, IconUpload } from '@tabler/icons-react';
import type { DataTableColumn } from 'mantine-datatable';
import { useRef } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { EditingFields } from '../../components/EditableForm';
import { MoneyField, SelectField } from '../../components/FormFields';
import { RecordsTable } from '../../components/RecordsTable';
import { Section } from '../../components/Section';
import { formatDay, formatMoney, todayInExchangeZone } from '../../lib/format';
import { applyFieldErrors, schemaResolver } from '../../lib/forms';
import { showSuccess } from '../../lib/notify';
import { AD_SPEND_DAYS, useAdSpend, useInternalSources, useSaveAdSpend, useUploadAdSpend } from './settings.api';

const originLabel = (origin: AdSpendRow['origin']) => (origin === 'manual' ? 'Manual' : INTEGRATION_INFO[origin].label);

const columns: DataTableColumn<AdSpendRow>[] = [
  { accessor: 'day', title: 'Date', noWrap: true, render: (row) => formatDay(row.day) },
  { accessor: 'sourceName', title: 'Source' },
  { accessor: 'origin', title: 'Origin', render: (row) => originLabel(row.origin) },
  { accessor: 'amount', title: 'Amount', textAlign: 'right', render: (row) => formatMoney(row.amount) },
];

/** A day's spend of an internal source, by hand; the shared schema's messages under the fields. */
function AdSpendForm() {
  const sources = useInternalSources();
  const save = useSaveAdSpend();
  const form = useForm<AdSpendEntry>({
    resolver: schemaResolver(adSpendEntrySchema),
    defaultValues: { sourceId: '', day: todayInExchangeZone(new Date()) },
  });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async (entry) => {
    try {
      const row = await save.mutateAsync(entry);
      showSuccess(`Recorded ${formatMoney(row.amount)} of ad spend for ${row.sourceName} on ${formatDay(row.day)}.`);
      form.resetField('amount');
    } catch (error) {
      applyFieldErrors(error, form.setError);
    }
  });
  const noSources = sources.data?.length === 0;
  return (
    <EditingFields form={form}>
      <form noValidate onSubmit={submit} aria-label="Ad spend entry">
        <Stack gap="sm">
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm" verticalSpacing="sm">
            <SelectField
              name="sourceId"
              label="Internal source"
              required
              searchable
              placeholder="Choose a source"
              data={sources.data ?? []}
              description={noSources ? 'No internal source yet: a source with no lead cost is one.' : undefined}
            />
            <Controller
              control={form.control}
              name="day"
              render={({ field }) => (
                <DateInput
                  label="Date"
                  required
                  valueFormat="MM/DD/YYYY"
                  placeholder="MM/DD/YYYY"
                  leftSection={<IconCalendar size={16} />}
                  maxDate={todayInExchangeZone(new Date())}
                  value={field.value || null}
                  onChange={(value) => field.onChange(value ?? '')}
                  onBlur={field.onBlur}
                  error={errors.day?.message}
                />
              )}
            />
            <MoneyField name="amount" label="Amount" required hideControls />
          </SimpleGrid>
          <Group>
            <Button type="submit" loading={isSubmitting}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </EditingFields>
  );
}

/** Many days at once from a CSV file (date,source,amount); a bad line is named in the error toast. */
function AdSpendUpload() {
  const upload = useUploadAdSpend();
  // Cleared after each pick, so the same file fixed and picked again uploads again.
  const reset = useRef<() => void>(null);
  const send = async (file: File | null) => {
    reset.current?.();
    if (!file) return;
    const { imported } = await upload.mutateAsync(await file.text());
    showSuccess(`Recorded ${imported} ${imported === 1 ? 'day' : 'days'} of ad spend.`);
  };
  return (
    <Group gap="sm" wrap="nowrap" align="center">
      <FileButton resetRef={reset} accept=".csv,text/csv" onChange={(file) => void send(file).catch(() => {})}>
        {(props) => (
          <Button {...props} variant="default" leftSection={<IconUpload size={16} />} loading={upload.isPending}>
            Upload CSV
          </Button>
        )}
      </FileButton>
      <Text fz="sm" c="dimmed">
        Columns date,source,amount: one day a line, the source by name or id, the date as YYYY-MM-DD.
      </Text>
    </Group>
  );
}

/**
 * The internal sources' daily ad spend (DESIGN.md §5: their cost): entered by hand, uploaded as CSV, or
 * imported by the ad integrations; the last days' of it listed.
 */
export function AdSpendSection() {
  const spend = useAdSpend();
  return (
    <Section
      title="Ad spend"
      description="What the internal sources cost: each day's spend, by hand, from a CSV file, or imported from the ad accounts."
    >
      <Stack gap="md">
        <AdSpendForm />
        <AdSpendUpload />
        <RecordsTable<AdSpendRow>
          records={spend.data}
          columns={columns}
          noRecordsText={`No ad spend recorded in the last ${AD_SPEND_DAYS} days.`}
        />
      </Stack>
    </Section>
  );
}
