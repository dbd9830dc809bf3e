import type { TagKind } from '@leadex/domain';
import {
  NumberInput,
  type NumberInputProps,
  Select,
  type SelectProps,
  Textarea,
  type TextareaProps,
  TextInput,
  type TextInputProps,
} from '@mantine/core';
import { Controller, useFormContext } from 'react-hook-form';
import { useEditing } from './EditableForm';
import { TagsField, type TagsFieldProps } from './TagsField';

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

function useMode(locked?: boolean, required?: boolean) {
  const editing = useEditing();
  const readOnly = !editing || Boolean(locked);
  // The asterisk is a hint for typing; on a value that cannot be changed it is noise.
  return { readOnly, variant: readOnly ? 'filled' : 'default', required: required && !readOnly } as const;
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
  const { control } = useFormContext();
  const mode = useMode(locked, props.required);
  return (
    <Controller
      name={name}
      control={control}
      render={({ field, fieldState }) => (
        <TextInput
          {...props}
          {...mode}
          ref={field.ref}
          name={field.name}
          value={mode.readOnly && format ? format(field.value ?? '') : (field.value ?? '')}
          onChange={field.onChange}
          onBlur={field.onBlur}
          error={fieldState.error?.message}
        />
      )}
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
  const { control } = useFormContext();
  const mode = useMode(locked, props.required);
  return (
    <Controller
      name={name}
      control={control}
      render={({ field, fieldState }) => (
        <Textarea
          autosize
          minRows={mode.readOnly && !field.value ? 1 : 3}
          maxRows={10}
          {...props}
          {...mode}
          placeholder={mode.readOnly ? emptyText : props.placeholder}
          ref={field.ref}
          name={field.name}
          value={field.value ?? ''}
          onChange={field.onChange}
          onBlur={field.onBlur}
          error={fieldState.error?.message}
        />
      )}
    />
  );
}

/**
 * A select whose empty value is '' (not null), which the shared schemas read as "not given". Read-only,
 * it shows the chosen option's label as plain text (no dropdown chevron inviting a click).
 */
export function SelectField({ name, locked, ...props }: BoundProps & Omit<SelectProps, 'name'>) {
  const { control } = useFormContext();
  const mode = useMode(locked, props.required);
  return (
    <Controller
      name={name}
      control={control}
      render={({ field, fieldState }) => {
        const value =
          field.value === '' || field.value === undefined || field.value === null ? null : String(field.value);
        if (mode.readOnly) {
          return (
            <TextInput
              label={props.label}
              aria-label={props['aria-label']}
              description={props.description}
              {...mode}
              ref={field.ref}
              name={field.name}
              value={optionLabel(props.data, value)}
              error={fieldState.error?.message}
            />
          );
        }
        return (
          <Select
            {...props}
            {...mode}
            ref={field.ref}
            name={field.name}
            value={value}
            onChange={(next) => field.onChange(next ?? '')}
            onBlur={field.onBlur}
            error={fieldState.error?.message}
          />
        );
      }}
    />
  );
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
  const { control } = useFormContext();
  const mode = useMode(locked, props.required);
  return (
    <Controller
      name={name}
      control={control}
      render={({ field, fieldState }) => (
        <NumberInput
          {...props}
          {...mode}
          hideControls={mode.readOnly || props.hideControls}
          ref={field.ref}
          name={field.name}
          value={field.value ?? ''}
          onChange={field.onChange}
          onBlur={field.onBlur}
          error={fieldState.error?.message}
        />
      )}
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
  const { control } = useFormContext();
  const mode = useMode(locked, props.required);
  return (
    <Controller
      name={name}
      control={control}
      render={({ field, fieldState }) => (
        <TagsField
          {...props}
          {...mode}
          kind={kind}
          ref={field.ref}
          name={field.name}
          value={field.value ?? []}
          onChange={field.onChange}
          onBlur={field.onBlur}
          error={fieldState.error?.message}
          // Admin §8: an empty tag list shows N/A (TagsInput shows a placeholder beside pills too).
          placeholder={mode.readOnly ? (field.value?.length ? undefined : EMPTY_TAGS) : props.placeholder}
        />
      )}
    />
  );
}

/** A value shown like a read-only field but not part of the form (ID, timestamps). */
export function DisplayField({ label, value }: { label: string; value: string | undefined }) {
  return <TextInput label={label} value={value ?? ''} readOnly variant="filled" />;
}
