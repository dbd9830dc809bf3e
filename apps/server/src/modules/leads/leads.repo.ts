import type { FieldValue } from '@leadex/domain';
import { and, asc, count, desc, eq, gte, ilike, inArray, lt, or, type SQL, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client';
import { likeContains } from '../../db/records';
import { buyers, campaigns, leadMatches, leads, leadWeek, pingCalls, sources, webhooks } from '../../db/schema';
import { type TimeSpan, utcWeeksOf } from './date-range';

export type LeadRow = typeof leads.$inferSelect;
export type PingCallRow = typeof pingCalls.$inferSelect & { buyerName: string | null; deliveryName: string | null };
export type MatchRow = typeof leadMatches.$inferSelect & {
  buyerName: string;
  /** Whether the match's buyer may see the lead's source (issue 27: off unless an admin allows it). */
  buyerShowsSource: boolean;
  campaignName: string;
  sharedPriceCents: number | null;
};

/** Whose leads a list shows (DESIGN.md §8): all, those sold to one buyer, or one source's own. */
export type LeadScope = { role: 'admin' } | { role: 'buyer'; buyerId: string } | { role: 'source'; sourceId: string };

export interface LeadListFilter {
  span: TimeSpan;
  name?: string;
  /** A buyer id, or `none` for unsold leads (admins). */
  buyer?: string;
  service?: string;
  zip?: string;
  /** The services' own fields (issue 33), all of which must hold: a text compared without case, any other value exactly. */
  fields?: LeadFieldCondition[];
}

/** One field filter as the repository runs it: `text` compares case-insensitively, `exact` the stored value. */
export type LeadFieldCondition = { key: string; text: string } | { key: string; exact: FieldValue };

/** A field filter on `leads.fields` (jsonb): containment for an exact value, the text without case otherwise. */
function fieldCondition(c: LeadFieldCondition): SQL {
  if ('text' in c) return sql`lower(${leads.fields} ->> ${c.key}) = lower(${c.text})`;
  return sql`${leads.fields} @> ${JSON.stringify({ [c.key]: c.exact })}::jsonb`;
}

export interface LeadOrder {
  sort: 'date' | 'service';
  order: 'asc' | 'desc';
}

/** Where a page or an export batch resumes: the last row's sort key (the date as the database's own text). */
export interface LeadCursor {
  at: string;
  id: string;
  service: string;
}

/** A row of a leads list, every role's columns; the service picks what each role may see. */
export interface LeadListRow {
  id: string;
  /** The lead's arrival; for a buyer, its purchase. */
  at: Date;
  cursorAt: string;
  name: string | null;
  service: string;
  state: string | null;
  zip: string;
  costCents: number;
  priceCents: number;
  sourceId: string;
  sourceName: string;
  channel: string | null;
  subId: string | null;
  pubId: string | null;
  tcpaConsent: boolean | null;
  trustedForm: string | null;
  jornaya: string | null;
  phone: string | null;
  email: string | null;
  homeowner: boolean | null;
  test: boolean;
  pingId: string;
  /** The service's own fields as stored (money in cents). */
  fields: Record<string, FieldValue>;
  /** Admins: the names of the buyers that bought it. */
  buyerNames: string[] | null;
  /** Buyers: their own match's price and return. */
  matchPriceCents: number | null;
  returnStatus: string | null;
}

/** A buyer's (unrejected) match of the lead, joined in: the buyer's own list, or an admin's buyer filter. */
const ownMatch = (buyerId: string) =>
  and(eq(leadMatches.leadId, leads.id), eq(leadMatches.buyerId, buyerId), eq(leadMatches.rejected, false));

/**
 * The buyer whose sales the list reads: a buyer's own, or the one an admin filters by. Such a list is
 * read from the buyer's matches by date (lead_matches_buyer_sold_idx), not from every lead: a sale is
 * dated as its lead (the engine writes both with one time), and a buyer buys a lead once.
 */
function salesOf(scope: LeadScope, filter: Pick<LeadListFilter, 'buyer'>): string | undefined {
  if (scope.role === 'buyer') return scope.buyerId;
  if (scope.role === 'admin' && filter.buyer && filter.buyer !== 'none') return filter.buyer;
  return undefined;
}

/** The date a list filters and sorts by: the sale's when read from a buyer's sales, else the lead's. */
function dateColumn(scope: LeadScope, filter: Pick<LeadListFilter, 'buyer'>) {
  return salesOf(scope, filter) ? leadMatches.createdAt : leads.createdAt;
}

/**
 * How many of a range's UTC weeks a name search over the leads names to their trigram index
 * (leads_source_week_name_trgm_idx), so that the index gives those weeks' candidates alone.
 * - A source's, at most 26: its name's candidates in a month are few, and read from the index they cost
 *   less than walking the dates past every other source's leads (1.4 against 4.4 ms at 1,000,000 leads);
 *   beyond about 30 weeks one index scan per week cost more than the dates checked on the rows.
 * - An admin's page, a day's (one week, or two across a Monday in UTC). Over a month the planner took the
 *   weeks and the dates as independent, expected a tenth of the candidates, and read and sorted all of
 *   them (3.5-8.5 ms) where walking the dates from the newest finds a common name's page in under 1.2 ms;
 *   a rare name it reads from the trigrams alone. An admin's count walks the weeks one at a time
 *   (countNameSearchByWeek).
 */
function nameWeeksNamed(scope: LeadScope): number {
  return scope.role === 'source' ? 26 : 2;
}

/** A name search over the leads themselves, narrowed in the index to the range's weeks when they are few. */
function nameInWeeks(scope: LeadScope, filter: LeadListFilter): SQL | undefined {
  if (!filter.name) return undefined;
  const weeks = utcWeeksOf(filter.span);
  return weeks.length <= nameWeeksNamed(scope) ? inArray(leadWeek(leads.createdAt), weeks) : undefined;
}

/** The lead list's filters as SQL, for the scope's rows. */
function conditions(scope: LeadScope, filter: LeadListFilter): SQL | undefined {
  const at = dateColumn(scope, filter);
  return and(
    gte(at, filter.span.from),
    lt(at, filter.span.to),
    // Read from a buyer's sales: the lead's own date in the range too (the same instant).
    at !== leads.createdAt
      ? and(gte(leads.createdAt, filter.span.from), lt(leads.createdAt, filter.span.to))
      : undefined,
    scope.role === 'source' ? eq(leads.sourceId, scope.sourceId) : undefined,
    // Read from a buyer's sales: the sale's copy of the name alone, which the buyer's trigram index holds
    // (a second test on the lead's own name made the page join every candidate before taking its 15:
    // 2.7 ms against 0.7 for a buyer's year); else the leads' name, and the weeks their trigram index holds.
    filter.name ? ilike(at !== leads.createdAt ? leadMatches.name : leads.name, likeContains(filter.name)) : undefined,
    at === leads.createdAt ? nameInWeeks(scope, filter) : undefined,
    filter.service ? eq(leads.service, filter.service) : undefined,
    // Read from a buyer's sales: the sale's copy of the service too, which its index holds.
    filter.service && at !== leads.createdAt ? eq(leadMatches.service, filter.service) : undefined,
    filter.zip ? eq(leads.zip, filter.zip) : undefined,
    scope.role === 'admin' && filter.buyer === 'none' ? eq(leads.sold, false) : undefined,
    ...(filter.fields ?? []).map(fieldCondition),
  );
}

/** The scope's leads (a buyer's, or those an admin's buyer filter names, through the buyer's matches), before filters. */
function scoped<T extends Record<string, unknown>>(
  db: Db,
  scope: LeadScope,
  filter: Pick<LeadListFilter, 'buyer'>,
  fields: T,
) {
  const base = db
    .select(fields as never)
    .from(leads)
    .$dynamic();
  const buyerId = salesOf(scope, filter);
  return buyerId ? base.innerJoin(leadMatches, ownMatch(buyerId)) : base;
}

/**
 * The date a list sorts by: under a service sort, the lead's (the same instant as a sale's), so the
 * leads' (service, date) indexes give the order; else the list's date.
 */
function orderDate(scope: LeadScope, filter: LeadListFilter, sort: LeadOrder['sort']) {
  return sort === 'service' ? leads.createdAt : dateColumn(scope, filter);
}

function orderOf(scope: LeadScope, filter: LeadListFilter, { sort, order }: LeadOrder): SQL[] {
  const dir = order === 'asc' ? asc : desc;
  const at = orderDate(scope, filter, sort);
  // Dates go newest first under a service sort: the latest of each service on top.
  return sort === 'service' ? [dir(leads.service), desc(at), desc(leads.id)] : [dir(at), dir(leads.id)];
}

/** Rows after `cursor` in the list's order (keyset: an export reads millions without OFFSET). */
function after(scope: LeadScope, filter: LeadListFilter, { sort, order }: LeadOrder, cursor: LeadCursor): SQL {
  const at = orderDate(scope, filter, sort);
  const later = order === 'asc' ? sql`>` : sql`<`;
  if (sort === 'date') return sql`(${at}, ${leads.id}) ${later} (${cursor.at}::timestamptz, ${cursor.id})`;
  return sql`(${leads.service} ${later} ${cursor.service} or (${leads.service} = ${cursor.service} and (${at}, ${leads.id}) < (${cursor.at}::timestamptz, ${cursor.id})))`;
}

/**
 * An admin's name search over all the leads, counted up to `limit` one UTC week at a time from the newest
 * (one scan of leads_source_week_name_trgm_idx each), stopping once it has `limit`. Counting every week
 * at once read the matching leads in the table's order, oldest first: a year's search read the weeks
 * before the range (all of them, were the range This Year on an exchange with years of leads) before
 * it counted one lead of it. A source's search counts in one scan of the weeks it names (nameInWeeks): its
 * share of a week's leads is small, so the walk paid an index scan per week for a few leads each (slower).
 */
async function countNameSearchByWeek(db: Db, filter: LeadListFilter, name: string, limit: number): Promise<number> {
  const scope: LeadScope = { role: 'admin' };
  const newestFirst = utcWeeksOf(filter.span).reverse();
  const inWeek = db
    .select({ one: sql`1` })
    .from(leads)
    .where(
      and(
        conditions(scope, { ...filter, name: undefined }),
        ilike(leads.name, likeContains(name)),
        sql`${leadWeek(leads.createdAt)} = weeks.week`,
      ),
    )
    // Also a fence: without a limit of its own the planner may flatten the join and read every week's
    // candidates at once again (it did, as a hash join, for a year's 48 weeks).
    .limit(limit);
  const weeks = sql.join(
    newestFirst.map((week) => sql`${week}`),
    sql`, `,
  );
  const [row] = rowsOf<{ n: number }>(
    await db.execute(sql`select count(*)::int as n from (
      select 1 from unnest(array[${weeks}]::timestamp[]) as weeks(week) cross join lateral (${inWeek}) as hit
      limit ${limit}) as capped`),
  );
  return row?.n ?? 0;
}

export const leadsRepo = {
  /** The names of custom deliveries, by id (the delivery logs name them). */
  async deliveryNames(db: Db, ids: readonly string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows = await db
      .select({ id: webhooks.id, name: webhooks.name })
      .from(webhooks)
      .where(inArray(webhooks.id, [...ids]));
    return new Map(rows.map((r) => [r.id, r.name]));
  },

  /**
   * One page (or, with `cursor`, one export batch) of the scope's leads. Every column the roles'
   * lists use; the buyers' names only for admins (a subquery on the page's rows alone).
   */
  async list(
    db: Db,
    scope: LeadScope,
    filter: LeadListFilter,
    order: LeadOrder,
    page: { limit: number; offset?: number; cursor?: LeadCursor },
  ): Promise<LeadListRow[]> {
    const at = orderDate(scope, filter, order.sort);
    const fields = {
      id: leads.id,
      at: scope.role === 'buyer' ? leadMatches.createdAt : leads.createdAt,
      cursorAt: sql<string>`${at}::text`,
      name: leads.name,
      service: leads.service,
      state: leads.state,
      zip: leads.zip,
      costCents: leads.costCents,
      priceCents: leads.priceCents,
      sourceId: leads.sourceId,
      // Written out: Drizzle leaves a one-table select's columns unqualified, which a subquery would misread.
      sourceName: sql<string>`(select s.name from sources s where s.id = leads.source_id)`,
      channel: leads.channel,
      subId: leads.subId,
      pubId: leads.pubId,
      tcpaConsent: leads.tcpaConsent,
      trustedForm: leads.trustedForm,
      jornaya: leads.jornaya,
      phone: leads.phone,
      email: leads.email,
      homeowner: leads.homeowner,
      test: leads.test,
      pingId: leads.pingId,
      fields: leads.fields,
      buyerNames:
        scope.role === 'admin'
          ? sql<
              string[]
            >`(select coalesce(array_agg(b.name order by m.created_at, m.id), '{}') from lead_matches m join buyers b on b.id = m.buyer_id where m.lead_id = leads.id and not m.rejected)`
          : sql<null>`null`,
      matchPriceCents: scope.role === 'buyer' ? leadMatches.priceCents : sql<null>`null`,
      returnStatus: scope.role === 'buyer' ? leadMatches.returnStatus : sql<null>`null`,
    };
    const where = conditions(scope, filter);
    const rows = await scoped(db, scope, filter, fields)
      .where(page.cursor ? and(where, after(scope, filter, order, page.cursor)) : where)
      .orderBy(...orderOf(scope, filter, order))
      .limit(page.limit)
      .offset(page.offset ?? 0);
    return rows as unknown as LeadListRow[];
  },

  /** How many leads match, counted up to `limit` (DESIGN.md §11: exact up to 10,000). */
  async count(db: Db, scope: LeadScope, filter: LeadListFilter, limit: number): Promise<number> {
    const buyerId = salesOf(scope, filter);
    if (filter.name && scope.role === 'admin' && !buyerId) return countNameSearchByWeek(db, filter, filter.name, limit);
    // A buyer's sales with no filter on the lead's own fields but the service and the name (which the
    // sale copies): counted from the buyer's matches alone (every match has its lead, dated as the sale),
    // from the buyer's own indexes.
    const capped =
      buyerId && !filter.zip && !filter.fields?.length
        ? db
            .select({ one: sql`1` })
            .from(leadMatches)
            .where(
              and(
                eq(leadMatches.buyerId, buyerId),
                eq(leadMatches.rejected, false),
                filter.service ? eq(leadMatches.service, filter.service) : undefined,
                filter.name ? ilike(leadMatches.name, likeContains(filter.name)) : undefined,
                gte(leadMatches.createdAt, filter.span.from),
                lt(leadMatches.createdAt, filter.span.to),
              ),
            )
            .limit(limit)
            .as('capped')
        : scoped(db, scope, filter, { one: sql`1` }).where(conditions(scope, filter)).limit(limit).as('capped');
    const [row] = (await db.select({ n: count() }).from(capped)) as { n: number }[];
    return row?.n ?? 0;
  },

  /** The distinct values of a column over the scope's leads in a span (the lists' select filters). */
  async values(db: Db, scope: LeadScope, span: TimeSpan, field: 'service' | 'zip', limit: number): Promise<string[]> {
    const column = field === 'service' ? leads.service : leads.zip;
    const rows = (await scoped(db, scope, {}, { value: column })
      .where(conditions(scope, { span }))
      .groupBy(column)
      .orderBy(column)
      .limit(limit)) as { value: string }[];
    return rows.map((r) => r.value);
  },

  /** An edit of a lead; a new service or name is copied onto its matches (the buyers' lists filter by them). */
  async update(db: Db, id: string, changes: Partial<typeof leads.$inferInsert>): Promise<void> {
    await db.transaction(async (tx) => {
      await tx.update(leads).set(changes).where(eq(leads.id, id));
      // Drizzle leaves out the undefined one of the two.
      if (changes.service !== undefined || changes.name !== undefined)
        await tx
          .update(leadMatches)
          .set({ service: changes.service, name: changes.name })
          .where(eq(leadMatches.leadId, id));
    });
  },

  /** Every match taken as delivered: the demo's backdated history, never sent out. */
  async markEveryMatchDelivered(db: Db): Promise<void> {
    await db.update(leadMatches).set({ deliveryStatus: 'delivered' });
  },

  /** The lead's stored explanation (packed), or null for an unknown lead. */
  async explanationOf(db: Db, id: string): Promise<unknown[] | null> {
    const [row] = await db.select({ explanation: leads.explanation }).from(leads).where(eq(leads.id, id));
    return (row?.explanation as unknown[] | null | undefined) ?? null;
  },

  async findById(db: Db, id: string): Promise<(LeadRow & { sourceName: string }) | null> {
    const [row] = await db
      .select({ lead: leads, sourceName: sources.name })
      .from(leads)
      .innerJoin(sources, eq(sources.id, leads.sourceId))
      .where(eq(leads.id, id));
    return row ? { ...row.lead, sourceName: row.sourceName } : null;
  },

  async matchesOf(db: Db, leadIds: string[]): Promise<MatchRow[]> {
    if (leadIds.length === 0) return [];
    const rows = await db
      .select({
        match: leadMatches,
        buyerName: buyers.name,
        buyerShowsSource: buyers.showSource,
        campaignName: campaigns.name,
        sharedPriceCents: campaigns.sharedPriceCents,
      })
      .from(leadMatches)
      .innerJoin(buyers, eq(buyers.id, leadMatches.buyerId))
      .innerJoin(campaigns, eq(campaigns.id, leadMatches.campaignId))
      .where(inArray(leadMatches.leadId, leadIds))
      .orderBy(asc(leadMatches.createdAt), asc(leadMatches.id));
    return rows.map((r) => ({
      ...r.match,
      buyerName: r.buyerName,
      buyerShowsSource: r.buyerShowsSource,
      campaignName: r.campaignName,
      sharedPriceCents: r.sharedPriceCents,
    }));
  },

  /**
   * The Ping/Post buyers' pings for a lead: those of its source's ping (by ping id: they were logged
   * before the lead existed) or of its own POST /api/lead (by lead id), in the order sent.
   */
  async pingCallsOf(db: Db, lead: Pick<LeadRow, 'id' | 'pingId'>): Promise<PingCallRow[]> {
    const rows = await db
      .select({ call: pingCalls, buyerName: buyers.name, deliveryName: webhooks.name })
      .from(pingCalls)
      .leftJoin(buyers, eq(buyers.id, pingCalls.buyerId))
      .leftJoin(webhooks, eq(webhooks.id, pingCalls.deliveryId))
      .where(
        lead.pingId === 'no_ping'
          ? eq(pingCalls.leadId, lead.id)
          : or(eq(pingCalls.leadId, lead.id), eq(pingCalls.pingId, lead.pingId)),
      )
      .orderBy(asc(pingCalls.at), asc(pingCalls.id));
    return rows.map((r) => ({ ...r.call, buyerName: r.buyerName, deliveryName: r.deliveryName }));
  },
};
