import {
  type BillingRunResult,
  SIM_HIT_RATES,
  SIM_LEAD_COUNTS,
  type SimLeadResult,
  type SimPingPost,
  type SimTestAnswer,
  type SimWhitelist,
  simLeadSchema,
  simPingPostSchema,
  simWhitelistSchema,
} from '@leadex/domain';
import {
  Alert,
  Badge,
  Button,
  Checkbox,
  Group,
  Progress,
  Select,
  SimpleGrid,
  Stack,
  TagsInput,
  Text,
  TextInput,
} from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconAlertTriangle, IconCheck, IconPlayerPlay } from '@tabler/icons-react';
import dayjs from 'dayjs';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { EditingFields } from '../../components/EditableForm';
import { SelectField, TextField } from '../../components/FormFields';
import { JsonViewer } from '../../components/JsonViewer';
import { PageHeader } from '../../components/PageHeader';
import { RecordsTable } from '../../components/RecordsTable';
import { Section } from '../../components/Section';
import { useServiceOptions } from '../../components/ServiceName';
import { formatTimestamp } from '../../lib/format';
import { applyFieldErrors, inputProps, schemaResolver } from '../../lib/forms';
import { showSuccess } from '../../lib/notify';
import { useServices, useSourceOptions } from '../campaigns/campaigns.api';
import { DecisionExplained } from '../leads/LeadExplanation';
import {
  useBillingRun,
  useMockDate,
  useResetDatabase,
  useSaveWhitelist,
  useSimLeads,
  useSimTest,
  useSystemInfo,
  useWhitelist,
} from './sim.api';

/** Admin spec §9: mock date presets of -1 to -6 months, and shifts of days. */
const MONTH_PRESETS = [1, 2, 3, 4, 5, 6];
const DAY_SHIFTS = [-7, -3, -2, -1, 1, 2, 3, 7];
const DEFAULT_ZIP = '64999';
const monthsLabel = (months: number) => `-${months} ${months === 1 ? 'month' : 'months'}`;
const daysLabel = (days: number) => `${days > 0 ? '+' : ''}${days} ${Math.abs(days) === 1 ? 'day' : 'days'}`;

/** No services yet (a stable list while they load). */
const NO_SERVICES: string[] = [];

function SystemInfoSection() {
  const info = useSystemInfo();
  const rows: Array<[string, string | undefined]> = [
    ['Environment', info.data?.node_env],
    ['Database', info.data ? (info.data.db === 'postgres' ? 'PostgreSQL' : 'PGlite (embedded)') : undefined],
    ['Current date', info.data ? formatTimestamp(info.data.date) : undefined],
  ];
  return (
    <Section
      title="System Info"
      description="Where this exchange runs, and the date its screens, rules and jobs follow."
    >
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        {rows.map(([label, value]) => (
          <div key={label}>
            <Text c="dimmed" fz="xs" tt="uppercase" fw={700}>
              {label}
            </Text>
            <Text fw={500} aria-label={label}>
              {value ?? 'Loading...'}
            </Text>
          </div>
        ))}
      </SimpleGrid>
    </Section>
  );
}

function MockDateSection() {
  const info = useSystemInfo();
  const move = useMockDate();
  const set = async (body: { date: number } | { reset: true }, label: string) => {
    const answer = await move.mutateAsync(body);
    showSuccess(`${label}: the exchange's date is now ${formatTimestamp(answer.date)}.`, 'Mock date');
  };
  const current = info.data ? dayjs.unix(info.data.date) : null;
  return (
    <Section
      title="Mock Date"
      description="Moves the exchange's clock for every screen, rule and job of every process. Reset goes back to the real time."
    >
      <Stack gap="sm">
        <Group gap="xs" aria-label="Months back">
          {MONTH_PRESETS.map((months) => (
            <Button
              key={months}
              size="xs"
              variant="default"
              disabled={move.isPending}
              onClick={() => set({ date: dayjs().subtract(months, 'month').unix() }, monthsLabel(months))}
            >
              {monthsLabel(months)}
            </Button>
          ))}
        </Group>
        <Group gap="xs" aria-label="Days">
          {DAY_SHIFTS.map((days) => (
            <Button
              key={days}
              size="xs"
              variant="light"
              disabled={move.isPending || !current}
              onClick={() =>
                current && set({ date: current.add(days, 'day').unix() }, `${days > 0 ? '+' : ''}${days} days`)
              }
            >
              {daysLabel(days)}
            </Button>
          ))}
          <Button size="xs" color="gray" disabled={move.isPending} onClick={() => set({ reset: true }, 'Reset')}>
            Reset
          </Button>
        </Group>
      </Stack>
    </Section>
  );
}

