import { MAX_SOURCE_COST } from '@leadex/domain';
import { MoneyField, TextField } from '../../components/FormFields';
import { SourceFormRows } from './SourceFormRows';
import { NEW_CHANNEL } from './sourceForm';

/**
 * The source's channels (name, max cost), edited as rows inside the Source form and sent whole.
 * A channel's max cost replaces the source's lead cost for leads sent on it.
 */
export function SourceChannels() {
  return (
    <SourceFormRows
      name="channels"
      item="channel"
      empty="No channels. Leads sent without a channel, or on a channel not listed, are paid the source’s lead cost."
      newRow={NEW_CHANNEL}
      first={(row) => <TextField name={`${row}.name`} label="Channel name" required />}
      second={(row) => (
        <MoneyField
          name={`${row}.max_cost`}
          label="Max cost"
          required
          max={MAX_SOURCE_COST}
          allowNegative={false}
          clampBehavior="none"
        />
      )}
    />
  );
}
