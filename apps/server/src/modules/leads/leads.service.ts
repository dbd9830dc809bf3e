import { Readable } from 'node:stream';
import {
  type AdminLeadListItem,
  type BuyerLeadListItem,
  type FieldValue,
  fieldsForAnswer,
  isBlankFieldValue,
  isoInZone,
  LEAD_CSV_COLUMNS,
  LEADS_COUNT_LIMIT,
  LEADS_NAME_COUNT_LIMIT,
  type LeadDateRange,
  type LeadExplanationEntry,
  type LeadListItem,
  type LeadListQuery,
  type LeadPage,
  type LeadPingCall,
  type LeadUpdate,
  RETURN_STATUS_LABELS,
  type ReturnStatus,
  readFieldValue,
  type ServiceField,
  type ServiceFieldsAnswer,
  type SourceLeadListItem,
  trustedFormCertificateUrl,
} from '@leadex/domain';
import { stringify } from 'csv-stringify/sync';
import type { Db } from '../../db/client';
import { unpackExplanation } from '../../distribution/explanation';
import { type Clock, toEpochSeconds } from '../../lib/clock';
import { csvText } from '../../lib/csv-text';
import { orUndefined } from '../../lib/dto';
import { AppError } from '../../lib/errors';
import { exchangeZone } from '../../lib/exchange-zone';
import { centsToDollars, formatMoney } from '../../lib/money';
import type { Viewer } from '../../plugins/auth';
import { withinReturnWindow } from '../bills/money';
import type { AccessLogService } from '../compliance/access-log.service';
import { loggedFilter } from '../compliance/access-log.service';
import type { AttemptRow, DeliveryLog } from '../deliveries/notify/delivery-log';
import { returnWindowDays } from '../returns/returns.service';
import { leadDateSpan, leadsToday } from './date-range';
import {
  type LeadCursor,
  type LeadFieldCondition,
  type LeadListFilter,
  type LeadListRow,
  type LeadOrder,
  type LeadRow,
  type LeadScope,
  leadsRepo,
  type MatchRow,
  type PingCallRow,
} from './leads.repo';

function matchOf(m: MatchRow, forAdmin: boolean) {
  return {
    _id: m.id,
    buyer: forAdmin ? { _id: m.buyerId, name: m.buyerName } : { _id: m.buyerId },
    campaign: { _id: m.campaignId, name: m.campaignName },
    kind: m.kind,
    price: centsToDollars(m.priceCents),
    shared_price: m.kind === 'shared' ? centsToDollars(m.priceCents) : undefined,
    reject: m.rejected,
    ts: toEpochSeconds(m.createdAt),
    bill: orUndefined(m.billId),
    buyer_lead_id: orUndefined(m.buyerLeadId),
    delivery_status: forAdmin ? m.deliveryStatus : undefined,
    return: m.returnStatus
      ? {
          reason: orUndefined(m.returnReason),
          comment: orUndefined(m.returnComment),
          approve: m.returnStatus === 'approved' ? { approve: true } : undefined,
          deny: m.returnStatus === 'denied' ? { deny: true } : undefined,
        }
      : undefined,
  };
}

/** A delivery log entry (spec: `accept` for webhooks, an email's events, an SMS's status). */
function logEntry(a: AttemptRow) {
  const entry = {
    _id: a.id,
    target: a.target,
    attempt: a.attempt,
    accept: a.accepted,
    status_code: orUndefined(a.statusCode),
    request: orUndefined(a.request),
    response: orUndefined(a.response),
    error: orUndefined(a.error),
    reason: orUndefined(a.reason),
    duration_ms: a.durationMs,
    ts: toEpochSeconds(a.at),
  };
  if (a.channel === 'email') return { ...entry, status: [{ data: { event: a.accepted ? 'delivered' : 'failed' } }] };
  if (a.channel === 'sms') return { ...entry, status: a.accepted ? 'delivered' : a.last ? 'failed' : 'sent' };
  return entry;
}