function BillingSection() {
  const [doPayments, setDoPayments] = useState(false);
  const run = useBillingRun();
  const [result, setResult] = useState<BillingRunResult | null>(null);
  return (
    <Section
      title="Billing Run"
      description="Closes the bills whose period and grace have passed, now, at the exchange's date."
    >
      <Stack gap="sm">
        <Checkbox
          label="Pay the closed bills (charge cards, send invoices, draw prepay balances)"
          checked={doPayments}
          onChange={(event) => setDoPayments(event.currentTarget.checked)}
        />
        <Group>
          <Button
            leftSection={<IconPlayerPlay size={16} />}
            loading={run.isPending}
            onClick={async () => setResult(await run.mutateAsync(doPayments))}
          >
            Run Billing
          </Button>
          {result && (
            <Text fz="sm" role="status">
              Opened {result.opened}, rolled {result.rolled}, closed {result.closed}, invoiced {result.invoiced}.
            </Text>
          )}
        </Group>
      </Stack>
    </Section>
  );
}

/** The ping-post test (with min. price) or the direct lead test, through the real engine. */
function EngineTestSection({ kind }: { kind: 'pingpost' | 'lead' }) {
  const services = useServices();
  const sources = useSourceOptions(true);
  const test = useSimTest(kind);
  const [answer, setAnswer] = useState<SimTestAnswer | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const pingPost = kind === 'pingpost';
  const form = useForm<SimPingPost>({
    resolver: schemaResolver(pingPost ? simPingPostSchema : simLeadSchema),
    defaultValues: { Project: '', Source: '', Zip: DEFAULT_ZIP, minprice: undefined },
  });
  const { isSubmitting } = form.formState;
  const submit = form.handleSubmit(async (values) => {
    setAnswer(null);
    setRefusal(null);
    try {
      setAnswer(await test.mutateAsync(values));
    } catch (error) {
      // What the source API refuses (a source that may not post directly: 403) is said, as it answers it.
      if (!applyFieldErrors(error, form.setError)) setRefusal(error instanceof Error ? error.message : String(error));
    }
  });
  const serviceData = useServiceOptions(services.data ?? NO_SERVICES);
  const sourceData = (sources.data?.data ?? []).map((s) => ({ value: s._id, label: s.name }));
  const title = pingPost ? 'Ping-Post Test' : 'Direct Lead Test';
  return (
    <Section
      title={title}
      description={
        pingPost
          ? 'Pings as the source, then posts a made-up consumer with the ping id, and explains the decision.'
          : 'Posts a made-up consumer straight to /api/lead as the source, and explains the decision.'
      }
    >
      <EditingFields form={form}>
        <form noValidate onSubmit={submit} aria-label={title}>
          <Stack gap="sm">
            <SimpleGrid cols={{ base: 1, sm: pingPost ? 4 : 3 }}>
              <SelectField name="Project" label="Project" required searchable data={serviceData} />
              <SelectField name="Source" label="Source" required searchable data={sourceData} />
              <TextField name="Zip" label="Zip" required inputMode="numeric" />
              {pingPost && (
                <TextInput
                  label="Min. price"
                  inputMode="decimal"
                  // An empty price is no minimum, not a price of ''.
                  {...inputProps(form, 'minprice', { setValueAs: (v) => (v === '' ? undefined : v) })}
                />
              )}
            </SimpleGrid>
            <Group>
              <Button type="submit" loading={isSubmitting}>
                {pingPost ? 'Send Ping-Post' : 'Send Lead'}
              </Button>
            </Group>
            {refusal && (
              <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} role="alert" title="Refused">
                {refusal}
              </Alert>
            )}
            {answer && <TestAnswer answer={answer} />}
          </Stack>
        </form>
      </EditingFields>
    </Section>
  );
}

