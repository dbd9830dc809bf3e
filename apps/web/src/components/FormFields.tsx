import type { TagKind } from '@leadex/domain';
import {
  Grid,
  type GridColProps,
  Group,
  MultiSelect,
  type MultiSelectProps,
  NumberInput,
  type NumberInputProps,
  Radio,
  Select,
  type SelectProps,
  Stack,
  Switch,
  TagsInput,
  type TagsInputProps,
  Text,
  Textarea,
  type TextareaProps,
  TextInput,
  type TextInputProps,
} from '@mantine/core';
import type { ReactNode } from 'react';
import { useController } from 'react-hook-form';
import { formatTimestamp } from '../lib/format';
import { useEditing } from './EditableForm';
import { MAX_TAGS, TagsField, type TagsFieldProps } from './TagsField';
import { ZipTagsInput, type ZipTagsInputProps } from './ZipTagsInput';

/**
 * Inputs bound to the surrounding EditableForm: editable in edit mode, read-only (filled) otherwise,
 * with the field's validation or server message under it.
 */
interface BoundProps {
  /** The field's path in the form values (`bill.pay`). */
  name: string;
  /** Never editable here, even in edit mode (a username after creation). */
  locked?: boolean;
}

/** Admin §2: empty read-only lists (delivery lists, rows) show None. */
export const EMPTY_LIST = 'None';

/**
 * The form binding of one field: `mode` (read-only or not) and `bind` (ref, name, blur and the
 * message), which every bound input spreads after its own props so the form has the last word.
 */
function useBoundField(name: string, locked?: boolean, required?: boolean) {
  const { field, fieldState } = useController({ name });
  const readOnly = !useEditing() || Boolean(locked);
  return {
    field,
    // The asterisk is a hint for typing; on a value that cannot be changed it is noise.
    mode: { readOnly, variant: readOnly ? 'filled' : 'default', required: required && !readOnly } as const,
    bind: { ref: field.ref, name: field.name, onBlur: field.onBlur, error: fieldState.error?.message },
  };
}

/**
 * The binding of a field holding a list (tags, choices, ZIP codes): as useBoundField, and `list`, what
 * the input spreads after its own props: the mode, the binding, the value ([] for none) and, read-only
 * without values, `emptyText` instead of a blank box (editable, the placeholder given).
 */
function useBoundList(
  name: string,
  locked: boolean | undefined,
  { required, placeholder }: { required?: boolean; placeholder?: string },
  emptyText?: string,
) {
  const { field, mode, bind } = useBoundField(name, locked, required);
  const value: string[] = field.value ?? [];
  const shownPlaceholder = mode.readOnly ? (value.length ? undefined : emptyText) : placeholder;
  return {
    readOnly: mode.readOnly,
    list: { ...mode, placeholder: shownPlaceholder, ...bind, value, onChange: field.onChange },
  };
}

export function TextField({
  name,
  locked,
  format,
  ...props
}: BoundProps &
  Omit<TextInputProps, 'name'> & {
    /** How the value reads while read-only (a phone number formatted); edit mode shows it as stored. */
    format?: (value: string) => string;
  }) {
  const { field, mode, bind } = useBoundField(name, locked, props.required);
  return (
    <TextInput
      {...props}
      {...mode}
      {...bind}
      value={mode.readOnly && format ? format(field.value ?? '') : (field.value ?? '')}
      onChange={field.onChange}
    />
  );
}

export function TextareaField({
  name,
  locked,
  emptyText,
  ...props
}: BoundProps &
  Omit<TextareaProps, 'name'> & {
    /** What an empty value reads while read-only ('None'), instead of a blank box. */
    emptyText?: string;
  }) {
  const { field, mode, bind } = useBoundField(name, locked, props.required);
  return (
    <Textarea
      autosize
      minRows={mode.readOnly && !field.value ? 1 : 3}
      maxRows={10}
      {...props}
      {...mode}
      placeholder={mode.readOnly ? emptyText : props.placeholder}
      {...bind}
      value={field.value ?? ''}
      onChange={field.onChange}
    />
  );
}

/**
 * A select whose empty value is '' (not null), which the shared schemas read as "not given". Read-only,
 * it shows the chosen option's label as plain text (no dropdown chevron inviting a click).
 */
export function SelectField({ name, locked, ...props }: BoundProps & Omit<SelectProps, 'name'>) {
  const { field, mode, bind } = useBoundField(name, locked, props.required);
  const value = field.value === '' || field.value === undefined || field.value === null ? null : String(field.value);
  if (mode.readOnly) {
    return (
      <TextInput
        label={props.label}
        aria-label={props['aria-label']}
        description={props.description}
        placeholder={props.placeholder}
        {...mode}
        ref={bind.ref}
        name={bind.name}
        value={optionLabel(props.data, value)}
        error={bind.error}
      />
    );
  }
  return <Select {...props} {...mode} {...bind} value={value} onChange={(next) => field.onChange(next ?? '')} />;
}

/** The label Select would show for `value` (data may hold strings, options or groups of them). */
function optionLabel(data: SelectProps['data'], value: string | null): string {
  if (value === null) return '';
  return findLabel(data ?? [], value) ?? value;
}

function findLabel(entries: readonly unknown[], value: string): string | undefined {
  for (const entry of entries) {
    if (typeof entry === 'string') {
      if (entry === value) return entry;
    } else if (entry && typeof entry === 'object') {
      const option = entry as { value?: unknown; label?: string; items?: readonly unknown[] };
      if (option.items) {
        const found = findLabel(option.items, value);
        if (found) return found;
      } else if (option.value === value) {
        return option.label ?? value;
      }
    }
  }
  return undefined;
}

