import { Grid, Stack, Text } from '@mantine/core';
import { useFieldArray, useFormContext } from 'react-hook-form';
import { useEditing } from '../../components/EditableForm';
import { SelectField, TextField } from '../../components/FormFields';
import { AddRowButton, RemoveRowButton } from '../../components/RowButtons';
import { useServiceOptions } from '../../components/ServiceName';
import { useServices } from '../campaigns/campaigns.api';
import { NEW_CAMPAIGN_SERVICE, type SourceFormValues } from './sourceForm';

const NO_SERVICES: string[] = [];

/**
 * Which service a lead sent without `service` is for (issue 32 item 3): the service its platform
 * campaign id maps to (LeadsPedia's and Lead Prosper's `lp_campaign_id`, boberdoo's `TYPE`), else the
 * source's default. Edited inside the Source form; the map is sent whole.
 */
export function SourceServiceRouting() {
  const editing = useEditing();
  const { control } = useFormContext<SourceFormValues>();
  const { fields, append, remove } = useFieldArray({ control, name: 'campaign_services' });
  const services = useServices();
  const options = useServiceOptions(services.data ?? NO_SERVICES);

  return (
    <Stack gap="sm">
      <Grid gap="sm">
        <Grid.Col span={{ base: 12, sm: 6 }}>
          <SelectField
            name="default_service"
            label="Default service"
            description="For a lead sent without a service (an API key's own default wins)"
            data={options}
            clearable
            searchable
            placeholder="None: a lead must name its service"
          />
        </Grid.Col>
      </Grid>
      <Text fw={500} fz="sm">
        Campaign ids
      </Text>
      {fields.length === 0 && (
        <Text c="dimmed" fz="sm">
          No campaign ids. A platform’s campaign id (lp_campaign_id, campaign_id, TYPE, Lead_Type) can name the service
          of its leads here.
        </Text>
      )}
      {fields.map((field, index) => (
        <Grid key={field.id} gap="sm" align="flex-start">
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <TextField name={`campaign_services.${index}.campaign_id`} label="Campaign id" required />
          </Grid.Col>
          <Grid.Col span={{ base: 10, sm: 5 }}>
            <SelectField
              name={`campaign_services.${index}.service`}
              label="Service"
              required
              data={options}
              searchable
              allowDeselect={false}
            />
          </Grid.Col>
          {editing && (
            <Grid.Col span={{ base: 2, sm: 1 }} pt={30}>
              <RemoveRowButton
                label={`Remove campaign id ${index + 1}`}
                tooltip="Remove campaign id"
                onClick={() => remove(index)}
              />
            </Grid.Col>
          )}
        </Grid>
      ))}
      {editing && <AddRowButton onClick={() => append({ ...NEW_CAMPAIGN_SERVICE })}>Add Campaign Id</AddRowButton>}
    </Stack>
  );
}
