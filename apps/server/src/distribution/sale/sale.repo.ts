import type { FieldValue, LeadFieldFlag } from '@leadex/domain';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { NamedStatement, SqlRunner } from '../../db/raw';
import { sqlError } from '../../db/raw';
import { idempotencyKeys, leads } from '../../db/schema';
import type { BudgetSlot } from '../budgets';
import type { CapSlot } from '../caps';
import { CUSTOM_CHANNEL, type InlineAttempt } from '../ports';

/**
 * What the consent evidence keeps that the lead has no column for: it rides in the request's jsonb
 * to the `leads_consent_evidence` trigger, which moves it into the evidence (migration 0032), so the
 * sale's statement is not widened. The lead's `request` never keeps it.
 */
export interface ConsentExtras {
  page_url?: string;
  snapshot?: string;
}

/** A lead as stored, with the answer its source got (replayed on a repeated post). */
export interface LeadRecord {
  id: string;
  sourceId: string;
  apiKeyId: string;
  channel: string | null;
  service: string;
  zip: string;
  state: string | null;
  city: string | null;
  name: string | null;
  firstName: string | null;
  lastName: string | null;
  address: string | null;
  phone: string | null;
  email: string | null;
  tcpaConsent: boolean | null;
  tcpaLanguage: string | null;
  trustedForm: string | null;
  trustedFormPingUrl: string | null;
  jornaya: string | null;
  ip: string | null;
  userAgent: string | null;
  /** The poster's own address and client (the request's), never the consumer's. */
  request: { ip: string; user_agent?: string; consent?: ConsentExtras };
  pubId: string | null;
  subId: string | null;
  homeowner: boolean | null;
  metadata: Record<string, unknown> | null;
  /** The fields that could not be read or contradict another; null when none. */
  fieldFlags: LeadFieldFlag[] | null;
  /** The service's own fields (issue 33): `{ [key]: value }`, money in integer cents. */
  fields: Record<string, FieldValue>;
  pingId: string;
  test: boolean;
  answer: Record<string, unknown>;
  explanation: unknown[];
  priceCents: number;
  costCents: number;
  createdAt: Date;
}

/** One sold match of the lead. */
export interface MatchRecord {
  id: string;
  campaignId: string;
  buyerId: string;
  priceCents: number;
}

/** Why a sale statement stored nothing. */
export type NotStored = 'cap_full' | 'prior_sale' | 'replay' | 'suppressed';

const CAP_FULL = 'leadex:cap_full';
const REPLAY = 'leadex:replay';
const PRIOR_SALE = 'leadex:prior_sale';
const SUPPRESSED = 'leadex:suppressed';

/**
 * The source's own lead with this phone or email since `repostSince` (a re-post, DESIGN.md §5 rule
 * 9), and the buyers that bought this phone or email since `boughtSince`: one round trip.
 */
const PRIOR_SALES: NamedStatement = {
  name: 'leadex_prior_sales',
  // The leads with this phone or email come first, from their own indexes, and only then are
  // filtered by source and time: a plan that started from the source's recent leads would read
  // every lead the source sent in the window, on every post.
  text: `
    with same as materialized (
      select id, source_id, created_at, test from leads where phone = $2
      union
      select id, source_id, created_at, test from leads where email = $3
    )
    (select 'repost' as kind, id as value from same
      where source_id = $1 and created_at > $4::timestamptz and not test
      limit 1)
    union all
    (select distinct 'buyer', m.buyer_id from same join lead_matches m on m.lead_id = same.id
      where m.created_at > $5::timestamptz and not m.rejected)`,
};

export async function priorSales(
  db: SqlRunner,
  q: { sourceId: string; phone: string | null; email: string | null; repostSince: Date; boughtSince: Date },
): Promise<{ repostOf: string | null; buyerIds: Set<string> }> {
  if (!q.phone && !q.email) return { repostOf: null, buyerIds: new Set() };
  const rows = await db.query<{ kind: string; value: string }>(PRIOR_SALES, [
    q.sourceId,
    q.phone,
    q.email,
    q.repostSince.toISOString(),
    q.boughtSince.toISOString(),
  ]);
  return {
    repostOf: rows.find((r) => r.kind === 'repost')?.value ?? null,
    buyerIds: new Set(rows.filter((r) => r.kind === 'buyer').map((r) => r.value)),
  };
}

/**
 * The consent evidence the sale's trigger will store for this lead (migration 0041): the same record
 * and hash, read in the sale's transaction before the lead is stored, for the live deliveries that map
 * it (issue 34 item 3). The record comes from the lead's columns as the sale inserts them.
 */
const CONSENT_EVIDENCE_OF: NamedStatement = {
  name: 'leadex_consent_evidence_of',
  text: `
    select r as record, encode(sha256(convert_to(r::text, 'UTF8')), 'hex') as hash
    from (select leadex_consent_evidence_record(jsonb_populate_record(null::leads, $1::jsonb), $2::jsonb) as r) x`,
};