/** A Ping/Post buyer's ping for the lead, as the admin's lead detail lists it. */
function pingCallEntry(c: PingCallRow): LeadPingCall {
  return {
    _id: c.id,
    buyer: { _id: c.buyerId, ...(c.buyerName ? { name: c.buyerName } : {}) },
    delivery: { _id: c.deliveryId, ...(c.deliveryName ? { name: c.deliveryName } : {}) },
    outcome: c.outcome as LeadPingCall['outcome'],
    bid: c.bidCents === null ? undefined : centsToDollars(c.bidCents),
    buyer_ping_id: orUndefined(c.buyerPingId),
    status_code: orUndefined(c.statusCode),
    request: orUndefined(c.request),
    response: orUndefined(c.response),
    error: orUndefined(c.error),
    duration_ms: c.durationMs,
    ts: toEpochSeconds(c.at),
  };
}

/**
 * Each match's reason from its buyer's custom delivery: the buyer's words on its last custom attempt,
 * when that attempt was not accepted (a later success makes an earlier refusal moot).
 */
function deliveryReasons(attempts: readonly AttemptRow[]): Map<string, string> {
  const last = new Map<string, AttemptRow>();
  // Oldest first: the last one seen for a match is its latest.
  for (const a of attempts) if (a.channel === 'custom') last.set(a.matchId, a);
  const reasons = new Map<string, string>();
  for (const [matchId, a] of last) if (!a.accepted && a.reason) reasons.set(matchId, a.reason);
  return reasons;
}

/** The matches with their buyers' delivery reasons (see `deliveryReasons`). */
function withDeliveryReasons<M extends { _id: string }>(matches: M[], attempts: readonly AttemptRow[]) {
  const reasons = deliveryReasons(attempts);
  return matches.map((m) => {
    const reason = reasons.get(m._id);
    return reason === undefined ? m : { ...m, delivery_reason: reason };
  });
}

/**
 * The admin's delivery logs per channel on each match (GET /lead/{id}?includeNotifyLogs=true); a custom
 * delivery's attempts name the delivery (its target is the delivery's id).
 */
function withNotifyLogs<M extends { _id: string }>(
  matches: M[],
  attempts: AttemptRow[],
  deliveryNames: ReadonlyMap<string, string>,
) {
  const entry = (a: AttemptRow) =>
    a.channel === 'custom'
      ? { ...logEntry(a), delivery: { _id: a.target, name: deliveryNames.get(a.target) ?? a.target } }
      : logEntry(a);
  return matches.map((m) => {
    const of = (channel: string) => attempts.filter((a) => a.matchId === m._id && a.channel === channel).map(entry);
    return {
      ...m,
      webhook: of('webhook'),
      broadcast_webhooks: of('broadcast'),
      email: of('email'),
      sms: of('sms'),
      custom: of('custom'),
    };
  });
}

interface DetailOptions {
  /** The engine's explanation (admins). */
  includeMatchLog: boolean;
  /** Each match's delivery logs (admins). */
  includeNotifyLogs?: boolean;
}

/**
 * Leads as each role may see them (DESIGN.md §8): admins everything, with the engine's explanation;
 * a buyer only a lead sold to it, with its own match; a source only its own leads, without buyers or prices.
 */
