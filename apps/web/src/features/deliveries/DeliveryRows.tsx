import { Grid, Stack, Text } from '@mantine/core';
import { useFieldArray, useFormContext } from 'react-hook-form';
import { useEditing } from '../../components/EditableForm';
import { SelectField, TextField } from '../../components/FormFields';
import { AddRowButton, RemoveRowButton } from '../../components/RowButtons';

export interface RowColumn {
  /** The row's key (`field`, `value`, `header`). */
  key: string;
  label: string;
  placeholder?: string;
  /** Choices: the column is a searchable select of them. */
  options?: { value: string; label: string }[];
}

export interface RowsFieldProps {
  /** The list's path in the form (`headers`, `map`). */
  name: string;
  /** What the list holds, for the screen reader names of its inputs ("Header 2"). */
  title: string;
  columns: [RowColumn, RowColumn];
  addLabel: string;
}

/**
 * A list of two-column rows (headers, accept rules, mapping, hardcoded values): rows can be added
 * (blank) and removed while editing; read-only, an empty list shows None (admin §2 Delivery detail).
 */
export function RowsField({ name, title, columns, addLabel }: RowsFieldProps) {
  const editing = useEditing();
  const { control } = useFormContext();
  const { fields, append, remove } = useFieldArray({ control, name });

  if (!editing && fields.length === 0) {
    return (
      <Text c="dimmed" fz="sm">
        None
      </Text>
    );
  }
  return (
    <Stack gap={8}>
      {fields.map((row, index) => (
        <Grid key={row.id} gap="sm" align="flex-start">
          {columns.map((column) => {
            const common = {
              name: `${name}.${index}.${column.key}`,
              label: index === 0 ? column.label : undefined,
              'aria-label': `${title} ${index + 1} ${column.label}`,
              placeholder: editing ? column.placeholder : undefined,
            };
            return (
              <Grid.Col key={column.key} span={{ base: editing ? 5 : 6, md: editing ? 5 : 6 }}>
                {column.options ? (
                  <SelectField {...common} data={column.options} searchable limit={10} allowDeselect={false} />
                ) : (
                  <TextField {...common} />
                )}
              </Grid.Col>
            );
          })}
          {editing && (
            <Grid.Col span={2}>
              <RemoveRowButton
                label={`Remove ${title} ${index + 1}`}
                tooltip="Remove this row"
                mt={index === 0 ? 25 : 0}
                onClick={() => remove(index)}
              />
            </Grid.Col>
          )}
        </Grid>
      ))}
      {editing && (
        <AddRowButton size="xs" onClick={() => append(Object.fromEntries(columns.map((column) => [column.key, ''])))}>
          {addLabel}
        </AddRowButton>
      )}
    </Stack>
  );
}

/** Rows of a field and its value (accept rules, hardcoded values); `examples` are the two placeholders. */
export function FieldValueRows({
  name,
  title,
  examples: [field, value],
  addLabel,
}: Omit<RowsFieldProps, 'columns'> & { examples: [string, string] }) {
  return (
    <RowsField
      name={name}
      title={title}
      columns={[
        { key: 'field', label: 'Field', placeholder: field },
        { key: 'value', label: 'Value', placeholder: value },
      ]}
      addLabel={addLabel}
    />
  );
}