export async function consentEvidenceOf(
  db: SqlRunner,
  lead: LeadRecord,
): Promise<{ record: Record<string, unknown>; hash: string } | null> {
  const columns = {
    id: lead.id,
    created_at: lead.createdAt.toISOString(),
    source_id: lead.sourceId,
    service: lead.service,
    tcpa_consent: lead.tcpaConsent,
    tcpa_language: lead.tcpaLanguage,
    name: lead.name,
    phone: lead.phone,
    email: lead.email,
    zip: lead.zip,
    ip: lead.ip,
    user_agent: lead.userAgent,
    trusted_form: lead.trustedForm,
    jornaya: lead.jornaya,
  };
  const [row] = await db.query<{ record: Record<string, unknown>; hash: string }>(CONSENT_EVIDENCE_OF, [
    JSON.stringify(columns),
    lead.request.consent ? JSON.stringify(lead.request.consent) : null,
  ]);
  return row ?? null;
}

/**
 * The whole sale in ONE statement, so it is atomic without a transaction and costs one round trip:
 * re-check the database for a re-post of this lead by its source or a sale of this phone or email
 * to a winning buyer (what the auction's memory may not have seen yet), take every cap slot (a
 * conditional increment no concurrent sale can push past the limit), store the lead with its
 * answer, store its matches, and (unless the careful path reserved them already) add each match's price
 * to its buyer's spend where the buyer pays by prepay or credit (rule 7: a conditional increment, like a
 * cap), and raise every budget counter by its price unless that passes its budget (issue 33, like a
 * cap). If a check fails, a slot or a balance is full or the ping was already posted,
 * `leadex_assert` raises and PostgreSQL undoes all of it; the caller learns which from the message.
 * Without the check's times ($41, $42 null) the prior sales are not looked at (the caller did).
 * With the contact's suppression hashes ($53, issue 36) the statement refuses a contact any list holds
 * (the caller then looks the lists up and decides again): the usual unlisted lead costs no lookup.
 */
const STORE_SALE: NamedStatement = {
  name: 'leadex_store_sale',
  text: `
    with same as materialized (
      select id, source_id, created_at, test from leads where phone = $13 and $41::timestamptz is not null
      union
      select id, source_id, created_at, test from leads where email = $14 and $41::timestamptz is not null
    ), prior_ok as (
      select leadex_assert(
        not exists (select 1 from same where source_id = $2 and created_at > $41::timestamptz and not test)
        and not exists (select 1 from same join lead_matches m on m.lead_id = same.id
          where m.buyer_id = any($38::text[]) and m.created_at > $42::timestamptz and not m.rejected),
        '${PRIOR_SALE}')
        and leadex_assert(not exists (select 1 from suppression_entries e where e.hash = any($53::text[])), '${SUPPRESSED}')
        as ok
    ), wanted as (
      select * from unnest($32::text[], $33::text[], $34::timestamptz[], $35::int[])
        as w(campaign_id, period, period_start, lim)
    ), taken as (
      insert into cap_counters as c (campaign_id, period, period_start, n)
      select campaign_id, period, period_start, 1 from wanted
      on conflict (campaign_id, period, period_start) do update set n = c.n + 1
      where c.n < (select w.lim from wanted w where w.campaign_id = excluded.campaign_id
        and w.period = excluded.period and w.period_start = excluded.period_start)
      returning 1
    ), wanted_budget as (
      select * from unnest($47::text[], $48::text[], $49::timestamptz[], $50::int[], $51::int[])
        as w(owner_id, period, period_start, lim, amount)
    ), budgeted as (
      insert into budget_counters as c (owner_id, period, period_start, spent_cents)
      select owner_id, period, period_start, amount from wanted_budget where amount <= lim
      on conflict (owner_id, period, period_start) do update set spent_cents = c.spent_cents + excluded.spent_cents
      where c.spent_cents + excluded.spent_cents <= (select w.lim from wanted_budget w
        where w.owner_id = excluded.owner_id and w.period = excluded.period and w.period_start = excluded.period_start)
      returning 1
    ), spent as (
      update buyer_spend b set spent_cents = b.spent_cents + m.price_cents
      from unnest($38::text[], $39::int[]) as m(buyer_id, price_cents)
      where $43::boolean and b.buyer_id = m.buyer_id and b.spent_cents + m.price_cents <= b.limit_cents
      returning b.buyer_id
    ), caps_ok as (
      select prior_ok.ok and leadex_assert((select count(*) from taken) = cardinality($32::text[]), '${CAP_FULL}')
        and leadex_assert((select count(*) from budgeted) = cardinality($47::text[]), '${CAP_FULL}')
        and leadex_assert(not $43::boolean or not exists (
          select 1 from buyer_spend b where b.buyer_id = any($38::text[])
            and b.buyer_id not in (select buyer_id from spent)), '${CAP_FULL}') as ok
      from prior_ok
    ), lead as (
      insert into leads (id, source_id, api_key_id, channel, service, zip, state, city, name, first_name,
        last_name, address, phone, email, tcpa_consent, tcpa_language, trusted_form, jornaya, ip, user_agent,
        pub_id, sub_id, homeowner, metadata, ping_id, test, answer, explanation, price_cents, cost_cents, created_at,
        sold, request, field_flags, trusted_form_ping_url, fields)
      select $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22,
        $23, $24::jsonb, $25, $26, $27::jsonb, $28::jsonb, $29, $30, $31::timestamptz, cardinality($36::text[]) > 0,
        $44::jsonb, $45::jsonb, $46, $52::jsonb
      from caps_ok where ok
      on conflict (ping_id) where ping_id <> 'no_ping' do nothing
      returning id
    ), matched as (
      insert into lead_matches (id, lead_id, campaign_id, buyer_id, kind, price_cents, service, name, created_at)
      select m.id, lead.id, m.campaign_id, m.buyer_id, $40, m.price_cents, $5, $9, $31::timestamptz
      from lead, unnest($36::text[], $37::text[], $38::text[], $39::int[]) as m(id, campaign_id, buyer_id, price_cents)
      returning 1
    )
    select leadex_assert(exists (select 1 from lead), '${REPLAY}') as stored, (select count(*) from matched) as matches`,
};

