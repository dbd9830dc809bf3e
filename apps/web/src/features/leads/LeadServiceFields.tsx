import { formatFieldValue, type LeadFields, type ServiceField } from '@leadex/domain';
import { Button, Checkbox, Group, Popover, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { IconFilter } from '@tabler/icons-react';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { type DataTableColumn, useUrlFilter } from '../../components/DataTable';
import { useServiceFields } from '../reference/reference.api';

/**
 * The services' own fields in the leads list (issue 33): columns the user picks (kept per user in this
 * browser, none at first: a service may have dozens) and a filter on one of them (kept in the URL as
 * `field=key:value`, which the API reads as the field's type reads a source's value).
 */

type Role = 'admin' | 'buyer' | 'source';

/**
 * The fields a list may show: those of the filtered service, else every service's, once per key in the
 * services' order; live ones only, and no personal one for a source (its list shows no contact).
 */
export function listableFields(
  all: readonly { service: string; fields: readonly ServiceField[] }[] | undefined,
  service: string | null,
  role: Role,
): ServiceField[] {
  const seen = new Map<string, ServiceField>();
  for (const s of all ?? []) {
    if (service && s.service !== service) continue;
    for (const f of s.fields)
      if (!f.removed && !(role === 'source' && f.personal) && !seen.has(f.key)) seen.set(f.key, f);
  }
  return [...seen.values()];
}

export const leadFieldColumnsStorageKey = (userId: string, role: string) =>
  `leadex:lead-field-columns:${role}:${userId}`;

function readShown(key: string): string[] {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(key) ?? '[]');
    if (Array.isArray(parsed) && parsed.every((v) => typeof v === 'string')) return parsed;
  } catch {
    // Anything this code did not write reads as no field column.
  }
  return [];
}

/** The field columns the user chose, and the fields it may choose from. */
export function useLeadFieldColumns<T extends { fields?: LeadFields }>({
  userId,
  role,
  service,
}: {
  userId: string;
  role: Role;
  service: string | null;
}) {
  const all = useServiceFields();
  const fields = useMemo(() => listableFields(all.data, service, role), [all.data, service, role]);
  const key = leadFieldColumnsStorageKey(userId, role);
  const [shown, setShown] = useState<string[]>(() => readShown(key));
  const toggle = useCallback(
    (field: string, on: boolean) => {
      setShown((before) => {
        const next = on ? [...before.filter((k) => k !== field), field] : before.filter((k) => k !== field);
        try {
          localStorage.setItem(key, JSON.stringify(next));
        } catch {
          // Storage off: the choice lasts as long as the page.
        }
        return next;
      });
    },
    [key],
  );
  const columns = useMemo<DataTableColumn<T>[]>(
    () =>
      fields
        .filter((f) => shown.includes(f.key))
        .map((f) => ({
          accessor: `fields.${f.key}`,
          title: f.label,
          noWrap: true,
          render: (lead: T) => {
            const value = lead.fields?.[f.key];
            return value === undefined ? '' : formatFieldValue(f, value);
          },
        })),
    [fields, shown],
  );
  return { fields, shown, toggle, columns };
}

/** The "Service fields" part of the Columns chooser: a checkbox per field. */
export function LeadFieldColumnsChooser({
  fields,
  shown,
  onToggle,
}: {
  fields: readonly ServiceField[];
  shown: readonly string[];
  onToggle: (key: string, on: boolean) => void;
}) {
  if (fields.length === 0) return null;
  return (
    <Popover position="bottom-end" shadow="md" withinPortal trapFocus>
      <Popover.Target>
        <Button variant="default">Service fields</Button>
      </Popover.Target>
      <Popover.Dropdown aria-label="Service field columns">
        <Stack gap="xs">
          <Text fz="sm" c="dimmed" maw={300}>
            The services' own fields to show as columns, kept for you in this browser.
          </Text>
          <SimpleGrid cols={2} spacing="md" verticalSpacing="xs">
            {fields.map((f) => (
              <Checkbox
                key={f.key}
                label={f.label}
                checked={shown.includes(f.key)}
                onChange={(event) => onToggle(f.key, event.currentTarget.checked)}
              />
            ))}
          </SimpleGrid>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}

/** Splits the URL's `key:value`. */
function splitFilter(text: string): { key: string; value: string } {
  const at = text.indexOf(':');
  return at < 0 ? { key: '', value: '' } : { key: text.slice(0, at), value: text.slice(at + 1) };
}

/** A filter on one service field: the field, then the value it must hold (kept in the URL as `field`). */
export function LeadFieldFilter({ fields }: { fields: readonly ServiceField[] }) {
  const [filter, setFilter] = useUrlFilter('field', 400);
  const [key, setKey] = useState(() => splitFilter(filter).key);
  const [value, setValue] = useState(() => splitFilter(filter).value);
  // Back and Forward (or a link) change the URL: the inputs follow.
  useEffect(() => {
    const parts = splitFilter(filter);
    setKey(parts.key);
    setValue(parts.value);
  }, [filter]);
  const write = (nextKey: string, nextValue: string) =>
    setFilter(nextKey && nextValue.trim() ? `${nextKey}:${nextValue.trim()}` : '');
  const chosen = fields.find((f) => f.key === key);
  if (fields.length === 0 && !filter) return null;
  return (
    <Group gap={6} wrap="nowrap">
      <Select
        aria-label="Filter on field"
        placeholder="Filter on field"
        leftSection={<IconFilter size={16} />}
        data={fields.map((f) => ({ value: f.key, label: f.label }))}
        value={key || null}
        onChange={(next) => {
          setKey(next ?? '');
          write(next ?? '', value);
        }}
        clearable
        searchable
        w={200}
      />
      <TextInput
        aria-label="Field value"
        placeholder={chosen?.type === 'choice' ? chosen.options.join(', ') : 'Value'}
        value={value}
        onChange={(event) => {
          setValue(event.currentTarget.value);
          write(key, event.currentTarget.value);
        }}
        disabled={!key}
        w={160}
      />
    </Group>
  );
}
