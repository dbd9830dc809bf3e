import {
  type CampaignFormValues,
  FIELD_FILTER_OP_LABELS,
  FIELD_FILTER_OPS_BY_TYPE,
  type FilterableField,
  type FilterFieldType,
  fieldFilterInputs,
  NEW_FIELD_FILTER,
} from '@leadex/domain';
import { Grid, Text } from '@mantine/core';
import { type ReactNode, useEffect, useMemo, useRef } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { useEditing } from '../../components/EditableForm';
import { ListField, MultiSelectField, SelectField, TextField } from '../../components/FormFields';
import { CampaignRowsSection } from './CampaignRowsSection';
import { type FilterFieldOption, useFilterFields } from './campaigns.api';
import { TypedNumberField } from './TypedNumberField';

const BOOLEAN_OPTIONS = [
  { value: 'true', label: 'Yes' },
  { value: 'false', label: 'No' },
];

const optionsOf = (field: FilterableField | undefined) =>
  (field?.options ?? []).map((o) =>
    typeof o === 'string' ? { value: o, label: o } : { value: o.value, label: o.label ?? o.value },
  );

/**
 * Field Filters (issue 33): rules on the fields of the campaign's services, every one of which a lead
 * must meet. The field picker offers the fields of the services chosen above, the operator those its
 * type allows, and the value inputs fit the type (a choice's options, yes/no, dollars, a date).
 */
export function FieldFilters() {
  const editing = useEditing();
  const services = useWatch<CampaignFormValues, 'services'>({ name: 'services' });
  const options = useFilterFields(services ?? []);
  const list = options.data ?? [];

  return (
    <CampaignRowsSection
      name="field_filters"
      title="Field Filters"
      description="Leads must meet every rule. A rule applies to the leads of the services that have its field; a field sent only with the post is checked at post."
      newRow={NEW_FIELD_FILTER}
      item="filter"
      addLabel="Add Filter"
      row={(index, removeButton) => <FilterRow index={index} fields={list} removeButton={removeButton} />}
    >
      {editing && list.length === 0 && (
        <Text c="dimmed" fz="xs">
          The campaign's services have no fields to filter on.
        </Text>
      )}
    </CampaignRowsSection>
  );
}

function FilterRow({
  index,
  fields,
  removeButton,
}: {
  index: number;
  fields: FilterFieldOption[];
  removeButton: ReactNode;
}) {
  const { setValue, getValues } = useFormContext<CampaignFormValues>();
  const at = (part: string) => `field_filters.${index}.${part}`;
  const key = useWatch<CampaignFormValues, `field_filters.${number}.field`>({ name: `field_filters.${index}.field` });
  const op = useWatch<CampaignFormValues, `field_filters.${number}.op`>({ name: `field_filters.${index}.op` });
  const field = fields.find((f) => f.key === key);
  const type = (field?.type ?? getValues(`field_filters.${index}.type`) ?? '') as FilterFieldType | '';
  const fieldOptions = useMemo(
    () => fields.map((f) => ({ value: f.key, label: `${f.label} (${f.services.join(', ')})` })),
    [fields],
  );
  const opOptions = useMemo(
    () =>
      (type ? FIELD_FILTER_OPS_BY_TYPE[type] : []).map((value) => ({ value, label: FIELD_FILTER_OP_LABELS[value] })),
    [type],
  );

  // Choosing another field keeps the row's type in step and clears an operator the new type does not allow.
  const seen = useRef(key);
  useEffect(() => {
    if (!field) return;
    if (getValues(`field_filters.${index}.type`) !== field.type)
      setValue(`field_filters.${index}.type`, field.type, { shouldDirty: true });
    if (seen.current !== key) {
      seen.current = key;
      const current = getValues(`field_filters.${index}.op`);
      if (current && !FIELD_FILTER_OPS_BY_TYPE[field.type].includes(current))
        setValue(`field_filters.${index}.op`, '', { shouldDirty: true });
    }
  }, [field, key, index, getValues, setValue]);

  const inputs = fieldFilterInputs(op ?? '');
  return (
    <Grid gap="sm" align="flex-start">
      <Grid.Col span={{ base: 12, md: 4 }}>
        <SelectField
          name={at('field')}
          label="Field"
          required
          placeholder="Choose a field"
          data={fieldOptions}
          searchable
          allowDeselect={false}
        />
      </Grid.Col>
      <Grid.Col span={{ base: 12, sm: 5, md: 2 }}>
        <SelectField
          name={at('op')}
          label="Operator"
          required
          placeholder="Choose"
          data={opOptions}
          allowDeselect={false}
        />
      </Grid.Col>
      <Grid.Col span={{ base: 12, sm: 7, md: 5 }}>
        <ValueInputs index={index} field={field} type={type} inputs={inputs} />
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 1 }}>{removeButton}</Grid.Col>
    </Grid>
  );
}

/** The value inputs an operator reads, fitting the field's type. */
function ValueInputs({
  index,
  field,
  type,
  inputs,
}: {
  index: number;
  field: FilterableField | undefined;
  type: FilterFieldType | '';
  inputs: ReturnType<typeof fieldFilterInputs>;
}) {
  const at = (part: string) => `field_filters.${index}.${part}`;
  if (inputs === 'none') return null;
  if (inputs === 'values') {
    return type === 'choice' ? (
      <MultiSelectField name={at('values')} label="Values" required data={optionsOf(field)} searchable />
    ) : (
      <ListField name={at('values')} label="Values" required placeholder="Type a value, then Enter" />
    );
  }
  const one = (part: 'value' | 'min' | 'max', label: string) => {
    if (type === 'money') return <TypedNumberField name={at(part)} label={label} money required />;
    if (type === 'number') return <TypedNumberField name={at(part)} label={label} required />;
    if (type === 'date') return <TextField name={at(part)} label={label} type="date" required />;
    if (type === 'boolean') return <SelectField name={at(part)} label={label} data={BOOLEAN_OPTIONS} required />;
    if (type === 'choice') return <SelectField name={at(part)} label={label} data={optionsOf(field)} required />;
    return <TextField name={at(part)} label={label} required />;
  };
  if (inputs === 'range')
    return (
      <Grid gap="sm">
        <Grid.Col span={6}>{one('min', 'From')}</Grid.Col>
        <Grid.Col span={6}>{one('max', 'To')}</Grid.Col>
      </Grid>
    );
  return one('value', 'Value');
}