export function createLeadsService({
  db,
  clock,
  exportBatch = EXPORT_BATCH,
  deliveryLog,
  serviceFields,
  accessLog,
}: {
  db: Db;
  clock: Clock;
  /** Each service's own fields (issue 33), removed ones included: their labels, types and who may see them. */
  serviceFields: { all(): Promise<ServiceFieldsAnswer[]> };
  /** Each match's delivery logs (the deliveries module's). */
  deliveryLog: DeliveryLog;
  /** Who saw what (issue 35): every view, list page and export of leads is recorded there. */
  accessLog: AccessLogService;
  /** Rows an export reads per round trip (tests make it small to cross batches). */
  exportBatch?: number;
}) {
  /** Every service's fields, by service (removed ones included: old leads still show them). */
  async function definitions(): Promise<FieldDefinitions> {
    return new Map((await serviceFields.all()).map((s) => [s.service, s.fields]));
  }

  /** The lead's own fields as the answers give them (money in dollars); absent when it has none. */
  async function fieldsOfLead(lead: LeadRow) {
    if (!lead.fields || Object.keys(lead.fields).length === 0) return {};
    const defs = (await definitions()).get(lead.service) ?? [];
    return { fields: fieldsForAnswer(defs, lead.fields) };
  }

  function base(lead: LeadRow & { sourceName: string }) {
    return {
      _id: lead.id,
      source: { _id: lead.sourceId, name: lead.sourceName },
      name: orUndefined(lead.name),
      address: orUndefined(lead.address),
      city: orUndefined(lead.city),
      state: orUndefined(lead.state),
      zip: lead.zip,
      phone: orUndefined(lead.phone),
      email: orUndefined(lead.email),
      service: lead.service,
      channel: orUndefined(lead.channel),
      trusted_form: orUndefined(lead.trustedForm),
      trusted_form_ping_url: orUndefined(lead.trustedFormPingUrl),
      tcpa_consent: orUndefined(lead.tcpaConsent),
      tcpa_language: orUndefined(lead.tcpaLanguage),
      jornaya: orUndefined(lead.jornaya),
      homeowner: orUndefined(lead.homeowner),
      pub_id: orUndefined(lead.pubId),
      sub_id: orUndefined(lead.subId),
      tags: lead.tags,
      ping_id: lead.pingId === 'no_ping' ? 'no_ping' : 'ping',
      test: lead.test,
      ts: toEpochSeconds(lead.createdAt),
      // Every flagged field is one each role is shown (contact, location, consent).
      field_flags: orUndefined(lead.fieldFlags),
    };
  }

  async function notifyLogsOf<M extends { _id: string }>(matches: M[], attempts: AttemptRow[]) {
    const deliveryIds = [...new Set(attempts.filter((a) => a.channel === 'custom').map((a) => a.target))];
    return withNotifyLogs(matches, attempts, await leadsRepo.deliveryNames(db, deliveryIds));
  }

  /** Everything of a lead, for admins: payout, revenue, every match with its delivery logs, the explanation. */
  async function adminDetail(lead: LeadRow & { sourceName: string }, options: DetailOptions) {
    const matches = await leadsRepo.matchesOf(db, [lead.id]);
    const attempts = await deliveryLog.attemptsOf(matches.map((m) => m.id));
    const shown = withDeliveryReasons(
      matches.map((m) => matchOf(m, true)),
      attempts,
    );
    return {
      ...base(lead),
      ...(await fieldsOfLead(lead)),
      ip: orUndefined(lead.ip),
      user_agent: orUndefined(lead.userAgent),
      quality: orUndefined(lead.quality),
      metadata: orUndefined(lead.metadata),
      cost: centsToDollars(lead.costCents),
      price: centsToDollars(lead.priceCents),
      buyers: matches.filter((m) => !m.rejected).map((m) => m.buyerName),
      match: options.includeNotifyLogs ? await notifyLogsOf(shown, attempts) : shown,
      answer: lead.answer ?? undefined,
      ...(options.includeMatchLog ? { explanation: await unpackExplanation(db, lead.explanation) } : {}),
      pings: (await leadsRepo.pingCallsOf(db, lead)).map(pingCallEntry),
    };
  }

  /** The lead as `viewer` may see it, or 404 (a buyer that did not buy it, another source). */
  async function detailFor(viewer: Viewer, lead: LeadRow & { sourceName: string }, options: DetailOptions) {
    const id = lead.id;
    if (viewer.role === 'admin') return adminDetail(lead, options);
    if (viewer.role === 'buyer') {
      const mine = (await leadsRepo.matchesOf(db, [id])).filter((m) => m.buyerId === viewer.roleId);
      if (mine.length === 0) throw AppError.notFound('Lead');
      const windowDays = await returnWindowDays(db);
      const attempts = await deliveryLog.attemptsOf(mine.map((m) => m.id));
      const now = clock.now();
      // Exchanges keep their suppliers from their buyers: the source only for a buyer allowed to see it.
      const { source, ...seen } = base(lead);
      return {
        ...seen,
        // The buyer sees the lead's contact fields, so its personal service fields too.
        ...(await fieldsOfLead(lead)),
        ...(mine[0]?.buyerShowsSource ? { source } : {}),
        price: centsToDollars(mine[0]?.priceCents ?? 0),
        match: withDeliveryReasons(
          mine.map((m) => ({
            ...matchOf(m, false),
            // Whether Request Lead Return can still be used: sold, not returned yet, within the window.
            returnable: !m.rejected && !m.returnStatus && withinReturnWindow(m.createdAt, now, windowDays),
          })),
          attempts,
        ),
      };
    }
    if (viewer.role === 'source' && lead.sourceId === viewer.roleId) {
      // The source sees its own lead's contact fields, so its personal service fields too.
      return { ...base(lead), ...(await fieldsOfLead(lead)), cost: centsToDollars(lead.costCents) };
    }
    throw AppError.notFound('Lead');
  }

  return {
    /** The engine's explanation of a ping (the simulator's), with the campaigns' and buyers' names. */
    named(explanation: readonly LeadExplanationEntry[]) {
      return unpackExplanation(db, explanation);
    },

    /** The demo's history is backdated: its leads were delivered long ago, not to be sent again at start. */
    markEveryMatchDelivered: () => leadsRepo.markEveryMatchDelivered(db),

    /** How the engine decided a lead (the simulator shows it): every campaign considered, and why. */
    async explanationOf(leadId: string) {
      return unpackExplanation(db, await leadsRepo.explanationOf(db, leadId));
    },

    /** A page of the viewer's leads (GET /api/lead/date/{dateq}); the total counted up to 10,000 (1,000 for a name search). */
    async list(viewer: Viewer, dateq: LeadDateRange, query: LeadListQuery): Promise<LeadPage<LeadListItem>> {
      const scope = scopeOf(viewer);
      const defs = await definitions();
      const filter = filterOf(dateq, query, scope, clock.now(), defs);
      const countLimit = filter.name ? LEADS_NAME_COUNT_LIMIT : LEADS_COUNT_LIMIT;
      const [rows, counted] = await Promise.all([
        leadsRepo.list(db, scope, filter, orderOf(query), {
          limit: query.pageSize,
          offset: (query.page - 1) * query.pageSize,
        }),
        leadsRepo.count(db, scope, filter, countLimit + 1),
      ]);
      const more = counted > countLimit;
      // One row per page shown: its leads' ids, the range and the filter.
      await accessLog.record(viewer, 'lead.list', {
        leadIds: rows.map((r) => r.id),
        detail: listDetail(dateq, query),
      });
      return {
        data: rows.map((row) => withFields(scope, listItem(scope, row), row, defs)),
        total: Math.min(counted, countLimit),
        ...(more ? { more } : {}),
      };
    },

    /** The values present for a select filter (service or ZIP) over the range. */
    async values(
      viewer: Viewer,
      field: 'service' | 'zip',
      dateq: LeadDateRange,
      custom: { begin?: string; end?: string },
    ) {
      const scope = scopeOf(viewer);
      return leadsRepo.values(db, scope, leadDateSpan(dateq, clock.now(), custom), field, VALUES_LIMIT);
    },

    /**
     * The list as CSV (GET /api/lead/date/{dateq}/export.csv): the role's columns, every matching row,
     * read in keyset batches and streamed, so an export of millions never sits in memory.
     */
    async exportCsv(
      viewer: Viewer,
      dateq: LeadDateRange,
      query: LeadListQuery,
    ): Promise<{ fileName: string; body: Readable }> {
      const scope = scopeOf(viewer);
      const order = orderOf(query);
      const now = clock.now();
      // The filter is read before the first byte: a bad one answers 400, not a stream cut short.
      const defs = await definitions();
      const filter = filterOf(dateq, query, scope, now, defs);
      // Each batch becomes one chunk of CSV: a failed read ends the stream with its error (the
      // response is cut short, never a file that looks whole).
      async function* chunks() {
        // The services' own fields after the role's columns (issue 33): the service's, or for an export
        // of several services the union of theirs, in the services' order then each one's own.
        const services = filter.service
          ? [filter.service]
          : await leadsRepo.values(db, scope, filter.span, 'service', VALUES_LIMIT);
        const columns = csvFieldColumns(services, defs, scope.role);
        yield stringify([[...LEAD_CSV_COLUMNS[scope.role], ...columns.map((c) => c.header)]]);
        // Recorded before the first byte: an export nobody logged never starts.
        await accessLog.record(viewer, 'lead.export', { detail: listDetail(dateq, query) });
        let cursor: LeadCursor | undefined;
        for (;;) {
          const batch = await leadsRepo.list(db, scope, filter, order, { limit: exportBatch, cursor });
          if (batch.length > 0)
            yield stringify(batch.map((row) => [...csvRecord(scope.role, row), ...csvFieldCells(columns, row)]));
          const last = batch.at(-1);
          if (!last || batch.length < exportBatch) return;
          cursor = { at: last.cursorAt, id: last.id, service: last.service };
        }
      }
      return { fileName: `leads_${leadsToday(now)}.csv`, body: Readable.from(chunks()) };
    },

    /**
     * An admin's edit of a lead (PUT /api/lead/{id}): the changed fields, by the post's rules. A lead
     * keeps a name and a phone or an email, as a post must carry them.
     */
    async update(id: string, changes: LeadUpdate) {
      const lead = await leadsRepo.findById(db, id);
      if (!lead) throw AppError.notFound('Lead');
      const has = <K extends keyof LeadUpdate>(key: K) => Object.hasOwn(changes, key);
      const name = has('name') ? changes.name : lead.name;
      const phone = has('phone') ? changes.phone : lead.phone;
      const email = has('email') ? changes.email : lead.email;
      if (!name) throw AppError.field('name', 'Name is required');
      if (!phone && !email) throw AppError.field('phone', 'A phone or an email is required');
      const set: Record<string, unknown> = {};
      const columns: Record<keyof LeadUpdate, string> = {
        name: 'name',
        address: 'address',
        city: 'city',
        state: 'state',
        zip: 'zip',
        phone: 'phone',
        email: 'email',
        service: 'service',
        tcpa_consent: 'tcpaConsent',
        tcpa_language: 'tcpaLanguage',
        trusted_form: 'trustedForm',
        jornaya: 'jornaya',
        pub_id: 'pubId',
        sub_id: 'subId',
        homeowner: 'homeowner',
        tags: 'tags',
        quality: 'quality',
      };
      for (const [key, column] of Object.entries(columns)) {
        if (has(key as keyof LeadUpdate)) set[column] = changes[key as keyof LeadUpdate] ?? null;
      }
      if (has('quality')) set.quality = { ...(lead.quality ?? {}), ...changes.quality };
      if (Object.keys(set).length > 0) await leadsRepo.update(db, id, set);
      const updated = await leadsRepo.findById(db, id);
      if (!updated) throw AppError.notFound('Lead');
      return adminDetail(updated, { includeMatchLog: true, includeNotifyLogs: true });
    },

    /**
     * The lead as the compliance module reads it (its consent evidence and calling window), when the
     * viewer may: an admin, or a buyer that bought it. Null otherwise (another buyer, a source: 404).
     */
    async soldLeadFor(viewer: Viewer, id: string) {
      const lead = await leadsRepo.findById(db, id);
      if (!lead) return null;
      if (viewer.role === 'admin') return lead;
      if (viewer.role !== 'buyer') return null;
      const mine = (await leadsRepo.matchesOf(db, [id])).some((m) => m.buyerId === viewer.roleId && !m.rejected);
      return mine ? lead : null;
    },

    async get(viewer: Viewer, id: string, options: DetailOptions) {
      const lead = await leadsRepo.findById(db, id);
      if (!lead) throw AppError.notFound('Lead');
      const shown = await detailFor(viewer, lead, options);
      await accessLog.record(viewer, 'lead.view', { leadIds: [id] });
      return shown;
    },
  };
}

