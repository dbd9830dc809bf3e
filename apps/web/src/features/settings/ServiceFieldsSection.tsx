import {
  NEW_SERVICE_FIELD,
  SERVICE_FIELD_TYPE_LABELS,
  SERVICE_FIELD_TYPES,
  type ServiceField,
  type ServiceFieldsAnswer,
  serviceFieldSchema,
} from '@leadex/domain';
import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Group,
  Modal,
  SegmentedControl,
  Select,
  Stack,
  Switch,
  Table,
  TagsInput,
  Text,
  Textarea,
  TextInput,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconPencil, IconPlus, IconRestore, IconTrash } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { Section } from '../../components/Section';
import { ApiRequestError, api } from '../../lib/api';
import { showSuccess } from '../../lib/notify';
import { queryKeys } from '../../lib/queryKeys';
import { useServiceFields, useServiceLabels } from '../reference/reference.api';

/** PUT /api/services/{service}/fields: the service's whole list, in its order. */
function useSaveServiceFields() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ service, fields }: { service: string; fields: ServiceField[] }) =>
      api.put<ServiceFieldsAnswer>(`/api/services/${encodeURIComponent(service)}/fields`, { fields }, { toast: false }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.serviceFields }),
  });
}

/** The form of one field, checked with the API's own schema; its errors are shown under each input. */
function FieldModal({
  initial,
  isNew,
  others,
  onClose,
  onDone,
}: {
  initial: ServiceField;
  isNew: boolean;
  /** The other fields' keys and aliases (lower-cased), which this one may not take. */
  others: ReadonlySet<string>;
  onClose: () => void;
  onDone: (field: ServiceField) => void;
}) {
  const [field, setField] = useState<ServiceField>(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const set = <K extends keyof ServiceField>(key: K, value: ServiceField[K]) =>
    setField((f) => ({ ...f, [key]: value }));
  /** A text input's value, change and error for one of the field's texts. */
  const text = (key: 'label' | 'key' | 'help') => ({
    value: field[key],
    onChange: (e: { currentTarget: { value: string } }) => set(key, e.currentTarget.value),
    error: errors[key],
  });
  /** A tags input's value, change and error for one of the field's lists. */
  const tags = (key: 'options' | 'aliases') => ({
    value: field[key],
    onChange: (v: string[]) => set(key, v),
    error: errors[key],
  });

  const submit = () => {
    const candidate = { ...field, options: field.type === 'choice' ? field.options : [] };
    const parsed = serviceFieldSchema.safeParse(candidate);
    const found: Record<string, string> = {};
    for (const issue of parsed.error?.issues ?? []) found[String(issue.path[0] ?? 'key')] ??= issue.message;
    if (others.has(candidate.key.toLowerCase()))
      found.key ??= `Key “${candidate.key}” is already used by another field`;
    const taken = candidate.aliases.find((a) => others.has(a.toLowerCase()) || a.toLowerCase() === candidate.key);
    if (taken) found.aliases ??= `Alias “${taken}” is already used by another field`;
    setErrors(found);
    if (parsed.success && Object.keys(found).length === 0) onDone(parsed.data);
  };

  return (
    <Modal opened onClose={onClose} title={isNew ? 'Add field' : `Edit ${initial.label}`} size="lg">
      <Stack gap="sm">
        <Group grow align="flex-start">
          <TextInput label="Label" description="What every screen calls it" {...text('label')} data-autofocus />
          <TextInput
            label="Key"
            description="What sources send (snake_case); fixed once leads carry it"
            {...text('key')}
            disabled={!isNew}
          />
        </Group>
        <Group grow align="flex-start">
          <Select
            label="Type"
            data={SERVICE_FIELD_TYPES.map((t) => ({ value: t, label: SERVICE_FIELD_TYPE_LABELS[t] }))}
            value={field.type}
            onChange={(v) => v && set('type', v as ServiceField['type'])}
            error={errors.type}
            allowDeselect={false}
            disabled={!isNew}
            description={isNew ? undefined : 'A field’s type never changes: add a new field instead'}
          />
          <Stack gap={4}>
            <Text fz="sm" fw={500}>
              Sent at
            </Text>
            <SegmentedControl
              data={[
                { value: 'ping', label: 'Ping and post' },
                { value: 'post', label: 'Post only' },
              ]}
              value={field.stage}
              onChange={(v) => set('stage', v as ServiceField['stage'])}
              disabled={field.personal}
            />
            {errors.stage && (
              <Text c="red" fz="xs">
                {errors.stage}
              </Text>
            )}
          </Stack>
        </Group>
        {field.type === 'choice' && (
          <TagsInput
            label="Options"
            description="Press Enter after each; sources' values match them in any case"
            {...tags('options')}
          />
        )}
        <Group>
          <Switch
            label="Required"
            description="A lead without it is refused (400 naming it)"
            checked={field.required}
            onChange={(e) => set('required', e.currentTarget.checked)}
          />
          <Switch
            label="Personal"
            description="Never in a ping; shown like the contact fields"
            checked={field.personal}
            onChange={(e) => {
              const personal = e.currentTarget.checked;
              setField((f) => ({ ...f, personal, stage: personal ? 'post' : f.stage }));
            }}
          />
        </Group>
        <TagsInput label="Aliases" description="Other names sources send it under (any case)" {...tags('aliases')} />
        <Textarea label="Help" description="Shown to sources in the API docs" {...text('help')} autosize minRows={2} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={submit}>{isNew ? 'Add field' : 'Done'}</Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** The server's errors (`fields.3.key`) as sentences naming the field. */
function errorLines(errors: Record<string, string>, fields: readonly ServiceField[]): string[] {
  return Object.entries(errors).map(([path, message]) => {
    const index = Number(path.split('.')[1]);
    const field = Number.isInteger(index) ? fields[index] : undefined;
    return field && !message.startsWith(field.label) ? `${field.label} (${field.key}): ${message}` : message;
  });
}

/**
 * Issue 33 item 1: each service's own fields, defined by the admin. Edited as a list (add, edit, move,
 * remove, restore), saved whole; a removed field stays, flagged, so old leads still show it.
 */
export function ServiceFieldsSection() {
  const labels = useServiceLabels();
  const all = useServiceFields();
  const save = useSaveServiceFields();
  const [service, setService] = useState<string | null>(null);
  const [draft, setDraft] = useState<ServiceField[]>([]);
  const [editing, setEditing] = useState<{ index: number | null; field: ServiceField } | null>(null);
  const [errors, setErrors] = useState<string[]>([]);

  const stored = useMemo(() => all.data?.find((s) => s.service === service)?.fields ?? [], [all.data, service]);
  useEffect(() => {
    if (!service && labels.data?.[0])
      setService(labels.data.find((l) => l.name === 'solar')?.name ?? labels.data[0].name);
  }, [labels.data, service]);
  useEffect(() => {
    setDraft(stored);
    setErrors([]);
  }, [stored]);

  const changed = JSON.stringify(draft) !== JSON.stringify(stored);
  const storedKeys = new Set(stored.map((f) => f.key));
  const namesOtherThan = (index: number | null) =>
    new Set(draft.flatMap((f, i) => (i === index ? [] : [f.key, ...f.aliases].map((n) => n.toLowerCase()))));

  const move = (index: number, by: number) =>
    setDraft((list) => {
      const next = [...list];
      const [item] = next.splice(index, 1);
      if (item) next.splice(index + by, 0, item);
      return next;
    });
  const setRemoved = (index: number, removed: boolean) =>
    setDraft((list) => list.map((f, i) => (i === index ? { ...f, removed } : f)));

  const submit = async () => {
    if (!service) return;
    setErrors([]);
    try {
      await save.mutateAsync({ service, fields: draft });
      showSuccess('The service’s fields were saved: sources can send them now.');
    } catch (failure) {
      setErrors(
        failure instanceof ApiRequestError
          ? Object.keys(failure.errors).length > 0
            ? errorLines(failure.errors, draft)
            : [failure.message]
          : ['The fields were not saved'],
      );
    }
  };

  return (
    <Section
      title="Service Fields"
      description="The fields each service's leads carry beyond the standard ones: sources send them, campaigns filter on them, every lead screen shows them."
      actions={
        <Group gap="xs">
          <Select
            aria-label="Service"
            data={(labels.data ?? []).map((l) => ({ value: l.name, label: l.label }))}
            value={service}
            onChange={setService}
            allowDeselect={false}
            searchable
            w={220}
          />
          <Button
            variant="light"
            leftSection={<IconPlus size={16} />}
            onClick={() => setEditing({ index: null, field: NEW_SERVICE_FIELD })}
            disabled={!service}
          >
            Add field
          </Button>
        </Group>
      }
    >
      {draft.length === 0 ? (
        <Text c="dimmed" fz="sm">
          This service has no fields of its own yet.
        </Text>
      ) : (
        <Table striped verticalSpacing="xs" aria-label="Service fields">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Label</Table.Th>
              <Table.Th>Key</Table.Th>
              <Table.Th>Type</Table.Th>
              <Table.Th>Sent at</Table.Th>
              <Table.Th>Rules</Table.Th>
              <Table.Th>Aliases</Table.Th>
              <Table.Th>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {draft.map((f, i) => (
              <Table.Tr key={f.key} style={f.removed ? { opacity: 0.55 } : undefined}>
                <Table.Td>
                  <Text fz="sm" fw={500} td={f.removed ? 'line-through' : undefined}>
                    {f.label}
                  </Text>
                  {f.help && (
                    <Text fz="xs" c="dimmed">
                      {f.help}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  <Text fz="sm" ff="monospace">
                    {f.key}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Text fz="sm">{SERVICE_FIELD_TYPE_LABELS[f.type]}</Text>
                  {f.type === 'choice' && (
                    <Text fz="xs" c="dimmed">
                      {f.options.join(', ')}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  <Text fz="sm">{f.stage === 'ping' ? 'Ping and post' : 'Post only'}</Text>
                </Table.Td>
                <Table.Td>
                  <Group gap={4}>
                    {f.required && <Badge size="sm">Required</Badge>}
                    {f.personal && (
                      <Badge size="sm" color="grape">
                        Personal
                      </Badge>
                    )}
                    {f.removed && (
                      <Badge size="sm" color="gray">
                        Removed
                      </Badge>
                    )}
                    {!f.required && !f.personal && !f.removed && (
                      <Text fz="xs" c="dimmed">
                        Optional
                      </Text>
                    )}
                  </Group>
                </Table.Td>
                <Table.Td>
                  <Text fz="xs" ff="monospace">
                    {f.aliases.join(', ')}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Group gap={2} justify="flex-end" wrap="nowrap">
                    <ActionIcon
                      variant="subtle"
                      aria-label={`Move ${f.label} up`}
                      disabled={i === 0}
                      onClick={() => move(i, -1)}
                    >
                      <IconArrowUp size={16} />
                    </ActionIcon>
                    <ActionIcon
                      variant="subtle"
                      aria-label={`Move ${f.label} down`}
                      disabled={i === draft.length - 1}
                      onClick={() => move(i, 1)}
                    >
                      <IconArrowDown size={16} />
                    </ActionIcon>
                    <ActionIcon
                      variant="subtle"
                      aria-label={`Edit ${f.label}`}
                      onClick={() => setEditing({ index: i, field: f })}
                    >
                      <IconPencil size={16} />
                    </ActionIcon>
                    {f.removed ? (
                      <Tooltip label="Restore: sources may send it again">
                        <ActionIcon
                          variant="subtle"
                          aria-label={`Restore ${f.label}`}
                          onClick={() => setRemoved(i, false)}
                        >
                          <IconRestore size={16} />
                        </ActionIcon>
                      </Tooltip>
                    ) : (
                      <Tooltip label={storedKeys.has(f.key) ? 'Remove: old leads keep showing it' : 'Remove'}>
                        <ActionIcon
                          variant="subtle"
                          color="red"
                          aria-label={`Remove ${f.label}`}
                          onClick={() =>
                            storedKeys.has(f.key)
                              ? setRemoved(i, true)
                              : setDraft((list) => list.filter((_, j) => j !== i))
                          }
                        >
                          <IconTrash size={16} />
                        </ActionIcon>
                      </Tooltip>
                    )}
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {errors.length > 0 && (
        <Alert color="red" mt="md" title="The fields were not saved">
          {errors.map((line) => (
            <Text key={line} fz="sm">
              {line}
            </Text>
          ))}
        </Alert>
      )}
      <Group justify="flex-end" mt="md">
        {changed && (
          <Button variant="default" onClick={() => setDraft(stored)}>
            Discard changes
          </Button>
        )}
        <Button onClick={submit} loading={save.isPending} disabled={!changed}>
          Save fields
        </Button>
      </Group>
      {editing && (
        <FieldModal
          initial={editing.field}
          isNew={editing.index === null || !storedKeys.has(editing.field.key)}
          others={namesOtherThan(editing.index)}
          onClose={() => setEditing(null)}
          onDone={(field) => {
            setDraft((list) =>
              editing.index === null ? [...list, field] : list.map((f, i) => (i === editing.index ? field : f)),
            );
            setEditing(null);
          }}
        />
      )}
    </Section>
  );
}