/**
 * Stores a lead, its matches and cap slots atomically; answers what stopped it, if anything.
 * `unlisted`: the contact's suppression hashes, which no list may hold (empty: not checked).
 * `check` asks the statement to refuse a re-post or a duplicate sale it finds in the database.
 */
export async function storeSale(
  db: SqlRunner,
  lead: LeadRecord,
  sale: {
    kind: string;
    matches: MatchRecord[];
    caps: CapSlot[];
    budgets?: BudgetSlot[];
    spendTaken?: boolean;
  } | null,
  check: { repostSince: Date; boughtSince: Date } | null,
  unlisted: readonly string[] = [],
): Promise<NotStored | null> {
  const caps = sale?.caps ?? [];
  const budgets = sale?.budgets ?? [];
  const matches = sale?.matches ?? [];
  try {
    await db.query(STORE_SALE, [
      lead.id,
      lead.sourceId,
      lead.apiKeyId,
      lead.channel,
      lead.service,
      lead.zip,
      lead.state,
      lead.city,
      lead.name,
      lead.firstName,
      lead.lastName,
      lead.address,
      lead.phone,
      lead.email,
      lead.tcpaConsent,
      lead.tcpaLanguage,
      lead.trustedForm,
      lead.jornaya,
      lead.ip,
      lead.userAgent,
      lead.pubId,
      lead.subId,
      lead.homeowner,
      lead.metadata === null ? null : JSON.stringify(lead.metadata),
      lead.pingId,
      lead.test,
      JSON.stringify(lead.answer),
      JSON.stringify(lead.explanation),
      lead.priceCents,
      lead.costCents,
      lead.createdAt.toISOString(),
      caps.map((c) => c.campaignId),
      caps.map((c) => c.period),
      caps.map((c) => c.periodStart.toISOString()),
      caps.map((c) => c.limit),
      matches.map((m) => m.id),
      matches.map((m) => m.campaignId),
      matches.map((m) => m.buyerId),
      matches.map((m) => m.priceCents),
      sale?.kind ?? 'exclusive',
      check?.repostSince.toISOString() ?? null,
      check?.boughtSince.toISOString() ?? null,
      !sale?.spendTaken,
      JSON.stringify(lead.request),
      lead.fieldFlags === null ? null : JSON.stringify(lead.fieldFlags),
      lead.trustedFormPingUrl,
      budgets.map((b) => b.ownerId),
      budgets.map((b) => b.period),
      budgets.map((b) => b.periodStart.toISOString()),
      budgets.map((b) => b.limitCents),
      budgets.map((b) => b.amountCents),
      JSON.stringify(lead.fields),
      unlisted,
    ]);
    return null;
  } catch (error) {
    const { message } = sqlError(error);
    if (message.includes(CAP_FULL)) return 'cap_full';
    if (message.includes(PRIOR_SALE)) return 'prior_sale';
    if (message.includes(REPLAY)) return 'replay';
    if (message.includes(SUPPRESSED)) return 'suppressed';
    throw error;
  }
}

/** One sale of a group (issue 36): the lead as the one-statement sale stores it, its matches and slots. */
export interface GroupedSale {
  lead: LeadRecord;
  sale: { kind: string; matches: MatchRecord[]; caps: CapSlot[]; budgets?: BudgetSlot[] } | null;
  check: { repostSince: Date; boughtSince: Date } | null;
  unlisted: readonly string[];
}

const GROUP_REFUSED = 'leadex:group_refused:';

/**
 * Many one-statement sales in ONE statement (group commit, issue 36): one transaction and one WAL
 * flush for the group, each sale keeping its own outcome. First each sale's own checks, as
 * STORE_SALE makes them (a re-post or a duplicate sale in the database, a listed contact, its ping
 * stored already): a sale they refuse is left out and answered why, without a write. Then the other
 * sales' cap slots, budgets and buyers' spend are taken together, each counter once by the group's
 * count or sum (the conditional increment of STORE_SALE, in its lock order: campaign, then period;
 * owner, then period); a counter that cannot take them all names its sales, the statement raises
 * `leadex:group_refused:<their numbers>` and PostgreSQL undoes all of it: the caller sells those
 * alone and sends the rest again. Two sales of one group never share a ping id, phone or email (the
 * caller keeps them apart), so no check of one depends on another. Answers each refused sale's number
 * and why; the others were stored.
 */
