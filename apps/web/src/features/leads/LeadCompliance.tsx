import type { ConsentEvidence, LeadCompliance } from '@leadex/domain';
import { Alert, Badge, Button, Code, Grid, Group, Stack, Text, TextInput } from '@mantine/core';
import { IconClock, IconDownload, IconLock, IconShieldCheck } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Section } from '../../components/Section';
import { api } from '../../lib/api';
import { fieldError } from '../../lib/forms';
import { queryKeys } from '../../lib/queryKeys';
import { ValueCols } from './LeadFields';

const path = (id: string, rest = '') => `/api/lead/${encodeURIComponent(id)}${rest}`;
const complianceKey = (id: string) => [...queryKeys.leads.detail(id), 'compliance'] as const;

/** GET /api/lead/{id}/compliance: the lead's consent evidence and the consumer's calling window. */
function useLeadCompliance(id: string) {
  return useQuery({
    queryKey: complianceKey(id),
    // An erased lead's sealed evidence answers a buyer 404: the sections are left out, without a toast.
    queryFn: ({ signal }) => api.get<LeadCompliance>(path(id, '/compliance'), { signal, toast: false }),
    retry: false,
  });
}

/** PUT / DELETE /api/lead/{id}/legal-hold (admin). */
function useLegalHold(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (on: boolean) => (on ? api.put(path(id, '/legal-hold'), {}) : api.delete(path(id, '/legal-hold'))),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: complianceKey(id) }),
  });
}

const text = (v: unknown): string | undefined => (v === null || v === undefined ? undefined : String(v));

/** The consent evidence's downloads, each a button named by its format. */
const EVIDENCE_FORMATS = ['pdf', 'json'] as const;

/**
 * Issue 34: the consumer's calling window (the state's hours in the consumer's zone, and whether the
 * lead may be called now) and the consent evidence recorded at the sale, with its hash and downloads.
 * Shown to the lead's buyers and the admin; the admin may put it under a legal hold.
 */
