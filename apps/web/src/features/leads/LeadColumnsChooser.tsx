import { Button, Checkbox, Group, Popover, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconColumns } from '@tabler/icons-react';
import { useCallback, useMemo, useState } from 'react';
import type { DataTableColumn } from '../../components/DataTable';

/** Columns every leads list keeps: without them a row cannot be told apart or opened. */
const ALWAYS_SHOWN = new Set(['date', 'name']);

/**
 * Columns hidden until the user asks for them, per role: at a laptop's 1366 px the admin's 18 columns
 * would push Phone and Email behind a sideways scroll (issue 27). The tracking ids and the consent
 * evidence stay one click away, and the CSV keeps every column.
 */
export const DEFAULT_HIDDEN_LEAD_COLUMNS: Record<'admin' | 'buyer' | 'source', readonly string[]> = {
  admin: ['state', 'cost', 'channel', 'sub_id', 'pub_id', 'tcpa_consent', 'trusted_form', 'jornaya', 'homeowner'],
  buyer: ['state', 'type'],
  source: [],
};

/** Where the choice is kept: per signed-in user (and role), in this browser. */
export const leadColumnsStorageKey = (userId: string, role: string) => `leadex:lead-columns:${role}:${userId}`;

function readHidden(key: string, fallback: readonly string[]): string[] {
  try {
    const raw = localStorage.getItem(key);
    const parsed: unknown = raw ? JSON.parse(raw) : null;
    if (Array.isArray(parsed) && parsed.every((v) => typeof v === 'string')) return parsed;
  } catch {
    // A value this code did not write (or storage that is off) falls back to the defaults.
  }
  return [...fallback];
}

/**
 * The leads table's columns as the user chose them, kept per user: the hidden ones are stored, so a
 * column added later shows until the user hides it.
 */
export function useLeadColumns<T>(
  columns: DataTableColumn<T>[],
  { userId, role }: { userId: string; role: 'admin' | 'buyer' | 'source' },
) {
  const key = leadColumnsStorageKey(userId, role);
  const [hidden, setHidden] = useState<string[]>(() => readHidden(key, DEFAULT_HIDDEN_LEAD_COLUMNS[role]));
  const save = useCallback(
    (next: string[]) => {
      setHidden(next);
      try {
        localStorage.setItem(key, JSON.stringify(next));
      } catch {
        // Storage off (a private window): the choice lasts as long as the page.
      }
    },
    [key],
  );
  const visible = useMemo(
    () => columns.filter((c) => ALWAYS_SHOWN.has(String(c.accessor)) || !hidden.includes(String(c.accessor))),
    [columns, hidden],
  );
  const toggle = (accessor: string, shown: boolean) =>
    save(shown ? hidden.filter((a) => a !== accessor) : [...hidden, accessor]);
  const reset = () => save([...DEFAULT_HIDDEN_LEAD_COLUMNS[role]]);
  return { visible, hidden, toggle, reset };
}

/** The Columns button: a checkbox per column of the leads table, Date and Name always shown. */
export function LeadColumnsChooser<T>({
  columns,
  hidden,
  onToggle,
  onReset,
}: {
  columns: DataTableColumn<T>[];
  hidden: string[];
  onToggle: (accessor: string, shown: boolean) => void;
  onReset: () => void;
}) {
  return (
    <Popover position="bottom-end" shadow="md" withinPortal trapFocus>
      <Popover.Target>
        <Button variant="default" leftSection={<IconColumns size={18} />}>
          Columns
        </Button>
      </Popover.Target>
      <Popover.Dropdown aria-label="Columns shown">
        <Stack gap="xs">
          <Text fz="sm" c="dimmed" maw={300}>
            The columns of your leads table, kept for you in this browser.
          </Text>
          <SimpleGrid cols={2} spacing="md" verticalSpacing="xs">
            {columns.map((c) => {
              const accessor = String(c.accessor);
              const locked = ALWAYS_SHOWN.has(accessor);
              return (
                <Checkbox
                  key={accessor}
                  label={String(c.title ?? accessor)}
                  checked={locked || !hidden.includes(accessor)}
                  disabled={locked}
                  onChange={(event) => onToggle(accessor, event.currentTarget.checked)}
                />
              );
            })}
          </SimpleGrid>
          <Group justify="flex-end">
            <Button variant="subtle" size="xs" onClick={onReset}>
              Reset columns
            </Button>
          </Group>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
