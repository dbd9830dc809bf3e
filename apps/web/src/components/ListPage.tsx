import {
  Button,
  type MantineSpacing,
  Paper,
  Select,
  type SelectProps,
  Stack,
  type StyleProp,
  TextInput,
  type TextInputProps,
} from '@mantine/core';
import { IconFilter, IconMapPin, IconPlus, IconSearch } from '@tabler/icons-react';
import { type ReactNode, useMemo } from 'react';
import { Link } from 'react-router';
import { useUrlFilter } from './DataTable';
import { PageHeader } from './PageHeader';
import { useServiceOptions } from './ServiceName';

export interface ListPageProps {
  title: string;
  description: ReactNode;
  /** The create button on the right of the title, for lists whose records a user creates. */
  create?: { label: string; to: string };
  /** The filters above the table (UrlSearchInput, UrlSelectFilter), if the list has any. */
  filters?: ReactNode;
  /** The card's padding; a phone-friendly list gives the table more width. */
  padding?: StyleProp<MantineSpacing>;
  /** The DataTable. */
  children: ReactNode;
}

/**
 * The frame of a list screen (buyers, sources, campaigns, deliveries, bills, returns): title,
 * description and the create button, then one card holding the filters and the paged table.
 */
export function ListPage({ title, description, create, filters, padding = 'md', children }: ListPageProps) {
  return (
    <>
      <PageHeader
        title={title}
        description={description}
        actions={
          create && (
            <Button component={Link} to={create.to} leftSection={<IconPlus size={18} />}>
              {create.label}
            </Button>
          )
        }
      />
      <Paper withBorder p={padding} shadow="xs">
        <Stack gap="md">
          {filters}
          {children}
        </Stack>
      </Paper>
    </>
  );
}

/** A text input whose value is kept in the URL param `param` (see useUrlFilter). */
function UrlTextInput({
  param,
  debounceMs = 0,
  ...props
}: { param: string; debounceMs?: number } & Omit<TextInputProps, 'value' | 'onChange'>) {
  const [value, setValue] = useUrlFilter(param, debounceMs);
  return <TextInput value={value} onChange={(event) => setValue(event.currentTarget.value)} {...props} />;
}

/** A text search kept in the URL param `param` (see useUrlFilter); `label` is its placeholder and name. */
export function UrlSearchInput({
  label,
  debounceMs = 200,
  ...props
}: { param: string; label: string; debounceMs?: number } & Omit<TextInputProps, 'value' | 'onChange'>) {
  return (
    <UrlTextInput
      placeholder={label}
      aria-label={label}
      leftSection={<IconSearch size={16} />}
      debounceMs={debounceMs}
      {...props}
    />
  );
}

/** A date kept in the URL param `param` as YYYY-MM-DD (see useUrlFilter); `label` is its label and name. */
export function UrlDateInput({
  label,
  ...props
}: { param: string; label: string } & Omit<TextInputProps, 'value' | 'onChange' | 'type'>) {
  return <UrlTextInput type="date" aria-label={label} label={label} {...props} />;
}

/**
 * A choice among the values present (a service, a tag), kept in the URL param `param`; a filter icon
 * and the full width of a phone, 260 px from `xs` up, unless the props say otherwise.
 */
export function UrlSelectFilter({
  param,
  label,
  ...props
}: { param: string; label: string } & Omit<SelectProps, 'value' | 'onChange'>) {
  const [value, setValue] = useUrlFilter(param);
  return (
    <Select
      placeholder={label}
      aria-label={label}
      value={value || null}
      onChange={(next) => setValue(next ?? '')}
      searchable
      clearable
      leftSection={<IconFilter size={16} />}
      w={{ base: '100%', xs: 260 }}
      {...props}
    />
  );
}

type FilterProps = Omit<SelectProps, 'value' | 'onChange' | 'leftSection' | 'label'>;

/** The service filter of a list (URL param `service`): the services the list's records use. */
export function UrlServiceFilter({ data, ...props }: FilterProps) {
  // Keys given as they are (the values present) read as their labels; options given are kept.
  const keys = useMemo(
    () => (Array.isArray(data) && data.every((item) => typeof item === 'string') ? (data as string[]) : NO_KEYS),
    [data],
  );
  const labelled = useServiceOptions(keys);
  return (
    <UrlSelectFilter param="service" label="Filter by service" data={keys === NO_KEYS ? data : labelled} {...props} />
  );
}

const NO_KEYS: string[] = [];

/** The ZIP filter of a list (URL param `zip`). */
export function UrlZipFilter(props: FilterProps) {
  return <UrlSelectFilter param="zip" label="Filter by zip" leftSection={<IconMapPin size={16} />} {...props} />;
}
