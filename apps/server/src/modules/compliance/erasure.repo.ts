import { eq, inArray, type SQL, sql } from 'drizzle-orm';
import { type Db, rowsOf, type Tx } from '../../db/client';
import { newestWithUserName, selectWithUserName, type WithUserName } from '../../db/records';
import type { NotifyConfig } from '../../db/schema';
import { buyers, erasureNotices, erasureRequests, leadMatches } from '../../db/schema';

/** What an erasure looks for: the leads holding the contact, and the texts that may quote it. */
export interface ErasureTarget {
  /** The column matched (leads.phone holds 10 digits; leads.email is lower-cased). */
  column: 'phone' | 'email';
  value: string;
  /** ILIKE patterns of the contact as free texts write it (a phone formatted several ways). */
  patterns: string[];
}

/** A lead an erasure overwrites, as its preview lists it. */
export interface ErasureLeadRow {
  id: string;
  createdAt: Date;
  name: string | null;
  service: string;
  zip: string;
  sourceId: string;
  sourceName: string | null;
  pingId: string;
  buyers: string[] | null;
}

/** A buyer that received one of the leads: its matches and its notify settings. */
export interface ErasureBuyerRow {
  buyerId: string;
  buyerName: string;
  buyerEmail: string;
  buyerNotify: NotifyConfig;
  campaignNotify: NotifyConfig | null;
  matchIds: string[];
}

/** The overwrite of a free text that held personal data. */
export const ERASED = '[erased]';

/**
 * The service fields an erasure removes from a lead beside its contact columns: every field its service
 * marks personal, and a date of birth under the names California's deletion lists read it from (migration
 * 0039), personal whatever the service says. The others (roof type, monthly bill) describe the request,
 * not the person, and stay for the reports.
 */
const DATE_OF_BIRTH_KEYS = ['dob', 'date_of_birth', 'birth_date'] as const;

/** A text[] of parameters (an empty list is an empty array). */
const texts = (values: readonly string[]): SQL =>
  sql`array[${sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  )}]::text[]`;
const ids = texts;

const anyPattern = (column: SQL, patterns: string[]): SQL => sql`(${column}) ilike any (${texts(patterns)})`;

/**
 * Where an erasure finds the rows that hold a person's contact (issue 35 item 1): the leads by the
 * contact's index, everything hanging from them by id (matches, delivery logs, Ping/Post calls, the
 * outbox rows the delivery logs name), and the few small tables of free texts (outbox, messages,
 * replayable answers) by the contact as written.
 */
