import {
  type ComplianceService,
  DEFAULT_EVIDENCE_RETENTION_YEARS,
  type EvidenceRetention,
  evidenceRetentionSchema,
} from '@leadex/domain';
import { Button, Group, NumberInput, Stack, Switch, Table, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Section } from '../../components/Section';
import { ApiRequestError, api } from '../../lib/api';
import { showSuccess } from '../../lib/notify';
import { queryKeys } from '../../lib/queryKeys';

/** GET/PUT /api/compliance/evidence-retention: how many years consent evidence is kept. */
function EvidenceRetentionForm() {
  const queryClient = useQueryClient();
  const stored = useQuery({
    queryKey: queryKeys.consent.evidenceRetention,
    queryFn: ({ signal }) => api.get<EvidenceRetention>('/api/compliance/evidence-retention', { signal }),
  });
  const [years, setYears] = useState<number | string>('');
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    if (stored.data) setYears(stored.data.years);
  }, [stored.data]);
  const change = useMutation({
    mutationFn: (body: EvidenceRetention) =>
      api.put<EvidenceRetention>('/api/compliance/evidence-retention', body, { toast: false }),
    onSuccess: (saved) => {
      queryClient.setQueryData(queryKeys.consent.evidenceRetention, saved);
      showSuccess(`Consent evidence is now kept ${saved.years} years.`);
    },
  });

  const submit = async () => {
    // The API's own rule, so the screen says what the server would.
    const parsed = evidenceRetentionSchema.safeParse({ years });
    if (!parsed.success) return setError(parsed.error.issues[0]?.message);
    setError(undefined);
    try {
      await change.mutateAsync(parsed.data);
    } catch (failure) {
      setError(failure instanceof ApiRequestError ? (failure.errors.years ?? failure.message) : 'Not changed');
    }
  };

  return (
    <Stack gap="xs">
      <Group align="flex-end" gap="sm">
        <NumberInput
          label="Keep consent evidence (years)"
          description={`From the lead's arrival; ${DEFAULT_EVIDENCE_RETENTION_YEARS} by default, at least 5 (the Telemarketing Sales Rule's).`}
          value={years}
          onChange={setYears}
          min={5}
          max={50}
          clampBehavior="none"
          allowDecimal={false}
          error={error}
          w={320}
          disabled={stored.isPending}
        />
        <Button onClick={submit} loading={change.isPending} disabled={years === stored.data?.years}>
          Set Retention
        </Button>
      </Group>
      <Text c="dimmed" fz="sm">
        A daily job deletes the evidence past it, except a lead's under a legal hold (the lead's detail, Consent
        Evidence).
      </Text>
    </Stack>
  );
}

/** GET /api/compliance/services, PUT /api/compliance/services/{name}: which services are Medicare. */
function MedicareServices() {
  const queryClient = useQueryClient();
  const services = useQuery({
    queryKey: queryKeys.consent.services,
    queryFn: ({ signal }) => api.get<ComplianceService[]>('/api/compliance/services', { signal }),
  });
  const mark = useMutation({
    mutationFn: ({ name, medicare }: { name: string; medicare: boolean }) =>
      api.put<ComplianceService>(`/api/compliance/services/${encodeURIComponent(name)}`, { medicare }),
    onSuccess: (saved) => {
      queryClient.setQueryData<ComplianceService[]>(queryKeys.consent.services, (list) =>
        list?.map((s) => (s.name === saved.name ? saved : s)),
      );
      showSuccess(
        saved.medicare
          ? `${saved.label} is Medicare: its leads sell only with consent naming the buyer.`
          : `${saved.label} is no longer Medicare.`,
      );
    },
  });
  return (
    <Table withTableBorder verticalSpacing="xs" aria-label="Medicare services">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Service</Table.Th>
          <Table.Th>Medicare (consent must name the buyer)</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {(services.data ?? []).map((s) => (
          <Table.Tr key={s.name}>
            <Table.Td>{s.label}</Table.Td>
            <Table.Td>
              <Switch
                aria-label={`Medicare: ${s.label}`}
                checked={s.medicare}
                disabled={mark.isPending && mark.variables?.name === s.name}
                onChange={(event) => mark.mutate({ name: s.name, medicare: event.currentTarget.checked })}
              />
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/**
 * Issue 34 items 3 and 4: how long consent evidence is kept, and which services are Medicare (CMS,
 * 42 CFR 422.2274: every campaign for such a service buys a lead only when its consent names the buyer).
 */
export function ConsentSection() {
  return (
    <Section
      title="Consent"
      description="How long the consent evidence recorded at each sale is kept, and the services whose leads need consent naming the buyer."
    >
      <Stack gap="lg">
        <EvidenceRetentionForm />
        <MedicareServices />
      </Stack>
    </Section>
  );
}