/** A list's or export's range and filter as the access log keeps them (a name search by its first letter). */
function listDetail(dateq: LeadDateRange, query: LeadListQuery): Record<string, unknown> {
  const { page, pageSize, sort, order, ...filter } = query;
  return loggedFilter({ dateq, ...filter, ...(dateq === 'range' ? {} : { begin: undefined, end: undefined }) });
}

export type LeadsService = ReturnType<typeof createLeadsService>;

/** Rows an export reads per round trip. */
const EXPORT_BATCH = 1_000;
/** Most values a select filter offers. */
const VALUES_LIMIT = 500;

function scopeOf(viewer: Viewer): LeadScope {
  if (viewer.role === 'admin') return { role: 'admin' };
  if (viewer.role === 'buyer' && viewer.roleId) return { role: 'buyer', buyerId: viewer.roleId };
  if (viewer.role === 'source' && viewer.roleId) return { role: 'source', sourceId: viewer.roleId };
  throw new AppError('forbidden', 'You do not have access to leads');
}

/** Each service's own fields, removed ones included, by service. */
type FieldDefinitions = ReadonlyMap<string, readonly ServiceField[]>;

/** Whether the role sees a field in lists: a source's list shows no contact, so no personal field either. */
const listShows = (role: LeadScope['role'], f: ServiceField) => role !== 'source' || !f.personal;

