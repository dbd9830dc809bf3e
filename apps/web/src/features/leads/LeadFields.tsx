import type { LeadFieldFlag } from '@leadex/domain';
import {
  ActionIcon,
  Anchor,
  Grid,
  type GridColProps,
  Group,
  Input,
  Text,
  Textarea,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { IconExternalLink } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { DataTableColumn } from '../../components/DataTable';
import { YesNoBadge } from './LeadBadges';
import { safeHref } from './leadFormat';

/**
 * What the source sent for a field the exchange could not read, or that contradicts another (issue 32),
 * said next to the field: the value as sent, then the problem. Nothing when the field is not flagged.
 */
export function FieldFlagNote({ lead, field }: { lead: { field_flags?: LeadFieldFlag[] }; field: string }) {
  const flags = lead.field_flags?.filter((f) => f.field === field) ?? [];
  if (flags.length === 0) return null;
  return flags.map((flag) => (
    <Text key={flag.problem} component="span" display="block" fz="xs" c="red.9" data-field-flag={field}>
      Sent “{flag.value}”. {flag.problem}
    </Text>
  ));
}

/** A read-only text of a lead, labelled like the form's fields; `note` under the label (a field's flag). */
export function ValueField({ label, value, note }: { label: string; value: string | undefined; note?: ReactNode }) {
  return <TextInput label={label} description={note} value={value ?? ''} readOnly variant="filled" />;
}

/** A long read-only text (the TCPA language). */
export function LongValueField({ label, value }: { label: string; value: string | undefined }) {
  return <Textarea label={label} value={value ?? ''} readOnly variant="filled" autosize minRows={1} maxRows={8} />;
}

/** One read-only text of ValueCols: `field` names the lead's field whose flag it shows; `long` for a paragraph. */
export interface ValueCol {
  label: string;
  value: string | undefined;
  span?: GridColProps['span'];
  field?: string;
  long?: boolean;
}

/**
 * Read-only text fields in a row of grid columns (`span` each, a third of a wide screen unless told);
 * a field that names the lead's `field` shows its flag, if it has one.
 */
export function ValueCols({
  lead,
  fields,
  span: defaultSpan = { base: 12, sm: 6, lg: 4 },
}: {
  lead?: { field_flags?: LeadFieldFlag[] };
  fields: ValueCol[];
  span?: GridColProps['span'];
}) {
  return fields.map(({ label, value, span, field, long }) => (
    <Grid.Col key={label} span={span ?? defaultSpan}>
      {long ? (
        <LongValueField label={label} value={value} />
      ) : (
        <ValueField
          label={label}
          value={value}
          note={lead && field ? <FieldFlagNote lead={lead} field={field} /> : undefined}
        />
      )}
    </Grid.Col>
  ));
}

/** A value that is not text (a badge, a link), labelled as the inputs beside it are. */
export function LabeledField({ label, children, note }: { label: string; children: ReactNode; note?: ReactNode }) {
  return (
    // A div, not a label: there is no input to label.
    <Input.Wrapper label={label} labelElement="div" description={note}>
      <div style={{ paddingTop: 6 }}>{children}</div>
    </Input.Wrapper>
  );
}

/** A flag as a Yes/No badge (Unknown when not sent), labelled like the fields beside it. */
export function FlagField({ label, value, note }: { label: string; value: boolean | undefined; note?: ReactNode }) {
  return (
    <LabeledField label={label} note={note}>
      <YesNoBadge value={value} size="lg" />
    </LabeledField>
  );
}

/**
 * Opens a certificate URL a source sent, in a new tab; only http and https URLs get the button, so
 * `javascript:` and other schemes stay inert text.
 */
export function OpenLinkButton({ url, label }: { url: string | undefined; label: string }) {
  const href = safeHref(url);
  if (!href) return null;
  return (
    <Tooltip label={label}>
      <ActionIcon
        component="a"
        href={href}
        target="_blank"
        rel="noopener noreferrer"
        variant="subtle"
        aria-label={label}
      >
        <IconExternalLink size={16} />
      </ActionIcon>
    </Tooltip>
  );
}

/**
 * A read-only URL field with the button that opens `openUrl` (the value itself unless said otherwise;
 * none when it is not http or https), and a note under it (a field flag) when there is one.
 */
export function UrlValueField({
  label,
  value,
  openLabel,
  openUrl = value,
  note,
}: {
  label: string;
  value: string | undefined;
  openLabel: string;
  openUrl?: string | undefined;
  note?: ReactNode;
}) {
  return (
    <TextInput
      label={label}
      description={note}
      value={value ?? ''}
      readOnly
      variant="filled"
      rightSection={<OpenLinkButton url={openUrl} label={openLabel} />}
      rightSectionPointerEvents="all"
    />
  );
}

/** A value after its dimmed name, in a line of them (a match's buyer and campaign, a ping's delivery). */
export function Labeled({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Group gap={6}>
      <Text fz="sm" c="dimmed">
        {label}
      </Text>
      {children}
    </Group>
  );
}

/** A link to another record of the back office, or its name as text when there is no id. */
export function RecordLink({ to, children }: { to: string | undefined; children: string }) {
  if (!to) return <Text fz="sm">{children}</Text>;
  return (
    <Anchor component={Link} to={to} fz="sm">
      {children}
    </Anchor>
  );
}

/** A table column whose cell links to a record: `link` answers the record's path (none: plain text) and text. */
export function recordLinkColumn<T>(
  accessor: string,
  title: string,
  link: (record: T) => { to: string | undefined; text: string },
): DataTableColumn<T> {
  return {
    accessor,
    title,
    noWrap: true,
    render: (record) => {
      const { to, text } = link(record);
      return <RecordLink to={to}>{text}</RecordLink>;
    },
  };
}

/** Badges in a row under a title. */
export function BadgeRow({ children }: { children: ReactNode }) {
  return (
    <Group gap="xs" component="span" wrap="wrap">
      {children}
    </Group>
  );
}
