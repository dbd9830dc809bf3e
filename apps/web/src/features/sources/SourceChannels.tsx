import { MAX_SOURCE_COST } from '@leadex/domain';
import { Grid, Stack, Text } from '@mantine/core';
import { useFieldArray, useFormContext } from 'react-hook-form';
import { useEditing } from '../../components/EditableForm';
import { MoneyField, TextField } from '../../components/FormFields';
import { AddRowButton, RemoveRowButton } from '../../components/RowButtons';
import { NEW_CHANNEL, type SourceFormValues } from './sourceForm';

/**
 * The source's channels (name, max cost), edited as rows inside the Source form and sent whole.
 * A channel's max cost replaces the source's lead cost for leads sent on it.
 */
export function SourceChannels() {
  const editing = useEditing();
  const { control } = useFormContext<SourceFormValues>();
  const { fields, append, remove } = useFieldArray({ control, name: 'channels' });

  return (
    <Stack gap="sm">
      {fields.length === 0 && (
        <Text c="dimmed" fz="sm">
          No channels. Leads sent without a channel, or on a channel not listed, are paid the source’s lead cost.
        </Text>
      )}
      {fields.map((field, index) => (
        <Grid key={field.id} gap="sm" align="flex-start">
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <TextField name={`channels.${index}.name`} label="Channel name" required />
          </Grid.Col>
          <Grid.Col span={{ base: 10, sm: 5 }}>
            <MoneyField
              name={`channels.${index}.max_cost`}
              label="Max cost"
              required
              max={MAX_SOURCE_COST}
              allowNegative={false}
              clampBehavior="none"
            />
          </Grid.Col>
          {editing && (
            <Grid.Col span={{ base: 2, sm: 1 }} pt={30}>
              <RemoveRowButton
                label={`Remove channel ${index + 1}`}
                tooltip="Remove channel"
                onClick={() => remove(index)}
              />
            </Grid.Col>
          )}
        </Grid>
      ))}
      {editing && <AddRowButton onClick={() => append({ ...NEW_CHANNEL })}>Add Channel</AddRowButton>}
    </Stack>
  );
}