/**
 * A list's field filters as the repository runs them (issue 33): each key a field of the filtered service
 * (any service's without one) the role may see, each value read as the field's type reads a source's.
 * An unknown key or an unreadable value is a 400 naming the filter.
 */
function fieldConditions(
  query: LeadListQuery,
  scope: LeadScope,
  defs: FieldDefinitions,
): LeadFieldCondition[] | undefined {
  if (!query.field?.length) return undefined;
  const candidates = query.service ? (defs.get(query.service) ?? []) : [...defs.values()].flat();
  return query.field.map(({ key, value }) => {
    // A live field before a removed one of the same key (another service's).
    const matching = candidates.filter((f) => f.key === key && listShows(scope.role, f));
    const field = matching.find((f) => !f.removed) ?? matching[0];
    if (!field)
      throw AppError.field(
        'field',
        query.service ? `${query.service} has no field “${key}”` : `No service has a field “${key}”`,
      );
    if (isBlankFieldValue(value)) throw AppError.field('field', `${field.label}: a value is required`);
    if (field.type === 'text') return { key, text: value };
    const read = readFieldValue(field, value);
    if ('flag' in read) throw AppError.field('field', `${field.label}: “${value}” cannot be read: ${read.flag}`);
    return { key, exact: read.value };
  });
}

