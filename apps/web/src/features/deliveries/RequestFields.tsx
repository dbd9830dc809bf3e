import { CONTENT_TYPES, WEBHOOK_METHODS } from '@leadex/domain';
import { Divider, Grid, Text } from '@mantine/core';
import { useEditing } from '../../components/EditableForm';
import { SelectField, TextField } from '../../components/FormFields';
import { FieldValueRows, RowsField } from './DeliveryRows';

const METHOD_OPTIONS = WEBHOOK_METHODS.map((value) => ({ value, label: value }));
const CONTENT_TYPE_OPTIONS = CONTENT_TYPES.map((value) => ({ value, label: value }));

/** Placeholders are hints for typing: read-only, they would read as values. */
export function useHint(): (text: string) => string | undefined {
  return useEditing() ? (text) => text : () => undefined;
}

/**
 * Where and how a call is sent (the grid columns of URL, method, send and return content types and
 * wrap key): the post's (admin §2 Delivery Parameters), or the ping's under `ping.` labelled "Ping …".
 */
export function RequestFields({
  prefix = '',
  label = '',
  urlHint,
  wrapHint,
}: {
  /** The fields' path in the form ('' or 'ping.'). */
  prefix?: string;
  /** Put before each label ('Ping '). */
  label?: string;
  urlHint: string;
  wrapHint: string;
}) {
  const hint = useHint();
  return (
    <>
      <Grid.Col span={{ base: 12, md: 9 }}>
        <TextField name={`${prefix}url`} label={`${label}URL`} required placeholder={hint(urlHint)} />
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 3 }}>
        <SelectField name={`${prefix}method`} label={`${label}Method`} data={METHOD_OPTIONS} allowDeselect={false} />
      </Grid.Col>
      {(['send', 'return'] as const).map((way) => (
        <Grid.Col key={way} span={{ base: 6, md: 3 }}>
          <SelectField
            name={`${prefix}${way}_content_type`}
            label={`${label}${way === 'send' ? 'Send' : 'Return'} Content Type`}
            data={CONTENT_TYPE_OPTIONS}
            allowDeselect={false}
          />
        </Grid.Col>
      ))}
      <Grid.Col span={{ base: 6, md: 3 }}>
        <TextField name={`${prefix}wrap_key`} label={`${label}Wrap Key`} placeholder={hint(wrapHint)} />
      </Grid.Col>
    </>
  );
}

/**
 * A call's headers and the accept rules its answer must meet (the post's, or the ping's under `ping.`,
 * each label then starting with "Ping "); `acceptNote` says when the answer is taken.
 */
export function HeadersAndAccept({
  prefix = '',
  label = '',
  acceptNote,
}: {
  prefix?: string;
  label?: string;
  acceptNote: string;
}) {
  return (
    <>
      <Divider label={`${label}Headers`} labelPosition="left" />
      <RowsField
        name={`${prefix}headers`}
        title={`${label}Header`}
        columns={[
          { key: 'header', label: 'Header', placeholder: 'X-Api-Key' },
          { key: 'value', label: 'Value' },
        ]}
        addLabel={`Add ${label}Header`}
      />
      <Divider label={`${label}Accept`} labelPosition="left" />
      <Text fz="xs" c="dimmed" mt={-8}>
        {acceptNote}
      </Text>
      <FieldValueRows
        name={`${prefix}accept`}
        title={`${label}Accept`}
        examples={['status', 'ok']}
        addLabel={`Add ${label}Accept Rule`}
      />
    </>
  );
}

/**
 * The post's "try again" rules (issue 32): an answer that is not accepted but holds every one of them
 * (LeadConduit's `outcome` = `error`) is retried with the delivery backoff instead of refusing the lead.
 */
export function RetryRows() {
  return (
    <>
      <Divider label="Retry" labelPosition="left" />
      <Text fz="xs" c="dimmed" mt={-8}>
        Not accepted, but try again later, when every field of the response holds its value (e.g. outcome = error).
        Without rules, an answer that is not accepted refuses the lead.
      </Text>
      <FieldValueRows name="retry" title="Retry" examples={['outcome', 'error']} addLabel="Add Retry Rule" />
    </>
  );
}

/** The title of a list for its inputs' screen reader names: "Mapping 1 Field", or "Ping mapping 1 Field". */
const listTitle = (label: string, noun: string) =>
  label ? `${label}${noun}` : `${noun[0]?.toUpperCase()}${noun.slice(1)}`;

/**
 * A call's mapping: each lead field (one of `fields`, searched with `searchHint`) under the name the
 * buyer's system expects; the post's, or the ping's under `ping.`.
 */
export function MappingRows({
  prefix = '',
  label = '',
  fields,
  searchHint,
}: {
  prefix?: string;
  label?: string;
  fields: readonly string[];
  searchHint: string;
}) {
  return (
    <RowsField
      name={`${prefix}map`}
      title={listTitle(label, 'mapping')}
      columns={[
        { key: 'field', label: 'Field', placeholder: searchHint, options: fields.map((f) => ({ value: f, label: f })) },
        { key: 'value', label: 'Value', placeholder: 'Name in your system' },
      ]}
      addLabel={`Add ${label}Mapping`}
    />
  );
}

/** The values a call sends with every lead (the post's, or the ping's under `ping.`). */
export function HardcodedValueRows({ prefix = '', label = '' }: { prefix?: string; label?: string }) {
  return (
    <FieldValueRows
      name={`${prefix}static`}
      title={listTitle(label, 'hardcoded value')}
      examples={['vendor', 'leadex']}
      addLabel={`Add ${label}Hardcoded Value`}
    />
  );
}