export function LeadComplianceSections({ leadId, admin = false }: { leadId: string; admin?: boolean }) {
  const compliance = useLeadCompliance(leadId);
  const hold = useLegalHold(leadId);
  const [reason, setReason] = useState('');
  // GET /api/lead/{id}/sealed-evidence: an erased lead's evidence, read by the admin with a reason (logged).
  const sealedRead = useMutation({
    mutationFn: () =>
      api.get<{ evidence: ConsentEvidence }>(
        path(leadId, `/sealed-evidence?reason=${encodeURIComponent(reason.trim())}`),
      ),
  });
  const data = compliance.data;
  if (!data) return null;
  const w = data.calling_window;
  const sealed = data.sealed ?? null;
  const e = data.evidence ?? (sealed ? (sealedRead.data?.evidence ?? null) : null);
  // A sealed record's downloads carry the reason (each one logged too).
  const download = (format: string) =>
    path(leadId, `/consent-evidence.${format}${sealed ? `?reason=${encodeURIComponent(reason.trim())}` : ''}`);
  const r = (e?.record ?? {}) as Record<string, unknown>;
  const consumer = (r.consumer ?? {}) as Record<string, unknown>;
  return (
    <>
      <Section title="Calling Window" description="When the consumer may be called, where the consumer lives.">
        {w ? (
          <Stack gap="xs">
            <Group gap="sm">
              <IconClock size={18} />
              <Text fw={600}>{w.text}</Text>
            </Group>
            <Text fz="sm">
              {w.now.open
                ? `Callable now until ${w.now.until} (${w.now.local_time} there).`
                : `Not callable now: ${w.now.reason} (${w.now.local_time} there).`}
            </Text>
            <Text fz="sm" c="dimmed">
              At arrival ({w.at_arrival.local_time}):{' '}
              {w.at_arrival.open ? `callable until ${w.at_arrival.until}` : `not callable, ${w.at_arrival.reason}`}.
              Time zone {w.zone}, from the {w.zone_from === 'area_code' ? 'phone’s area code' : w.zone_from}. Rule:{' '}
              {w.rule.source}, in force since {w.rule.effective}.
            </Text>
          </Stack>
        ) : (
          <Text fz="sm" c="dimmed">
            Neither the ZIP nor the phone tells the consumer’s time zone.
          </Text>
        )}
      </Section>

      <Section
        title="Consent Evidence"
        description="Recorded at the sale and never changed: what the consumer agreed to, where, and to whom."
        actions={
          e ? (
            <Group gap="xs">
              {EVIDENCE_FORMATS.map((format) => (
                <Button
                  key={format}
                  component="a"
                  href={download(format)}
                  download
                  variant="default"
                  size="xs"
                  leftSection={<IconDownload size={14} />}
                >
                  {format.toUpperCase()}
                </Button>
              ))}
              {admin && !sealed && (
                <Button
                  size="xs"
                  variant={e.legal_hold ? 'filled' : 'light'}
                  color="orange"
                  loading={hold.isPending}
                  onClick={() => hold.mutate(!e.legal_hold)}
                >
                  {e.legal_hold ? 'Lift Legal Hold' : 'Legal Hold'}
                </Button>
              )}
            </Group>
          ) : undefined
        }
      >
        {e ? (
          <Grid gap="md">
            <Grid.Col span={12}>
              <Group gap="sm">
                <Badge color={e.hash_checks ? 'green' : 'red'} leftSection={<IconShieldCheck size={12} />}>
                  {e.hash_checks ? 'Hash checks' : 'Hash does not check'}
                </Badge>
                {sealed && (
                  <Badge color="orange" leftSection={<IconLock size={12} />}>
                    Sealed: this read is logged
                  </Badge>
                )}
                <Text fz="xs" c="dimmed">
                  Recorded {e.recorded_at} · {e.legal_hold ? 'under a legal hold' : `kept until ${e.retained_until}`}
                </Text>
              </Group>
            </Grid.Col>
            <ValueCols
              span={{ base: 12, md: 6 }}
              fields={[
                { label: 'Consent', value: r.consent === null ? 'Not sent' : r.consent ? 'Yes' : 'No' },
                {
                  label: 'Names the consent covers',
                  value: ((r.legal_names_covered as string[] | undefined) ?? []).join('; ') || 'None of the buyers',
                },
                { label: 'Consent language as sent', value: text(r.consent_language), span: 12, long: true },
                { label: 'Page URL', value: text(r.page_url) },
                { label: 'Consumer IP', value: text(consumer.ip) },
                { label: 'Consumer user agent', value: text(consumer.user_agent), span: 12 },
                { label: 'TrustedForm certificate (as checked)', value: text(r.trusted_form) },
                { label: 'Jornaya LeadiD (as checked)', value: text(r.jornaya) },
                ...(r.consent_page_snapshot
                  ? [{ label: 'Consent page snapshot', value: text(r.consent_page_snapshot), span: 12, long: true }]
                  : []),
              ]}
            />
            <Grid.Col span={12}>
              <Text fz="xs" c="dimmed">
                SHA-256 of the record’s canonical text
              </Text>
              <Code block>{e.hash}</Code>
            </Grid.Col>
          </Grid>
        ) : sealed && admin ? (
          <Alert color="orange" icon={<IconLock size={18} />} title="Sealed">
            <Stack gap="xs">
              <Text fz="sm">
                The lead was erased on {sealed.sealed_at.slice(0, 10)} (request {sealed.request_id}). Its consent
                evidence is kept for legal claims until its retention ends: only the admin reads it, giving a reason,
                and each read is written to the access log.
              </Text>
              <Group align="end">
                <TextInput
                  label="Reason for reading"
                  placeholder="Subpoena in Smith v. Acme"
                  value={reason}
                  onChange={(ev) => setReason(ev.currentTarget.value)}
                  error={fieldError(sealedRead.error, 'reason')}
                  w={360}
                />
                <Button size="sm" onClick={() => sealedRead.mutate()} loading={sealedRead.isPending}>
                  Read Sealed Evidence
                </Button>
              </Group>
            </Stack>
          </Alert>
        ) : (
          <Alert color="gray">
            No consent evidence is kept for this lead (stored before it was recorded, or past its retention).
          </Alert>
        )}
      </Section>
    </>
  );
}