function filterOf(
  dateq: LeadDateRange,
  query: LeadListQuery,
  scope: LeadScope,
  now: Date,
  defs: FieldDefinitions,
): LeadListFilter {
  return {
    fields: fieldConditions(query, scope, defs),
    span: leadDateSpan(dateq, now, query),
    name: query.name,
    // Only admins filter by buyer: a buyer sees its own leads, a source never sees buyers.
    buyer: scope.role === 'admin' ? query.buyer : undefined,
    service: query.service,
    zip: query.zip,
  };
}

function orderOf(query: LeadListQuery): LeadOrder {
  const sort = query.sort ?? 'date';
  // Newest first unless asked: the spec's default is date descending.
  return { sort, order: query.order ?? (sort === 'date' ? 'desc' : 'asc') };
}

const dollars = centsToDollars;
const orOmit = <T>(v: T | null) => v ?? undefined;

/** A row as the scope's role may see it (DESIGN.md §8): buyers their own price, sources no buyers or prices. */
function listItem(scope: LeadScope, row: LeadListRow): AdminLeadListItem | BuyerLeadListItem | SourceLeadListItem {
  const common = {
    _id: row.id,
    ts: toEpochSeconds(row.at),
    name: orOmit(row.name),
    service: row.service,
    state: orOmit(row.state),
    zip: row.zip,
  };
  if (scope.role === 'admin')
    return {
      ...common,
      buyers: row.buyerNames ?? [],
      cost: dollars(row.costCents),
      price: dollars(row.priceCents),
      source: { _id: row.sourceId, name: row.sourceName },
      channel: orOmit(row.channel),
      sub_id: orOmit(row.subId),
      pub_id: orOmit(row.pubId),
      tcpa_consent: orOmit(row.tcpaConsent),
      // Yes only for a certificate on TrustedForm's host (a lead stored before the check may hold anything).
      trusted_form: trustedFormCertificateUrl(row.trustedForm) !== null,
      jornaya: Boolean(row.jornaya),
      phone: orOmit(row.phone),
      email: orOmit(row.email),
      homeowner: orOmit(row.homeowner),
      test: row.test,
    };
  if (scope.role === 'buyer')
    return {
      ...common,
      price: dollars(row.matchPriceCents ?? 0),
      phone: orOmit(row.phone),
      email: orOmit(row.email),
      type: row.pingId === 'no_ping' ? 'Direct' : 'Ping/Post',
      return_status: orOmit(row.returnStatus as ReturnStatus | null),
    };
  return {
    ...common,
    channel: orOmit(row.channel),
    cost: dollars(row.costCents),
    sold: row.costCents > 0 || row.priceCents > 0,
    test: row.test,
  };
}

