import { TextInput } from '@mantine/core';
import { useController } from 'react-hook-form';
import { useEditing } from '../../components/EditableForm';

/**
 * A number of the Campaign form (price, shared price, limits, a source restriction's price or
 * percent) kept exactly as typed (issue 27): a limit of 0, a price of -5 or "abcde" stay in the box
 * and the form's rules say what is wrong with them ('Hourly limit must be at least 1', 'Price must
 * be at least 0', 'Price must be a number'), where a number input would clamp or drop them unseen.
 * Read-only, money reads with its cents.
 */
export function TypedNumberField({
  name,
  label,
  money = false,
  suffix,
  required,
  placeholder,
}: {
  name: string;
  label: string;
  /** Dollars: '$' before it, two decimals while read-only. */
  money?: boolean;
  /** A unit after the value ('%'). */
  suffix?: string;
  required?: boolean;
  placeholder?: string;
}) {
  const { field, fieldState } = useController({ name });
  const editing = useEditing();
  const value: unknown = field.value;
  const text =
    value === null || value === undefined
      ? ''
      : !editing && money && typeof value === 'number'
        ? value.toFixed(2)
        : String(value);
  // Read-only, the unit reads with the value ("50%"), as it did in the number input.
  const shown = !editing && suffix && text !== '' ? `${text}${suffix}` : text;
  return (
    <TextInput
      label={label}
      inputMode={money ? 'decimal' : 'numeric'}
      leftSection={money ? '$' : undefined}
      rightSection={editing ? suffix : undefined}
      readOnly={!editing}
      variant={editing ? 'default' : 'filled'}
      required={required && editing}
      placeholder={placeholder}
      ref={field.ref}
      name={field.name}
      value={shown}
      onChange={(event) => field.onChange(event.currentTarget.value)}
      onBlur={field.onBlur}
      error={fieldState.error?.message}
    />
  );
}