export const erasureRepo = {
  async leads(db: Db | Tx, target: ErasureTarget): Promise<ErasureLeadRow[]> {
    const column = target.column === 'phone' ? sql`l.phone` : sql`l.email`;
    const result = await db.execute(sql`
      select l.id, l.created_at as "createdAt", l.name, l.service, l.zip, l.source_id as "sourceId",
             s.name as "sourceName", l.ping_id as "pingId",
             (select array_agg(distinct b.name order by b.name) from lead_matches m join buyers b on b.id = m.buyer_id
               where m.lead_id = l.id and not m.rejected) as buyers
      from leads l left join sources s on s.id = l.source_id
      where ${column} = ${target.value}
      order by l.created_at desc, l.id`);
    return rowsOf<ErasureLeadRow & { createdAt: Date | string }>(result).map((r) => ({
      ...r,
      createdAt: new Date(r.createdAt),
    }));
  },

  /** The buyers that received the leads (unrejected matches), with where their notices go. */
  async buyers(db: Db | Tx, leadIds: string[]): Promise<ErasureBuyerRow[]> {
    if (leadIds.length === 0) return [];
    const result = await db.execute(sql`
      select m.buyer_id as "buyerId", b.name as "buyerName", b.email as "buyerEmail", b.notify as "buyerNotify",
             (array_agg(c.notify order by m.created_at))[1] as "campaignNotify",
             array_agg(m.id order by m.created_at) as "matchIds"
      from lead_matches m
      join buyers b on b.id = m.buyer_id
      left join campaigns c on c.id = m.campaign_id
      where m.lead_id = any(${ids(leadIds)}) and not m.rejected
      group by m.buyer_id, b.name, b.email, b.notify
      order by b.name`);
    return rowsOf<ErasureBuyerRow>(result);
  },

  /** How many rows of each kind hold the contact (or hang from its leads). */
  async counts(db: Db | Tx, target: ErasureTarget, leadIds: string[], pingIds: string[]) {
    const result = await db.execute(sql`
      select
        (select count(*) from lead_matches where lead_id = any(${ids(leadIds)}))::int as lead_matches,
        (select count(*) from delivery_attempts a join lead_matches m on m.id = a.match_id
          where m.lead_id = any(${ids(leadIds)}))::int as delivery_attempts,
        (select count(*) from ping_calls where lead_id = any(${ids(leadIds)}) or ping_id = any(${ids(pingIds)}))::int
          as ping_calls,
        (select count(*) from outbox o where ${outboxMatch(target, leadIds)})::int as outbox,
        (select count(*) from messages g where ${messageMatch(target, leadIds)})::int as messages,
        (select count(*) from idempotency_keys k where ${anyPattern(sql`k.body::text`, target.patterns)})::int
          as idempotency_keys`);
    const [row] = rowsOf<Record<string, number>>(result);
    return { leads: leadIds.length, ...(row ?? {}) };
  },

  /** Overwrites every personal field of the leads and of what hangs from them; answers rows per kind. */
  async erase(tx: Tx, target: ErasureTarget, leadIds: string[], pingIds: string[]): Promise<Record<string, number>> {
    const n = (result: unknown) =>
      (result as { affectedRows?: number; rowCount?: number }).affectedRows ??
      (result as { rowCount?: number }).rowCount ??
      0;
    const counts: Record<string, number> = {};
    // The outbox rows first: they are found through the delivery logs and the contact as written.
    counts.outbox = n(
      await tx.execute(sql`
        update outbox o set "to" = case when ${anyPattern(sql`o."to"`, target.patterns)} then ${ERASED} else o."to" end,
          subject = case when o.subject is null then null else ${ERASED} end, text = ${ERASED}, html = null,
          error = case when o.error is null then null else ${ERASED} end
        where ${outboxMatch(target, leadIds)}`),
    );
    counts.messages = n(
      await tx.execute(sql`
        update messages g set text = ${ERASED}, data = null where ${messageMatch(target, leadIds)}`),
    );
    counts.idempotency_keys = n(
      await tx.execute(sql`
        update idempotency_keys k set body = ${JSON.stringify({ erased: true })}::jsonb
        where ${anyPattern(sql`k.body::text`, target.patterns)}`),
    );
    counts.delivery_attempts = n(
      await tx.execute(sql`
        update delivery_attempts a set
          request = case when a.request is null then null else ${ERASED} end,
          response = case when a.response is null then null else ${ERASED} end,
          error = case when a.error is null then null else ${ERASED} end,
          reason = case when a.reason is null then null else ${ERASED} end
        from lead_matches m where m.id = a.match_id and m.lead_id = any(${ids(leadIds)})`),
    );
    counts.ping_calls = n(
      await tx.execute(sql`
        update ping_calls set
          request = case when request is null then null else ${ERASED} end,
          response = case when response is null then null else ${ERASED} end,
          error = case when error is null then null else ${ERASED} end
        where lead_id = any(${ids(leadIds)}) or ping_id = any(${ids(pingIds)})`),
    );
    counts.lead_matches = n(
      await tx.execute(sql`
        update lead_matches set name = null,
          return_comment = case when return_comment is null then null else ${ERASED} end
        where lead_id = any(${ids(leadIds)})`),
    );
    // The lead stays a sale: its money, service, ZIP, state and city (the reports' keys) are kept.
    counts.leads = n(
      await tx.execute(sql`
        update leads set name = null, first_name = null, last_name = null, address = null, phone = null,
          email = null, ip = null, user_agent = null, metadata = null, quality = null, field_flags = null,
          answer = null,
          fields = fields - array(
            select f.key from service_fields f where f.service = leads.service and f.personal
            union select unnest(${sql.raw(`array[${DATE_OF_BIRTH_KEYS.map((k) => `'${k}'`).join(', ')}]`)}::text[]))
        where id = any(${ids(leadIds)})`),
    );
    // The hashes California's deletion lists match on are the person's too (issue 35 item 3).
    counts.lead_drop_hashes = n(
      await tx.execute(sql`delete from lead_drop_hashes where lead_id = any(${ids(leadIds)})`),
    );
    return counts;
  },

  /**
   * Seals the consent evidence of erased leads (issue 35 item 2): kept under the legal-claims
   * exception, read by the admin only with a reason; answers how many records it sealed.
   */
  async seal(tx: Tx, leadIds: string[], at: Date, requestId: string): Promise<number> {
    if (leadIds.length === 0) return 0;
    const result = await tx.execute(sql`
      insert into consent_evidence_seals (lead_id, sealed_at, request_id)
      select e.lead_id, ${at.toISOString()}::timestamptz, ${requestId} from consent_evidence e
      where e.lead_id = any(${ids(leadIds)})
      on conflict (lead_id) do nothing
      returning 1`);
    return rowsOf(result).length;
  },

  async insertRequest(tx: Db | Tx, row: typeof erasureRequests.$inferInsert) {
    await tx.insert(erasureRequests).values(row);
  },

  async insertNotices(tx: Db | Tx, rows: (typeof erasureNotices.$inferInsert)[]) {
    if (rows.length > 0) await tx.insert(erasureNotices).values(rows);
  },

  /** A page of request records, newest first, with the erasing admin's name. */
  page(db: Db, window: { offset: number; limit: number }) {
    return newestWithUserName(db, erasureRequests, erasureRequests.erasedBy, window);
  },

  /** One request record (in the shape of a page's rows). */
  async one(db: Db, id: string): Promise<WithUserName<typeof erasureRequests.$inferSelect>[]> {
    return (await selectWithUserName(db, erasureRequests, erasureRequests.erasedBy).where(
      eq(erasureRequests.id, id),
    )) as WithUserName<typeof erasureRequests.$inferSelect>[];
  },

  noticesOf(db: Db, requestIds: string[]) {
    if (requestIds.length === 0) return Promise.resolve([]);
    return db
      .select()
      .from(erasureNotices)
      .where(inArray(erasureNotices.requestId, requestIds))
      .orderBy(erasureNotices.createdAt, erasureNotices.id);
  },

  async buyerNames(db: Db, ids: string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows = await db.select({ id: buyers.id, name: buyers.name }).from(buyers).where(inArray(buyers.id, ids));
    return new Map(rows.map((r) => [r.id, r.name]));
  },

  /** Claims up to `limit` notices waiting to go (pending), marking them sending; skips ones another worker holds. */
  async claimNotices(db: Db, limit: number) {
    const result = await db.execute(sql`
      update erasure_notices set status = 'sending', attempts = attempts + 1
      where id in (select id from erasure_notices where status = 'pending' order by created_at
        limit ${limit} for update skip locked)
      returning id, request_id as "requestId", buyer_id as "buyerId", match_ids as "matchIds", channel, target, attempts`);
    return rowsOf<{
      id: string;
      requestId: string;
      buyerId: string;
      matchIds: string[];
      channel: string;
      target: string;
      attempts: number;
    }>(result);
  },

  /** The matches a notice names: their leads and the buyer's own lead ids. */
  matchesOf(db: Db, matchIds: string[]) {
    return db
      .select({ id: leadMatches.id, leadId: leadMatches.leadId, buyerLeadId: leadMatches.buyerLeadId })
      .from(leadMatches)
      .where(inArray(leadMatches.id, matchIds));
  },

  async noticeOutcome(db: Db, id: string, change: { status: string; error: string | null; sentAt: Date | null }) {
    await db.update(erasureNotices).set(change).where(eq(erasureNotices.id, id));
  },

  /** Leads created before `before` that still hold personal fields (the retention job's next batch). */
  async expiredLeads(db: Db, before: Date, limit: number): Promise<string[]> {
    const result = await db.execute(sql`
      select id from leads where created_at < ${before.toISOString()}::timestamptz
        and (phone is not null or email is not null or name is not null or address is not null or ip is not null
             or first_name is not null or last_name is not null or user_agent is not null or metadata is not null
             or field_flags is not null)
      order by created_at, id limit ${limit}`);
    return rowsOf<{ id: string }>(result).map((r) => r.id);
  },

  /** The phones and emails the leads still hold (a deletion list's matched people, to erase as requests). */
  async contactsOf(db: Db | Tx, leadIds: string[]) {
    if (leadIds.length === 0) return [];
    const result = await db.execute(
      sql`select id, phone, email from leads where id = any(${ids(leadIds)}) order by created_at, id`,
    );
    return rowsOf<{ id: string; phone: string | null; email: string | null }>(result);
  },

  /** The ping ids of leads (their Ping/Post calls are found by them). */
  async pingIdsOf(db: Db | Tx, leadIds: string[]): Promise<string[]> {
    if (leadIds.length === 0) return [];
    const result = await db.execute(
      sql`select ping_id from leads where id = any(${ids(leadIds)}) and ping_id <> 'no_ping'`,
    );
    return rowsOf<{ ping_id: string }>(result).map((r) => r.ping_id);
  },
};

/** The outbox rows of the leads' delivery logs, and any whose text quotes the contact. */
function outboxMatch(target: ErasureTarget, leadIds: string[]): SQL {
  return sql`(o.id in (select a.provider_id from delivery_attempts a join lead_matches m on m.id = a.match_id
      where m.lead_id = any(${ids(leadIds)}) and a.provider_id is not null)
    or ${anyPattern(sql`coalesce(o."to", '') || ' ' || coalesce(o.subject, '') || ' ' || o.text || ' ' || coalesce(o.html, '')`, target.patterns)})`;
}

/** The admin messages naming one of the leads' contact (a buyer's Message Us may quote it). */
function messageMatch(target: ErasureTarget, _leadIds: string[]): SQL {
  return anyPattern(sql`g.text || ' ' || coalesce(g.data::text, '')`, target.patterns);
}