function TestAnswer({ answer }: { answer: SimTestAnswer }) {
  const parts: Array<[string, unknown]> = [
    ['Ping answer', answer.ping],
    ['Post answer', answer.post],
    ['Lead answer', answer.lead],
  ];
  return (
    <Stack gap="sm" role="region" aria-label="Test answer">
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        {parts
          .filter(([, value]) => value !== undefined)
          .map(([label, value]) => (
            <div key={label}>
              <Text fw={600} fz="sm" mb={4}>
                {label}
              </Text>
              <JsonViewer value={value} label={label} />
            </div>
          ))}
      </SimpleGrid>
      <DecisionExplained entries={answer.explanation} outcome={answer.outcome} />
    </Stack>
  );
}

function MultipleLeadsSection() {
  const [count, setCount] = useState<string>('20');
  const [hit, setHit] = useState<string>('0.5');
  const [outcomes, setOutcomes] = useState<SimLeadResult[]>([]);
  const run = useSimLeads((outcome) => setOutcomes((done) => [...done, outcome]));
  const total = outcomes[0]?.count ?? Number(count);
  const sold = outcomes.filter((o) => o.ok && o.status === 'sold').length;
  const start = () => {
    setOutcomes([]);
    run.mutate({ count: Number(count), hit: Number(hit) });
  };
  return (
    <Section
      title="Multiple Leads"
      description="Sends leads as random sources; the hit rate is the share aimed at ZIP codes and services a live campaign buys."
    >
      <Stack gap="sm">
        <Group align="flex-end">
          <Select
            label="Count"
            data={SIM_LEAD_COUNTS.map((n) => String(n))}
            value={count}
            onChange={(value) => setCount(value ?? '20')}
            allowDeselect={false}
            w={120}
          />
          <Select
            label="Hit rate"
            data={SIM_HIT_RATES.map((rate) => ({ value: String(rate), label: `${rate * 100} %` }))}
            value={hit}
            onChange={(value) => setHit(value ?? '0.5')}
            allowDeselect={false}
            w={140}
          />
          <Button leftSection={<IconPlayerPlay size={16} />} loading={run.isPending} onClick={start}>
            Send Leads
          </Button>
        </Group>
        {(run.isPending || outcomes.length > 0) && (
          <Stack gap={6}>
            <Group justify="space-between">
              <Text fz="sm" role="status">
                {outcomes.length} of {total} sent, {sold} sold
              </Text>
              {!run.isPending && outcomes.length === total && (
                <Badge color="green" variant="light" leftSection={<IconCheck size={12} />}>
                  Done
                </Badge>
              )}
            </Group>
            <Progress
              value={(outcomes.length / Math.max(total, 1)) * 100}
              aria-label="Leads sent"
              animated={run.isPending}
            />
            <RecordsTable<SimLeadResult & { _id: string }>
              records={outcomes.map((o) => ({ ...o, _id: String(o.index) }))}
              noRecordsText="Loading..."
              columns={[
                { accessor: 'index', title: '#' },
                { accessor: 'service', title: 'Service' },
                { accessor: 'zip', title: 'ZIP' },
                { accessor: 'aimed', title: 'Aimed', render: (o) => (o.aimed ? 'Yes' : 'No') },
                { accessor: 'status', title: 'Answer', render: (o) => o.status ?? o.message ?? '' },
              ]}
            />
          </Stack>
        )}
      </Stack>
    </Section>
  );
}

