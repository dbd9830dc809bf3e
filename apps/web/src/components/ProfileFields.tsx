import { type TagKind, US_STATES } from '@leadex/domain';
import { Grid } from '@mantine/core';
import type { ReactNode } from 'react';
import { SelectField, TagsFormField, TextareaField, TextField } from './FormFields';

const STATE_OPTIONS = [...US_STATES];

/**
 * Address, City, State and Zip as columns of a record's Details grid (a buyer's Profile, a source's
 * Details), bound to the form's `address`, `city`, `state` and `zip` (see AddressFormValues).
 */
export function AddressFields({ notes }: { notes?: Partial<Record<'address' | 'city' | 'state' | 'zip', ReactNode>> }) {
  return (
    <>
      <Grid.Col span={{ base: 12, sm: 6, lg: 5 }}>
        <TextField name="address" label="Address" description={notes?.address} />
      </Grid.Col>
      <Grid.Col span={{ base: 12, sm: 6, lg: 3 }}>
        <TextField name="city" label="City" description={notes?.city} />
      </Grid.Col>
      <Grid.Col span={{ base: 6, lg: 2 }}>
        <SelectField name="state" label="State" data={STATE_OPTIONS} searchable clearable description={notes?.state} />
      </Grid.Col>
      <Grid.Col span={{ base: 6, lg: 2 }}>
        <TextField name="zip" label="Zip" maxLength={5} inputMode="numeric" description={notes?.zip} />
      </Grid.Col>
    </>
  );
}

/** Notes and Tags, each a full row of the grid, closing a buyer's or a source's details. */
export function NotesAndTagsFields({ kind }: { kind: TagKind }) {
  return (
    <>
      <Grid.Col span={12}>
        <TextareaField name="notes" label="Notes" />
      </Grid.Col>
      <TagsRow kind={kind} />
    </>
  );
}

/** A record's Tags as a full row of its Details grid, typed in alike on every record that has tags. */
export function TagsRow({ kind }: { kind: TagKind }) {
  return (
    <Grid.Col span={12}>
      <TagsFormField name="tags" kind={kind} label="Tags" placeholder="Add a tag and press Enter" />
    </Grid.Col>
  );
}
