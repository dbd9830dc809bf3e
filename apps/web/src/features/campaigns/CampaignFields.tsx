import { Group, MultiSelect, type MultiSelectProps, Radio, TagsInput, type TagsInputProps } from '@mantine/core';
import { Controller, useFormContext } from 'react-hook-form';
import { useEditing } from '../../components/EditableForm';
import { ZipTagsInput, type ZipTagsInputProps } from '../../components/ZipTagsInput';
import { EMPTY_LIST } from './campaignForm';

/**
 * Inputs of the Campaign form that FormFields does not have: bound to the surrounding EditableForm,
 * editable in edit mode and read-only (filled) otherwise, with the field's message under them.
 */
interface BoundProps {
  name: string;
  /** What an empty field reads while read-only ('N/A', 'None'), instead of a blank box. */
  emptyText?: string;
}

function useMode() {
  const readOnly = !useEditing();
  return { readOnly, variant: readOnly ? 'filled' : 'default' } as const;
}

/** Several choices from a list (services, states). */
export function MultiSelectField({ name, emptyText, ...props }: BoundProps & Omit<MultiSelectProps, 'name'>) {
  const { control } = useFormContext();
  const mode = useMode();
  return (
    <Controller
      name={name}
      control={control}
      render={({ field, fieldState }) => (
        <MultiSelect
          limit={50}
          {...props}
          {...mode}
          placeholder={mode.readOnly ? (field.value?.length ? undefined : emptyText) : props.placeholder}
          clearable={!mode.readOnly && props.clearable}
          // Read-only, no chevron inviting a click.
          rightSection={mode.readOnly ? <span /> : props.rightSection}
          ref={field.ref}
          name={field.name}
          value={field.value ?? []}
          onChange={field.onChange}
          onBlur={field.onBlur}
          error={fieldState.error?.message}
        />
      )}
    />
  );
}

/** A free list of texts (email addresses, phone numbers, URLs), one pill each. */
export function ListField({ name, emptyText = EMPTY_LIST, ...props }: BoundProps & Omit<TagsInputProps, 'name'>) {
  const { control } = useFormContext();
  const mode = useMode();
  return (
    <Controller
      name={name}
      control={control}
      render={({ field, fieldState }) => (
        <TagsInput
          splitChars={[',', ' ']}
          acceptValueOnBlur
          maxTags={200}
          {...props}
          {...mode}
          placeholder={mode.readOnly ? (field.value?.length ? undefined : emptyText) : props.placeholder}
          clearable={!mode.readOnly}
          ref={field.ref}
          name={field.name}
          value={field.value ?? []}
          onChange={field.onChange}
          onBlur={field.onBlur}
          error={fieldState.error?.message}
        />
      )}
    />
  );
}

/** ZIP codes as tags (see ZipTagsInput). */
export function ZipTagsField({
  name,
  emptyText,
  ...props
}: BoundProps & Omit<ZipTagsInputProps, 'name' | 'value' | 'onChange'>) {
  const { control } = useFormContext();
  const mode = useMode();
  return (
    <Controller
      name={name}
      control={control}
      render={({ field, fieldState }) => (
        <ZipTagsInput
          {...props}
          {...mode}
          placeholder={mode.readOnly ? (field.value?.length ? undefined : emptyText) : props.placeholder}
          ref={field.ref}
          name={field.name}
          value={field.value ?? []}
          onChange={field.onChange}
          onBlur={field.onBlur}
          error={fieldState.error?.message}
        />
      )}
    />
  );
}

/** One choice among a few, as radios in a row (the campaign status). */
export function RadioField({
  name,
  label,
  options,
}: BoundProps & { label: string; options: { value: string; label: string }[] }) {
  const { control } = useFormContext();
  return (
    <Controller
      name={name}
      control={control}
      render={({ field, fieldState }) => (
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
      )}
    />
  );
}