/** A row with the service's own fields the role may see (money in dollars); none when it has none. */
function withFields<T extends object>(scope: LeadScope, item: T, row: LeadListRow, defs: FieldDefinitions): T {
  if (!row.fields || Object.keys(row.fields).length === 0) return item;
  const own = defs.get(row.service) ?? [];
  const shown: Record<string, FieldValue> = {};
  for (const [key, value] of Object.entries(row.fields)) {
    const def = own.find((f) => f.key === key);
    if (def && !listShows(scope.role, def)) continue;
    shown[key] = value;
  }
  return { ...item, fields: fieldsForAnswer(own, shown) };
}

/** A column of the services' own fields in an export: its header and its field per service. */
interface CsvFieldColumn {
  key: string;
  header: string;
  /** The field's definition in each service that has it (types may differ between services). */
  byService: Map<string, ServiceField>;
}

/**
 * The export's field columns: the fields of `services`, in the services' order then each one's own,
 * one column per key (removed fields included: old leads carry them), headed by the label, with the key
 * beside it where two fields share a label. A source's export leaves personal fields out, as its contacts.
 */
export function csvFieldColumns(
  services: readonly string[],
  defs: FieldDefinitions,
  role: LeadScope['role'],
): CsvFieldColumn[] {
  const columns = new Map<string, CsvFieldColumn>();
  for (const service of services)
    for (const f of defs.get(service) ?? []) {
      if (!listShows(role, f)) continue;
      const column = columns.get(f.key) ?? { key: f.key, header: f.label, byService: new Map() };
      column.byService.set(service, f);
      columns.set(f.key, column);
    }
  const list = [...columns.values()];
  const labels = new Map<string, number>();
  for (const c of list) labels.set(c.header.toLowerCase(), (labels.get(c.header.toLowerCase()) ?? 0) + 1);
  for (const c of list) if ((labels.get(c.header.toLowerCase()) ?? 0) > 1) c.header = `${c.header} (${c.key})`;
  return list;
}

/** A row's cells under the field columns: money in dollars with cents, Yes or No, text made safe. */
function csvFieldCells(columns: readonly CsvFieldColumn[], row: LeadListRow): string[] {
  return columns.map((c) => {
    const value = row.fields?.[c.key];
    const field = c.byService.get(row.service);
    if (value === undefined || !field) return '';
    if (typeof value === 'boolean') return value ? 'Yes' : 'No';
    if (field.type === 'money' && typeof value === 'number') return formatMoney(value);
    return typeof value === 'number' ? String(value) : csvText(value);
  });
}

/** Whether a lead carries a text (a certificate, a token): absent is No. */
const presence = (value: string | null) => (value ? 'Yes' : 'No');
/** A flag's cell: Yes or No, and Unknown when the source did not say (never No for a flag not sent). */
const yesNo = (value: boolean | null) => (value === null ? 'Unknown' : value ? 'Yes' : 'No');
/** Date and time in ISO 8601 with the exchange zone's offset: 2026-11-27T03:31:00-05:00 (docs/decisions.md "One clock"). */
const csvDate = (at: Date) => isoInZone(at, exchangeZone());

export { csvText };

function csvRecord(role: LeadScope['role'], row: LeadListRow): string[] {
  const date = csvDate(row.at);
  if (role === 'admin')
    return [
      date,
      csvText(row.name),
      csvText((row.buyerNames ?? []).join(', ')),
      row.service,
      csvText(row.state),
      row.zip,
      formatMoney(row.costCents),
      formatMoney(row.priceCents),
      csvText(row.sourceName),
      csvText(row.channel),
      csvText(row.subId),
      csvText(row.pubId),
      yesNo(row.tcpaConsent),
      presence(trustedFormCertificateUrl(row.trustedForm)),
      presence(row.jornaya),
      csvText(row.phone),
      csvText(row.email),
      yesNo(row.homeowner),
    ];
  // A buyer's and a source's columns open alike: date, name, service, state, ZIP.
  const opening = [date, csvText(row.name), row.service, csvText(row.state), row.zip];
  if (role === 'buyer')
    return [
      ...opening,
      formatMoney(row.matchPriceCents ?? 0),
      csvText(row.phone),
      csvText(row.email),
      row.pingId === 'no_ping' ? 'Direct' : 'Ping/Post',
      row.returnStatus ? RETURN_STATUS_LABELS[row.returnStatus as ReturnStatus] : '',
    ];
  return [...opening, csvText(row.channel), formatMoney(row.costCents), yesNo(row.costCents > 0 || row.priceCents > 0)];
}