const STORE_SALES: NamedStatement = {
  name: 'leadex_store_sales',
  text: `
    with s as materialized (
      select * from jsonb_to_recordset($1::jsonb) as s(i int, id text, source_id text, api_key_id text, channel text,
        service text, zip text, state text, city text, name text, first_name text, last_name text, address text,
        phone text, email text, tcpa_consent boolean, tcpa_language text, trusted_form text, jornaya text, ip text,
        user_agent text, pub_id text, sub_id text, homeowner boolean, metadata jsonb, ping_id text, test boolean,
        answer jsonb, explanation jsonb, price_cents int, cost_cents int, created_at timestamptz, request jsonb,
        field_flags jsonb, trusted_form_ping_url text, fields jsonb, kind text, repost_since timestamptz,
        bought_since timestamptz, matches jsonb, caps jsonb, budgets jsonb, unlisted jsonb)
    ), m as materialized (
      select s.i, x.* from s, jsonb_to_recordset(s.matches) as x(id text, campaign_id text, buyer_id text, price_cents int)
    ), checked as materialized (
      select s.i, case
        when s.repost_since is not null and exists (
          select 1 from leads l where (l.phone = s.phone or l.email = s.email)
            and ((l.source_id = s.source_id and l.created_at > s.repost_since and not l.test)
              or exists (select 1 from lead_matches x where x.lead_id = l.id and x.created_at > s.bought_since
                and not x.rejected and x.buyer_id in (select m.buyer_id from m where m.i = s.i))))
          then 'prior_sale'
        when exists (select 1 from suppression_entries e
          where e.hash in (select jsonb_array_elements_text(s.unlisted))) then 'suppressed'
        -- The partial unique index on ping_id answers only when its predicate is in the query: without
        -- \`l.ping_id <> 'no_ping'\` every group read the whole leads table (docs/benchmarks.md, "Post profile").
        when s.ping_id <> 'no_ping' and exists (select 1 from leads l where l.ping_id = s.ping_id and l.ping_id <> 'no_ping')
          then 'replay'
      end as why
      from s
    ), ok as materialized (
      select s.* from s join checked c on c.i = s.i where c.why is null
    ), wanted as (
      select c.campaign_id, c.period, c.period_start, min(c.lim) as lim, count(*)::int as k, array_agg(ok.i) as sales
      from ok, jsonb_to_recordset(ok.caps) as c(campaign_id text, period text, period_start timestamptz, lim int)
      group by 1, 2, 3
    ), taken as (
      insert into cap_counters as c (campaign_id, period, period_start, n)
      select campaign_id, period, period_start, k from wanted where k <= lim
      order by campaign_id collate "C", period collate "C"
      on conflict (campaign_id, period, period_start) do update set n = c.n + excluded.n
      where c.n + excluded.n <= (select w.lim from wanted w where w.campaign_id = excluded.campaign_id
        and w.period = excluded.period and w.period_start = excluded.period_start)
      returning c.campaign_id, c.period, c.period_start
    ), wanted_budget as (
      select b.owner_id, b.period, b.period_start, min(b.lim) as lim, sum(b.amount)::int as amount,
        array_agg(ok.i) as sales
      from ok, jsonb_to_recordset(ok.budgets) as b(owner_id text, period text, period_start timestamptz, lim int, amount int)
      group by 1, 2, 3
    ), budgeted as (
      insert into budget_counters as c (owner_id, period, period_start, spent_cents)
      select owner_id, period, period_start, amount from wanted_budget where amount <= lim
      order by owner_id collate "C", period collate "C"
      on conflict (owner_id, period, period_start) do update set spent_cents = c.spent_cents + excluded.spent_cents
      where c.spent_cents + excluded.spent_cents <= (select w.lim from wanted_budget w
        where w.owner_id = excluded.owner_id and w.period = excluded.period and w.period_start = excluded.period_start)
      returning c.owner_id, c.period, c.period_start
    ), wanted_spend as (
      select m.buyer_id, sum(m.price_cents)::int as amount, array_agg(m.i) as sales
      from m join ok on ok.i = m.i group by 1
    ), spent as (
      update buyer_spend b set spent_cents = b.spent_cents + w.amount
      from wanted_spend w
      where b.buyer_id = w.buyer_id and b.spent_cents + w.amount <= b.limit_cents
      returning b.buyer_id
    ), culprits as (
      select unnest(w.sales) as i from wanted w where not exists (select 1 from taken t
        where t.campaign_id = w.campaign_id and t.period = w.period and t.period_start = w.period_start)
      union
      select unnest(w.sales) from wanted_budget w where not exists (select 1 from budgeted t
        where t.owner_id = w.owner_id and t.period = w.period and t.period_start = w.period_start)
      union
      select unnest(w.sales) from wanted_spend w
      where exists (select 1 from buyer_spend b where b.buyer_id = w.buyer_id)
        and not exists (select 1 from spent where spent.buyer_id = w.buyer_id)
    ), gate as (
      select leadex_assert(not exists (select 1 from culprits),
        '${GROUP_REFUSED}' || (select coalesce(string_agg(i::text, ','), '') from culprits)) as ok
    ), lead as (
      insert into leads (id, source_id, api_key_id, channel, service, zip, state, city, name, first_name,
        last_name, address, phone, email, tcpa_consent, tcpa_language, trusted_form, jornaya, ip, user_agent,
        pub_id, sub_id, homeowner, metadata, ping_id, test, answer, explanation, price_cents, cost_cents, created_at,
        sold, request, field_flags, trusted_form_ping_url, fields)
      select ok.id, ok.source_id, ok.api_key_id, ok.channel, ok.service, ok.zip, ok.state, ok.city, ok.name,
        ok.first_name, ok.last_name, ok.address, ok.phone, ok.email, ok.tcpa_consent, ok.tcpa_language,
        ok.trusted_form, ok.jornaya, ok.ip, ok.user_agent, ok.pub_id, ok.sub_id, ok.homeowner, ok.metadata,
        ok.ping_id, ok.test, ok.answer, ok.explanation, ok.price_cents, ok.cost_cents, ok.created_at,
        jsonb_array_length(ok.matches) > 0, ok.request, ok.field_flags, ok.trusted_form_ping_url, ok.fields
      from ok, gate where gate.ok
      order by ok.ping_id collate "C"
      on conflict (ping_id) where ping_id <> 'no_ping' do nothing
      returning id
    ), matched as (
      insert into lead_matches (id, lead_id, campaign_id, buyer_id, kind, price_cents, service, name, created_at)
      select m.id, lead.id, m.campaign_id, m.buyer_id, ok.kind, m.price_cents, ok.service, ok.name, ok.created_at
      from lead join ok on ok.id = lead.id join m on m.i = ok.i
      returning 1
    ), done as (
      -- A ping stored by another process since the checks: those sales are sold alone (and replayed).
      select leadex_assert((select count(*) from lead) = (select count(*) from ok),
        '${GROUP_REFUSED}' || (select coalesce(string_agg(ok.i::text, ','), '') from ok
          where ok.id not in (select id from lead))) as ok
    )
    select c.i, c.why, (select count(*) from matched)::int as matches from checked c, done where done.ok`,
};