function WhitelistSection() {
  const whitelist = useWhitelist();
  const save = useSaveWhitelist();
  if (!whitelist.data) return <Section title="Whitelist">Loading...</Section>;
  return <WhitelistForm initial={whitelist.data} onSave={save.mutateAsync} />;
}

/** The whitelist's two lists, typed in alike. Not ListField: a phone number may hold spaces. */
const WHITELIST_LISTS = [
  { name: 'email', label: 'Emails' },
  { name: 'phone', label: 'Phone numbers' },
] as const;

function WhitelistForm({
  initial,
  onSave,
}: {
  initial: SimWhitelist;
  onSave: (list: SimWhitelist) => Promise<unknown>;
}) {
  const form = useForm<SimWhitelist>({
    resolver: schemaResolver(simWhitelistSchema),
    defaultValues: { email: initial.email, phone: initial.phone },
  });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async (values) => {
    try {
      await onSave(values);
      showSuccess('Whitelist saved');
    } catch (error) {
      applyFieldErrors(error, form.setError);
    }
  });
  return (
    <Section
      title="Whitelist"
      description="Outside production, mail and text messages go only to these addresses and numbers; the others are kept in the outbox."
    >
      <form noValidate onSubmit={submit} aria-label="Whitelist">
        <Stack gap="sm">
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            {WHITELIST_LISTS.map(({ name, label }) => (
              <Controller
                key={name}
                control={form.control}
                name={name}
                render={({ field }) => (
                  <TagsInput
                    label={label}
                    description="Press Enter after each"
                    value={field.value}
                    onChange={field.onChange}
                    error={errors[name]?.message}
                  />
                )}
              />
            ))}
          </SimpleGrid>
          <Group>
            <Button type="submit" loading={isSubmitting}>
              Save Whitelist
            </Button>
          </Group>
        </Stack>
      </form>
    </Section>
  );
}

function ResetSection() {
  const reset = useResetDatabase();
  const [done, setDone] = useState(false);
  const confirm = () =>
    modals.openConfirmModal({
      title: 'Confirm Database Reset',
      centered: true,
      children: <Text size="sm">This action cannot be undone</Text>,
      labels: { confirm: 'Reset Database', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: async () => {
        setDone(false);
        await reset.mutateAsync();
        setDone(true);
      },
    });
  return (
    <Section
      title="Reset Database"
      description="Deletes every buyer, source, campaign, lead and bill, keeps the admins, and loads the starting data again."
    >
      <Stack gap="sm">
        {done && (
          <Alert color="green" icon={<IconCheck size={18} />} role="alert">
            Database has been reset!
          </Alert>
        )}
        <Group>
          <Button color="red" leftSection={<IconAlertTriangle size={16} />} loading={reset.isPending} onClick={confirm}>
            Reset Database
          </Button>
        </Group>
      </Stack>
    </Section>
  );
}

/** Admin §2 Simulator (outside production only): the test tools of the exchange. */
export function SimulatorPage() {
  const info = useSystemInfo();
  const header = (
    <PageHeader
      title="Simulator"
      description="Test tools for this exchange. They exist only outside production."
      breadcrumbs={[{ label: 'Settings', to: '/settings' }, { label: 'Simulator' }]}
    />
  );
  // In production the simulator's routes do not exist: say so rather than show tools that cannot work.
  if (info.isError)
    return (
      <>
        {header}
        <Alert color="gray" icon={<IconAlertTriangle size={18} />}>
          This exchange runs in production: the simulator is not available here.
        </Alert>
      </>
    );
  return (
    <>
      {header}
      <Stack gap="lg">
        <SystemInfoSection />
        <MockDateSection />
        <EngineTestSection kind="pingpost" />
        <EngineTestSection kind="lead" />
        <MultipleLeadsSection />
        <BillingSection />
        <WhitelistSection />
        <ResetSection />
      </Stack>
    </>
  );
}
