import { Grid, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { type FieldArray, useFieldArray, useFormContext } from 'react-hook-form';
import { useEditing } from '../../components/EditableForm';
import { AddRowButton, RemoveRowButton } from '../../components/RowButtons';
import type { SourceFormValues } from './sourceForm';

type RowList = 'channels' | 'campaign_services';

/**
 * A list of two-field rows inside the Source form (its channels, its campaign ids), sent whole: a
 * dimmed sentence when there is none, each row's fields with its remove button, and the add button.
 */
export function SourceFormRows<L extends RowList>({
  name,
  item,
  empty,
  newRow,
  first,
  second,
}: {
  name: L;
  /** What a row is, in lower case (`channel`): the remove and add buttons name it. */
  item: string;
  /** The sentence shown when there are no rows. */
  empty: ReactNode;
  newRow: FieldArray<SourceFormValues, L>;
  /** The row's fields, given the row's path in the form (`channels.0`). */
  first: (path: `${L}.${number}`) => ReactNode;
  second: (path: `${L}.${number}`) => ReactNode;
}) {
  const editing = useEditing();
  const { control } = useFormContext<SourceFormValues>();
  const { fields, append, remove } = useFieldArray({ control, name });
  const label = item.replace(/(^| )\w/g, (c) => c.toUpperCase());
  return (
    <Stack gap="sm">
      {fields.length === 0 && (
        <Text c="dimmed" fz="sm">
          {empty}
        </Text>
      )}
      {fields.map((field, index) => (
        <Grid key={field.id} gap="sm" align="flex-start">
          <Grid.Col span={{ base: 12, sm: 6 }}>{first(`${name}.${index}`)}</Grid.Col>
          <Grid.Col span={{ base: 10, sm: 5 }}>{second(`${name}.${index}`)}</Grid.Col>
          {editing && (
            <Grid.Col span={{ base: 2, sm: 1 }} pt={30}>
              <RemoveRowButton
                label={`Remove ${item} ${index + 1}`}
                tooltip={`Remove ${item}`}
                onClick={() => remove(index)}
              />
            </Grid.Col>
          )}
        </Grid>
      ))}
      {editing && <AddRowButton onClick={() => append(structuredClone(newRow))}>Add {label}</AddRowButton>}
    </Stack>
  );
}