const slotJson = (c: CapSlot) => ({
  campaign_id: c.campaignId,
  period: c.period,
  period_start: c.periodStart.toISOString(),
  lim: c.limit,
});

/** A grouped sale as the statement reads it (`jsonb_to_recordset`), numbered by its place in the group. */
function groupedJson({ lead, sale, check, unlisted }: GroupedSale, i: number) {
  return {
    i,
    id: lead.id,
    source_id: lead.sourceId,
    api_key_id: lead.apiKeyId,
    channel: lead.channel,
    service: lead.service,
    zip: lead.zip,
    state: lead.state,
    city: lead.city,
    name: lead.name,
    first_name: lead.firstName,
    last_name: lead.lastName,
    address: lead.address,
    phone: lead.phone,
    email: lead.email,
    tcpa_consent: lead.tcpaConsent,
    tcpa_language: lead.tcpaLanguage,
    trusted_form: lead.trustedForm,
    jornaya: lead.jornaya,
    ip: lead.ip,
    user_agent: lead.userAgent,
    pub_id: lead.pubId,
    sub_id: lead.subId,
    homeowner: lead.homeowner,
    metadata: lead.metadata,
    ping_id: lead.pingId,
    test: lead.test,
    answer: lead.answer,
    explanation: lead.explanation,
    price_cents: lead.priceCents,
    cost_cents: lead.costCents,
    created_at: lead.createdAt.toISOString(),
    request: lead.request,
    field_flags: lead.fieldFlags,
    trusted_form_ping_url: lead.trustedFormPingUrl,
    fields: lead.fields,
    kind: sale?.kind ?? 'exclusive',
    repost_since: check?.repostSince.toISOString() ?? null,
    bought_since: check?.boughtSince.toISOString() ?? null,
    matches: (sale?.matches ?? []).map((m) => ({
      id: m.id,
      campaign_id: m.campaignId,
      buyer_id: m.buyerId,
      price_cents: m.priceCents,
    })),
    caps: (sale?.caps ?? []).map(slotJson),
    budgets: (sale?.budgets ?? []).map((b) => ({
      owner_id: b.ownerId,
      period: b.period,
      period_start: b.periodStart.toISOString(),
      lim: b.limitCents,
      amount: b.amountCents,
    })),
    unlisted,
  };
}

/**
 * Stores a group of sales in one statement (see STORE_SALES). Answers each sale's outcome in order
 * (null: stored; else why it was refused), or, when the group's counters could not take some sales
 * (or their pings were stored meanwhile), their places: then nothing was stored.
 */
