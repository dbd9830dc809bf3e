import { formatFieldValue, type LeadFields, MAX_LEAD_FIELD_FILTERS, type ServiceField } from '@leadex/domain';
import {
  ActionIcon,
  Button,
  Checkbox,
  Group,
  Popover,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconFilter, IconPlus, IconX } from '@tabler/icons-react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useLocation, useSearchParams } from 'react-router';
import type { DataTableColumn } from '../../components/DataTable';
import { useWriteSearchParams } from '../../lib/searchParams';
import { useServiceFields } from '../reference/reference.api';

/**
 * The services' own fields in the leads list (issue 33): columns the user picks (kept per user in this
 * browser, none at first: a service may have dozens) and filters on several of them (kept in the URL as
 * `field=key:value`, repeated; the API reads each value as the field's type reads a source's).
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

/** A field filter as the inputs hold it: the field's key and the value typed. */
interface FieldRule {
  key: string;
  value: string;
}

const NO_RULE: FieldRule = { key: '', value: '' };

/** Splits the URL's `key:value`. */
function splitFilter(text: string): FieldRule {
  const at = text.indexOf(':');
  return at < 0 ? NO_RULE : { key: text.slice(0, at), value: text.slice(at + 1) };
}

/** The URL's `key:value` of a rule, or '' while it lacks its field or its value. */
const ruleText = (rule: FieldRule) => (rule.key && rule.value.trim() ? `${rule.key}:${rule.value.trim()}` : '');

/** The rules the URL holds, or one empty rule to fill in. */
const rulesOf = (texts: readonly string[]): FieldRule[] => (texts.length > 0 ? texts.map(splitFilter) : [NO_RULE]);

/**
 * Filters on the services' fields: each a field and the value it must hold, every one of which a lead
 * meets (up to MAX_LEAD_FIELD_FILTERS). Kept in the URL as `field=key:value`, repeated as the API takes it.
 */
export function LeadFieldFilter({ fields }: { fields: readonly ServiceField[] }) {
  const [params] = useSearchParams();
  const write = useWriteSearchParams();
  const { pathname } = useLocation();
  const fromUrl = JSON.stringify(params.getAll('field'));
  const [rules, setRules] = useState<FieldRule[]>(() => rulesOf(JSON.parse(fromUrl) as string[]));
  const [debounced] = useDebouncedValue(JSON.stringify(rules.map(ruleText).filter(Boolean)), 400);
  // What this filter last wrote, to tell its own URL updates from Back, Forward or a link.
  const written = useRef(fromUrl);

  useEffect(() => {
    if (debounced === written.current) return;
    // A row clicked meanwhile opened another screen: a write now would bring the user back (useUrlFilter).
    if (window.location.pathname !== pathname) return;
    written.current = debounced;
    write({ field: JSON.parse(debounced) as string[], page: null }, { replace: true });
  }, [debounced, write, pathname]);

  useEffect(() => {
    if (fromUrl === written.current) return;
    written.current = fromUrl;
    setRules(rulesOf(JSON.parse(fromUrl) as string[]));
  }, [fromUrl]);

  const change = (index: number, next: Partial<FieldRule>) =>
    setRules((list) => list.map((rule, i) => (i === index ? { ...rule, ...next } : rule)));
  const last = rules[rules.length - 1];
  if (fields.length === 0 && fromUrl === '[]') return null;
  return (
    <Group gap={6} wrap="wrap">
      {rules.map((rule, index) => {
        const chosen = fields.find((f) => f.key === rule.key);
        const nth = index === 0 ? '' : ` ${index + 1}`;
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: a rule is its place in the list; two may be alike
          <Group key={index} gap={6} wrap="nowrap">
            <Select
              aria-label={`Filter on field${nth}`}
              placeholder="Filter on field"
              leftSection={<IconFilter size={16} />}
              data={fields.map((f) => ({ value: f.key, label: f.label }))}
              value={rule.key || null}
              onChange={(next) => change(index, { key: next ?? '' })}
              clearable
              searchable
              w={200}
            />
            <TextInput
              aria-label={`Field value${nth}`}
              placeholder={chosen?.type === 'choice' ? chosen.options.join(', ') : 'Value'}
              value={rule.value}
              onChange={(event) => change(index, { value: event.currentTarget.value })}
              disabled={!rule.key}
              w={160}
            />
            {rules.length > 1 && (
              <Tooltip label="Remove this field filter">
                <ActionIcon
                  variant="subtle"
                  color="gray"
                  aria-label={`Remove field filter ${index + 1}`}
                  onClick={() => setRules((list) => list.filter((_, i) => i !== index))}
                >
                  <IconX size={16} />
                </ActionIcon>
              </Tooltip>
            )}
          </Group>
        );
      })}
      {rules.length < MAX_LEAD_FIELD_FILTERS && (
        <Tooltip label="Filter on one more field: a lead must meet every one">
          <ActionIcon
            variant="light"
            aria-label="Add a field filter"
            disabled={!last || !ruleText(last)}
            onClick={() => setRules((list) => [...list, NO_RULE])}
          >
            <IconPlus size={16} />
          </ActionIcon>
        </Tooltip>
      )}
    </Group>
  );
}