export function NumberField({ name, locked, ...props }: BoundProps & Omit<NumberInputProps, 'name'>) {
  const { field, mode, bind } = useBoundField(name, locked, props.required);
  return (
    <NumberInput
      {...props}
      {...mode}
      hideControls={mode.readOnly || props.hideControls}
      {...bind}
      value={field.value ?? ''}
      onChange={field.onChange}
    />
  );
}

export interface MoneyFieldProps extends BoundProps, Omit<NumberInputProps, 'name'> {
  /** Whole dollars only (a prepay, a credit threshold). */
  wholeDollars?: boolean;
  /** Always two decimals ($18.00), as prices read. */
  fixedCents?: boolean;
}

/**
 * A dollar amount (the API speaks dollars with two decimals, DESIGN.md §3): '$' before it, never
 * below 0, thousands separated, cents unless `wholeDollars`. One field, so money reads alike everywhere.
 */
export function MoneyField({ wholeDollars = false, fixedCents = false, ...props }: MoneyFieldProps) {
  return (
    <NumberField
      prefix="$"
      min={0}
      thousandSeparator=","
      {...(wholeDollars ? { allowDecimal: false } : { decimalScale: 2, fixedDecimalScale: fixedCents })}
      {...props}
    />
  );
}

/** What a read-only empty tag list reads (admin §8: 'An empty tag list shows N/A'). */
export const EMPTY_TAGS = 'N/A';

export function TagsFormField({
  name,
  locked,
  kind,
  ...props
}: BoundProps & { kind: TagKind } & Omit<TagsFieldProps, 'name' | 'kind'>) {
  // Admin §8: an empty tag list shows N/A (TagsInput shows a placeholder beside pills too).
  const { list } = useBoundList(name, locked, props, EMPTY_TAGS);
  return <TagsField {...props} kind={kind} {...list} />;
}

/** What an empty field reads while read-only ('N/A', 'None'), instead of a blank box. */
interface EmptyText {
  emptyText?: string;
}

/** A free list of texts (email addresses, phone numbers, URLs), one pill each. */
export function ListField({
  name,
  locked,
  emptyText = EMPTY_LIST,
  ...props
}: BoundProps & EmptyText & Omit<TagsInputProps, 'name'>) {
  const { readOnly, list } = useBoundList(name, locked, props, emptyText);
  return (
    <TagsInput
      splitChars={[',', ' ']}
      acceptValueOnBlur
      maxTags={MAX_TAGS}
      {...props}
      clearable={!readOnly}
      {...list}
    />
  );
}

/** Several choices from a list (services, states). */
export function MultiSelectField({
  name,
  locked,
  emptyText,
  ...props
}: BoundProps & EmptyText & Omit<MultiSelectProps, 'name'>) {
  const { readOnly, list } = useBoundList(name, locked, props, emptyText);
  return (
    <MultiSelect
      limit={50}
      {...props}
      clearable={!readOnly && props.clearable}
      // Read-only, no chevron inviting a click.
      rightSection={readOnly ? <span /> : props.rightSection}
      {...list}
    />
  );
}

/** ZIP codes as tags (see ZipTagsInput). */
export function ZipTagsField({
  name,
  locked,
  emptyText,
  ...props
}: BoundProps & EmptyText & Omit<ZipTagsInputProps, 'name' | 'value' | 'onChange'>) {
  const { list } = useBoundList(name, locked, props, emptyText);
  return <ZipTagsInput {...props} {...list} />;
}

/** A yes-or-no setting as a switch, `description` saying what on means; it turns only in edit mode. */
export function SwitchField({ name, label, description }: { name: string; label: string; description: ReactNode }) {
  const { field } = useController({ name });
  const editing = useEditing();
  return (
    <Switch
      label={label}
      description={description}
      checked={Boolean(field.value)}
      disabled={!editing}
      onChange={(event) => field.onChange(event.currentTarget.checked)}
      onBlur={field.onBlur}
    />
  );
}

/** One choice among a few, as radios in a row (a campaign's or a delivery's status); shown in edit mode. */
export function RadioField({
  name,
  label,
  options,
}: {
  name: string;
  label: string;
  options: { value: string; label: string }[];
}) {
  const { field, fieldState } = useController({ name });
  return (
    <Radio.Group
      label={label}
      name={field.name}
      value={field.value}
      onChange={field.onChange}
      error={fieldState.error?.message}
    >
      <Group gap="lg" mt={8}>
        {options.map((option) => (
          <Radio key={option.value} value={option.value} label={option.label} />
        ))}
      </Group>
    </Radio.Group>
  );
}

/** A read-only value that is not text (a status badge), labelled like the fields beside it. */
export function LabeledValue({ label, note, children }: { label: string; note?: ReactNode; children: ReactNode }) {
  return (
    <Stack gap={6}>
      <Text fz="sm" fw={500}>
        {label}
      </Text>
      <div>{children}</div>
      {note}
    </Stack>
  );
}

/** A value shown like a read-only field but not part of the form (ID, timestamps). */
export function DisplayField({ label, value }: { label: string; value: string | undefined }) {
  return <TextInput label={label} value={value ?? ''} readOnly variant="filled" />;
}

/** A saved record's ID and creation timestamp, read-only, as two grid columns of `span`. */
export function RecordStampFields({ id, ts, span }: { id: string; ts: number; span: GridColProps['span'] }) {
  return (
    <>
      <Grid.Col span={span}>
        <DisplayField label="ID" value={id} />
      </Grid.Col>
      <Grid.Col span={span}>
        <DisplayField label="Timestamp" value={formatTimestamp(ts)} />
      </Grid.Col>
    </>
  );
}