export async function storeSales(
  db: SqlRunner,
  group: readonly GroupedSale[],
): Promise<{ outcomes: (NotStored | null)[] } | { refused: ReadonlySet<number> }> {
  try {
    const rows = await db.query<{ i: number; why: NotStored | null }>(STORE_SALES, [
      JSON.stringify(group.map(groupedJson)),
    ]);
    const why = new Map(rows.map((r) => [Number(r.i), r.why]));
    return { outcomes: group.map((_, i) => why.get(i) ?? null) };
  } catch (error) {
    const { message } = sqlError(error);
    const at = message.indexOf(GROUP_REFUSED);
    if (at < 0) throw error;
    const places = message.slice(at + GROUP_REFUSED.length).match(/^[0-9,]*/)?.[0] ?? '';
    return { refused: new Set(places.split(',').filter(Boolean).map(Number)) };
  }
}

const TAKE_CAPS: NamedStatement = {
  name: 'leadex_take_caps',
  text: `
    with wanted as (
      select * from unnest($1::text[], $2::text[], $3::timestamptz[], $4::int[])
        as w(campaign_id, period, period_start, lim)
    )
    insert into cap_counters as c (campaign_id, period, period_start, n)
    select campaign_id, period, period_start, 1 from wanted
    on conflict (campaign_id, period, period_start) do update set n = c.n + 1
    where c.n < (select w.lim from wanted w where w.campaign_id = excluded.campaign_id
      and w.period = excluded.period and w.period_start = excluded.period_start)
    returning c.period`,
};

const RELEASE_CAPS: NamedStatement = {
  name: 'leadex_release_caps',
  text: `
    update cap_counters c set n = c.n - 1
    from unnest($1::text[], $2::text[], $3::timestamptz[]) as w(campaign_id, period, period_start)
    where c.campaign_id = w.campaign_id and c.period = w.period and c.period_start = w.period_start`,
};

const slotValues = (slots: CapSlot[]) => [
  slots.map((s) => s.campaignId),
  slots.map((s) => s.period),
  slots.map((s) => s.periodStart.toISOString()),
];

/**
 * Takes the slots of ONE campaign inside a transaction, all or nothing: slots taken in some periods
 * are given back when another period is full. Answers whether the campaign may sell.
 */
export async function takeCampaignCaps(tx: SqlRunner, slots: CapSlot[]): Promise<boolean> {
  if (slots.length === 0) return true;
  const taken = await tx.query<{ period: string }>(TAKE_CAPS, [...slotValues(slots), slots.map((s) => s.limit)]);
  if (taken.length === slots.length) return true;
  const periods = new Set(taken.map((t) => t.period));
  await releaseCaps(
    tx,
    slots.filter((s) => periods.has(s.period)),
  );
  return false;
}

/** Gives back slots taken in this transaction by a sale that does not stand. */
export async function releaseCaps(tx: SqlRunner, slots: CapSlot[]): Promise<void> {
  if (slots.length > 0) await tx.query(RELEASE_CAPS, slotValues(slots));
}

const TAKE_BUDGETS: NamedStatement = {
  name: 'leadex_take_budgets',
  text: `
    with wanted as (
      select * from unnest($1::text[], $2::text[], $3::timestamptz[], $4::int[], $5::int[])
        as w(owner_id, period, period_start, lim, amount)
    )
    insert into budget_counters as c (owner_id, period, period_start, spent_cents)
    select owner_id, period, period_start, amount from wanted where amount <= lim
    on conflict (owner_id, period, period_start) do update set spent_cents = c.spent_cents + excluded.spent_cents
    where c.spent_cents + excluded.spent_cents <= (select w.lim from wanted w where w.owner_id = excluded.owner_id
      and w.period = excluded.period and w.period_start = excluded.period_start)
    returning c.owner_id, c.period`,
};

const RELEASE_BUDGETS: NamedStatement = {
  name: 'leadex_release_budgets',
  text: `
    update budget_counters c set spent_cents = c.spent_cents - w.amount
    from unnest($1::text[], $2::text[], $3::timestamptz[], $4::int[]) as w(owner_id, period, period_start, amount)
    where c.owner_id = w.owner_id and c.period = w.period and c.period_start = w.period_start`,
};

/**
 * Raises ONE campaign's budget counters (its own and its buyer's) by its price inside a transaction,
 * all or nothing. Answers the slot whose budget the price would pass (the others given back), or null.
 */
export async function takeBudgets(tx: SqlRunner, slots: BudgetSlot[]): Promise<BudgetSlot | null> {
  if (slots.length === 0) return null;
  const taken = await tx.query<{ owner_id: string; period: string }>(TAKE_BUDGETS, [
    slots.map((s) => s.ownerId),
    slots.map((s) => s.period),
    slots.map((s) => s.periodStart.toISOString()),
    slots.map((s) => s.limitCents),
    slots.map((s) => s.amountCents),
  ]);
  if (taken.length === slots.length) return null;
  const isTaken = (s: BudgetSlot) => taken.some((t) => t.owner_id === s.ownerId && t.period === s.period);
  await releaseBudgets(tx, slots.filter(isTaken));
  return slots.find((s) => !isTaken(s)) ?? null;
}

