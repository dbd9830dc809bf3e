import { Grid, Stack, Text } from '@mantine/core';
import { SelectField, TextField } from '../../components/FormFields';
import { useServiceOptions } from '../../components/ServiceName';
import { useServices } from '../campaigns/campaigns.api';
import { SourceFormRows } from './SourceFormRows';
import { NEW_CAMPAIGN_SERVICE } from './sourceForm';

const NO_SERVICES: string[] = [];

/**
 * Which service a lead sent without `service` is for (issue 32 item 3): the service its platform
 * campaign id maps to (LeadsPedia's and Lead Prosper's `lp_campaign_id`, boberdoo's `TYPE`), else the
 * source's default. Edited inside the Source form; the map is sent whole.
 */
export function SourceServiceRouting() {
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
      <SourceFormRows
        name="campaign_services"
        item="campaign id"
        empty="No campaign ids. A platform’s campaign id (lp_campaign_id, campaign_id, TYPE, Lead_Type) can name the service of its leads here."
        newRow={NEW_CAMPAIGN_SERVICE}
        first={(row) => <TextField name={`${row}.campaign_id`} label="Campaign id" required />}
        second={(row) => (
          <SelectField
            name={`${row}.service`}
            label="Service"
            required
            data={options}
            searchable
            allowDeselect={false}
          />
        )}
      />
    </Stack>
  );
}
