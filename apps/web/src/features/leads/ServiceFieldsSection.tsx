import { formatFieldValue, type LeadFields, type ServiceField } from '@leadex/domain';
import { Badge, Grid, Group, Text } from '@mantine/core';
import { Section } from '../../components/Section';
import { useServiceFields } from '../reference/reference.api';
import { ValueField } from './LeadFields';

/** A lead's field as a screen shows it: its definition (when its service still has one), its label and value. */
export interface ShownLeadField {
  key: string;
  label: string;
  value: string;
  removed: boolean;
  personal: boolean;
}

/**
 * A lead's own fields (issue 33) in its service's order, labelled, each value as a person reads it
 * (money in dollars, Yes or No); a field the service no longer has (removed, or never defined) still
 * shows, marked, under its label or its key.
 */
export function shownLeadFields(
  fields: LeadFields | undefined,
  definitions: readonly ServiceField[] | undefined,
): ShownLeadField[] {
  if (!fields) return [];
  const defs = definitions ?? [];
  const known = defs
    .filter((d) => fields[d.key] !== undefined)
    .map((d) => ({
      key: d.key,
      label: d.label,
      value: formatFieldValue(d, fields[d.key] as NonNullable<LeadFields[string]>),
      removed: d.removed,
      personal: d.personal,
    }));
  const unknown = Object.entries(fields)
    .filter(([key]) => !defs.some((d) => d.key === key))
    .map(([key, value]) => ({
      key,
      label: key,
      value: formatFieldValue(undefined, value),
      removed: true,
      personal: false,
    }));
  return [...known, ...unknown];
}

/**
 * The lead's service's definitions, from GET /api/services/fields; undefined until they are read, so no
 * field shows as removed while they load (a service without definitions answers an empty list).
 */
export function useServiceFieldsOf(service: string | undefined) {
  const all = useServiceFields();
  if (all.isError) return [];
  return all.data && (all.data.find((s) => s.service === service)?.fields ?? []);
}

/** The section "Service Fields" of a lead detail (admin, buyer, source): nothing when the lead has none. */
export function ServiceFieldsSection({ lead }: { lead: { service: string; fields?: LeadFields } }) {
  const definitions = useServiceFieldsOf(lead.service);
  if (definitions === undefined) return null;
  const shown = shownLeadFields(lead.fields, definitions);
  if (shown.length === 0) return null;
  return (
    <Section title="Service Fields" description="What the source sent for the fields of this lead's service.">
      <Grid gap="md">
        {shown.map((f) => (
          <Grid.Col key={f.key} span={{ base: 12, sm: 6, lg: 4 }} data-service-field={f.key}>
            <ValueField
              label={f.label}
              value={f.value}
              note={
                f.removed || f.personal ? (
                  <Group gap={4} component="span">
                    {f.removed && (
                      <Badge size="xs" color="gray" variant="light" component="span">
                        Removed field
                      </Badge>
                    )}
                    {f.personal && (
                      <Text component="span" fz="xs" c="dimmed">
                        Personal
                      </Text>
                    )}
                  </Group>
                ) : undefined
              }
            />
          </Grid.Col>
        ))}
      </Grid>
    </Section>
  );
}