/** Gives back budget raised in this transaction by a sale that does not stand. */
export async function releaseBudgets(tx: SqlRunner, slots: BudgetSlot[]): Promise<void> {
  if (slots.length === 0) return;
  await tx.query(RELEASE_BUDGETS, [
    slots.map((s) => s.ownerId),
    slots.map((s) => s.period),
    slots.map((s) => s.periodStart.toISOString()),
    slots.map((s) => s.amountCents),
  ]);
}

const TAKE_SPEND: NamedStatement = {
  name: 'leadex_take_spend',
  text: `
    with taken as (
      update buyer_spend set spent_cents = spent_cents + $2
      where buyer_id = $1 and spent_cents + $2 <= limit_cents
      returning 1
    )
    select exists (select 1 from buyer_spend where buyer_id = $1) as limited,
      exists (select 1 from taken) as taken`,
};

const RELEASE_SPEND: NamedStatement = {
  name: 'leadex_release_spend',
  text: 'update buyer_spend set spent_cents = spent_cents - $2 where buyer_id = $1',
};

/**
 * Reserves the price on the buyer's spend inside the careful path's transaction (rule 7); answers
 * whether the buyer may buy: always for a buyer without a limit (no row: it pays by card or invoice).
 */
export async function takeBuyerSpend(tx: SqlRunner, buyerId: string, priceCents: number): Promise<boolean> {
  const [row] = await tx.query<{ limited: boolean; taken: boolean }>(TAKE_SPEND, [buyerId, priceCents]);
  return !row?.limited || Boolean(row.taken);
}

export async function releaseBuyerSpend(tx: SqlRunner, buyerId: string, priceCents: number): Promise<void> {
  await tx.query(RELEASE_SPEND, [buyerId, priceCents]);
}

const LOCK_PING: NamedStatement = {
  name: 'leadex_lock_ping',
  text: 'select pg_advisory_xact_lock(hashtextextended($1, 0))',
};

const PING_SOLD: NamedStatement = {
  name: 'leadex_ping_sold',
  text: 'select exists (select 1 from leads where ping_id = $1) as sold',
};

/**
 * Makes the posts of one ping id take turns, inside the sale's transaction, and answers whether an
 * earlier one stored its lead already. A sale that calls buyers' systems (live deliveries, a
 * Ping/Post winner's post) must know before it calls them: the unique ping id stops a second sale
 * only when it stores its lead, after its buyers had the lead. Two statements: the check must see
 * what committed while the lock was awaited (a new snapshot).
 */
export async function takePingTurn(tx: SqlRunner, pingId: string): Promise<'first' | 'sold'> {
  await tx.query(LOCK_PING, [pingId]);
  const [row] = await tx.query<{ sold: boolean }>(PING_SOLD, [pingId]);
  return row?.sold ? 'sold' : 'first';
}

/** How long an Idempotency-Key's answer is replayed (DESIGN.md §4); from then on the key names a new request. */
export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;

const CLAIM_IDEMPOTENCY: NamedStatement = {
  name: 'leadex_claim_idempotency',
  // A key past its 24 hours is re-claimed in the same statement: of two requests racing for an
  // expired key, one takes the row lock and renews it; the other waits, then finds it fresh and
  // replays. A key that was only ignored once expired would answer "in progress" forever.
  // The request's fingerprint rides along at no cost: a key held by another request is told apart
  // when its answer is read for the replay (issue 28).
  text: `insert into idempotency_keys as k (api_key_id, key, request_hash, status_code, body, created_at)
    values ($1, $2, $5, 0, '{}'::jsonb, $3::timestamptz)
    on conflict (api_key_id, key) do update
      set request_hash = excluded.request_hash, status_code = 0, body = '{}'::jsonb, created_at = excluded.created_at
      where k.created_at <= $4::timestamptz
    returning key`,
};

const ANSWER_IDEMPOTENCY: NamedStatement = {
  name: 'leadex_answer_idempotency',
  text: `update idempotency_keys set status_code = $3, body = $4::jsonb where api_key_id = $1 and key = $2`,
};

/**
 * Claims an Idempotency-Key for this request, whose fingerprint is `requestHash` (a new key, or one
 * past its 24 hours); false when an earlier request holds it.
 */
export async function claimIdempotencyKey(
  tx: SqlRunner,
  apiKeyId: string,
  key: string,
  requestHash: string,
  at: Date,
): Promise<boolean> {
  const expiredBy = new Date(at.getTime() - IDEMPOTENCY_TTL_MS);
  const params = [apiKeyId, key, at.toISOString(), expiredBy.toISOString(), requestHash];
  return (await tx.query(CLAIM_IDEMPOTENCY, params)).length > 0;
}

