import type { CampaignFormValues } from '@leadex/domain';
import { Paper, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { type FieldArray, useFieldArray, useFormContext } from 'react-hook-form';
import { useEditing } from '../../components/EditableForm';
import { AddRowButton, RemoveRowButton } from '../../components/RowButtons';
import { Section } from '../../components/Section';

type RowsName = 'field_filters' | 'source_filter';

/**
 * A section of the campaign's rules kept as rows (Field Filters, Source Restrictions): "None" while
 * there are none, each row on its own grey card with its remove button, and an add button while editing.
 */
export function CampaignRowsSection<N extends RowsName>({
  name,
  title,
  description,
  item,
  newRow,
  addLabel,
  row,
  children,
}: {
  /** The form's list of rows. */
  name: N;
  title: string;
  description: string;
  /** What a row is, in lower case (`filter`): its remove button names it. */
  item: string;
  /** What a new row starts as (a copy of it). */
  newRow: FieldArray<CampaignFormValues, N>;
  addLabel: string;
  /** The row at `index`, given its remove button to place (nothing unless editing). */
  row: (index: number, removeButton: ReactNode) => ReactNode;
  /** Below the add button (a note on what can be added). */
  children?: ReactNode;
}) {
  const editing = useEditing();
  const { control } = useFormContext<CampaignFormValues>();
  const { fields, append, remove } = useFieldArray<CampaignFormValues, N>({ control, name });
  return (
    <Section title={title} description={description}>
      <Stack gap="sm">
        {fields.length === 0 && (
          <Text c="dimmed" fz="sm">
            None
          </Text>
        )}
        {fields.map((field, index) => (
          <Paper key={field.id} withBorder p="sm" radius="md" bg="var(--mantine-color-gray-0)">
            {row(
              index,
              editing && (
                <RemoveRowButton
                  label={`Remove ${item} ${index + 1}`}
                  tooltip={`Remove this ${item}`}
                  mt={26}
                  onClick={() => remove(index)}
                />
              ),
            )}
          </Paper>
        ))}
        {editing && (
          <AddRowButton size="xs" onClick={() => append(structuredClone(newRow))}>
            {addLabel}
          </AddRowButton>
        )}
        {children}
      </Stack>
    </Section>
  );
}