const PURGE_IDEMPOTENCY: NamedStatement = {
  name: 'leadex_purge_idempotency',
  // In batches, by the created_at index: one day of keys at full volume is too many for one delete.
  text: `with gone as (
      delete from idempotency_keys where (api_key_id, key) in (
        select api_key_id, key from idempotency_keys where created_at <= $1::timestamptz limit $2)
      returning 1)
    select count(*)::int as n from gone`,
};

/** Deletes the keys created at or before `expiredBy` (past their 24 hours); answers how many. */
export async function purgeIdempotencyKeys(db: SqlRunner, expiredBy: Date, batch = 5_000): Promise<number> {
  let total = 0;
  for (;;) {
    const [row] = await db.query<{ n: number }>(PURGE_IDEMPOTENCY, [expiredBy.toISOString(), batch]);
    const n = row?.n ?? 0;
    total += n;
    if (n < batch) return total;
  }
}

/** The row of an Idempotency-Key of this API key, if any: its request's fingerprint, time and answer. */
export async function idempotencyKeyOf(db: Db, apiKeyId: string, key: string) {
  const [row] = await db
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.apiKeyId, apiKeyId), eq(idempotencyKeys.key, key)));
  return row;
}

export async function answerIdempotencyKey(
  tx: SqlRunner,
  apiKeyId: string,
  key: string,
  answer: { status: number; body: Record<string, unknown> },
): Promise<void> {
  await tx.query(ANSWER_IDEMPOTENCY, [apiKeyId, key, answer.status, JSON.stringify(answer.body)]);
}

/** The lead first stored for a ping id: its answer is replayed to a repeated post. */
export async function leadOfPing(db: Db, pingId: string) {
  const [first] = await db.select({ id: leads.id, answer: leads.answer }).from(leads).where(eq(leads.pingId, pingId));
  return first;
}

const INSERT_ATTEMPTS: NamedStatement = {
  name: 'leadex_insert_inline_attempts',
  text: `
    insert into delivery_attempts (id, match_id, channel, target, attempt, accepted, status_code, request, response,
      error, reason, provider_id, last, duration_ms, at)
    select a.id, a.match_id, '${CUSTOM_CHANNEL}', a.target, 1, a.accepted, a.status_code, a.request, a.response,
      a.error, a.reason, a.provider_id, a.last, a.duration_ms, a.at
    from unnest($1::text[], $2::text[], $3::text[], $4::boolean[], $5::int[], $6::text[], $7::text[], $8::text[],
      $9::text[], $10::boolean[], $11::int[], $12::timestamptz[], $13::text[])
      as a(id, match_id, target, accepted, status_code, request, response, error, provider_id, last, duration_ms, at, reason)`,
};

const INSERT_REJECTED: NamedStatement = {
  name: 'leadex_insert_rejected_matches',
  text: `
    insert into lead_matches (id, lead_id, campaign_id, buyer_id, kind, price_cents, rejected, delivery_status, created_at)
    select m.id, $1, m.campaign_id, m.buyer_id, $6, m.price_cents, true, 'rejected', $7::timestamptz
    from unnest($2::text[], $3::text[], $4::text[], $5::int[]) as m(id, campaign_id, buyer_id, price_cents)`,
};

const SET_BUYER_LEAD_IDS: NamedStatement = {
  name: 'leadex_set_buyer_lead_ids',
  text: `
    update lead_matches m set buyer_lead_id = b.buyer_lead_id
    from unnest($1::text[], $2::text[]) as b(id, buyer_lead_id) where m.id = b.id`,
};

/**
 * Records what the sale's inline deliveries did, in the sale's transaction: every attempt, the
 * matches the buyers refused (rejected: never billed, never delivered) and the buyers' lead ids.
 */
export async function recordInline(
  tx: SqlRunner,
  leadId: string,
  kind: string,
  at: Date,
  attempts: InlineAttempt[],
  rejected: { id: string; campaignId: string; buyerId: string; priceCents: number }[],
  buyerLeadIds: { matchId: string; buyerLeadId: string }[],
): Promise<void> {
  if (rejected.length > 0)
    await tx.query(INSERT_REJECTED, [
      leadId,
      rejected.map((m) => m.id),
      rejected.map((m) => m.campaignId),
      rejected.map((m) => m.buyerId),
      rejected.map((m) => m.priceCents),
      kind,
      at.toISOString(),
    ]);
  if (attempts.length > 0)
    await tx.query(INSERT_ATTEMPTS, [
      attempts.map((a) => a.id),
      attempts.map((a) => a.matchId),
      attempts.map((a) => a.target),
      attempts.map((a) => a.accepted),
      attempts.map((a) => a.statusCode),
      attempts.map((a) => a.request),
      attempts.map((a) => a.response),
      attempts.map((a) => a.error),
      attempts.map((a) => a.providerId),
      attempts.map((a) => a.last),
      attempts.map((a) => a.durationMs),
      attempts.map((a) => a.at.toISOString()),
      attempts.map((a) => a.reason),
    ]);
  if (buyerLeadIds.length > 0)
    await tx.query(SET_BUYER_LEAD_IDS, [buyerLeadIds.map((b) => b.matchId), buyerLeadIds.map((b) => b.buyerLeadId)]);
}
