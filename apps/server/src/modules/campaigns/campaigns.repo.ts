import { and, asc, count, desc, eq, getTableColumns, ilike, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import {
  type DeliveryFailureColumns,
  deliveryFailureFields,
  lastDeliveryFailure,
  liveCampaignOnly,
} from '../../db/delivery-failure';
import { likeContains, pageWithTotal, sortedBy } from '../../db/records';
import {
  buyers,
  campaignSourceFilters,
  campaignStatusEvents,
  campaigns,
  services,
  sources,
  user,
  zipsets,
} from '../../db/schema';

export type CampaignInsert = typeof campaigns.$inferInsert;
/** A campaign with the names the API shows beside its ids and its buyer's last delivery failure. */
export type CampaignRow = typeof campaigns.$inferSelect & {
  buyerName: string;
  zipsetName: string | null;
} & DeliveryFailureColumns;
export type SourceFilterRow = typeof campaignSourceFilters.$inferSelect & { sourceName: string | null };
export type StatusEventRow = typeof campaignStatusEvents.$inferSelect & { actorName: string | null };

export interface CampaignListFilter {
  /** Only this buyer's campaigns (a buyer's own list, or the admin's filter). */
  buyerId?: string;
  buyerName?: string;
  service?: string;
  sort?: 'name' | 'buyer_name' | 'status' | 'price' | 'ts';
  order?: 'asc' | 'desc';
  offset: number;
  limit: number;
}

const failure = lastDeliveryFailure(campaigns.buyerId);
const withNames = {
  ...getTableColumns(campaigns),
  buyerName: buyers.name,
  zipsetName: zipsets.name,
  ...deliveryFailureFields(failure),
};

/** Campaigns with their names and last delivery failure (`CampaignRow`), to filter. */
const selectWithNames = (db: Db | Tx) =>
  db
    .select(withNames)
    .from(campaigns)
    .innerJoin(buyers, eq(buyers.id, campaigns.buyerId))
    .leftJoin(zipsets, eq(zipsets.id, campaigns.zipsetId))
    .leftJoinLateral(failure, liveCampaignOnly(campaigns.status));

const SORT_COLUMNS = {
  name: campaigns.name,
  buyer_name: buyers.name,
  status: campaigns.status,
  price: campaigns.priceCents,
  ts: campaigns.createdAt,
} as const;

export const campaignsRepo = {
  async findById(db: Db | Tx, id: string): Promise<CampaignRow | null> {
    const [row] = await selectWithNames(db).where(eq(campaigns.id, id));
    return row ?? null;
  },

  list(db: Db, filter: CampaignListFilter): Promise<{ rows: CampaignRow[]; total: number }> {
    const where = and(
      filter.buyerId === undefined ? undefined : eq(campaigns.buyerId, filter.buyerId),
      filter.buyerName ? ilike(buyers.name, likeContains(filter.buyerName)) : undefined,
      filter.service ? sql`${filter.service} = any(${campaigns.services})` : undefined,
    );
    return pageWithTotal(
      selectWithNames(db)
        .where(where)
        .orderBy(...sortedBy(SORT_COLUMNS[filter.sort ?? 'name'], filter.order, campaigns.name, campaigns.id))
        .limit(filter.limit)
        .offset(filter.offset),
      db.select({ n: count() }).from(campaigns).innerJoin(buyers, eq(buyers.id, campaigns.buyerId)).where(where),
    );
  },

  /** The distinct services of the campaigns (of one buyer): the "values present" of the service filter. */
  async servicesInUse(db: Db, buyerId?: string): Promise<string[]> {
    const service = sql<string>`unnest(${campaigns.services})`.as('service');
    const inner = db
      .selectDistinct({ service })
      .from(campaigns)
      .where(buyerId === undefined ? undefined : eq(campaigns.buyerId, buyerId))
      .as('s');
    const rows = await db.select({ service: sql<string>`s.service` }).from(inner).orderBy(sql`s.service`);
    return rows.map((r) => r.service);
  },

  async filtersOf(db: Db | Tx, campaignId: string): Promise<SourceFilterRow[]> {
    return db
      .select({ ...getTableColumns(campaignSourceFilters), sourceName: sources.name })
      .from(campaignSourceFilters)
      .leftJoin(sources, eq(sources.id, campaignSourceFilters.sourceId))
      .where(eq(campaignSourceFilters.campaignId, campaignId))
      .orderBy(asc(campaignSourceFilters.id));
  },

  /** The status history, newest first. */
  async historyOf(db: Db | Tx, campaignId: string): Promise<StatusEventRow[]> {
    return db
      .select({ ...getTableColumns(campaignStatusEvents), actorName: user.name })
      .from(campaignStatusEvents)
      .leftJoin(user, eq(user.id, campaignStatusEvents.actor))
      .where(eq(campaignStatusEvents.campaignId, campaignId))
      .orderBy(desc(campaignStatusEvents.at), desc(campaignStatusEvents.id));
  },

  async insert(db: Db | Tx, row: CampaignInsert): Promise<void> {
    await db.insert(campaigns).values(row);
  },

  async update(db: Db | Tx, id: string, changes: Partial<CampaignInsert>): Promise<void> {
    await db.update(campaigns).set(changes).where(eq(campaigns.id, id));
  },

  /** Replaces the campaign's source restrictions whole. */
  async replaceFilters(db: Db | Tx, campaignId: string, rows: (typeof campaignSourceFilters.$inferInsert)[]) {
    await db.delete(campaignSourceFilters).where(eq(campaignSourceFilters.campaignId, campaignId));
    if (rows.length) await db.insert(campaignSourceFilters).values(rows);
  },

  async addStatusEvent(db: Db | Tx, event: typeof campaignStatusEvents.$inferInsert): Promise<void> {
    await db.insert(campaignStatusEvents).values(event);
  },

  /** Whether another campaign holds this Branded Id (compared as the engine does, ignoring case). */
  async fixedIdTaken(db: Db | Tx, fixedId: string, exceptId?: string): Promise<boolean> {
    const same = sql`lower(${campaigns.fixedId}) = lower(${fixedId})`;
    const [row] = await db
      .select({ id: campaigns.id })
      .from(campaigns)
      .where(exceptId ? and(same, ne(campaigns.id, exceptId)) : same)
      .limit(1);
    return Boolean(row);
  },

  async buyerNotify(db: Db | Tx, buyerId: string) {
    const [row] = await db.select({ notify: buyers.notify }).from(buyers).where(eq(buyers.id, buyerId));
    return row ? row.notify : null;
  },

  async buyerName(db: Db | Tx, buyerId: string): Promise<string | null> {
    const [row] = await db.select({ name: buyers.name }).from(buyers).where(eq(buyers.id, buyerId));
    return row?.name ?? null;
  },

  /** Whether the buyer's campaigns may use the region: an exchange-wide one or one of its own. */
  async zipsetUsable(db: Db | Tx, id: string, buyerId: string): Promise<boolean> {
    const [row] = await db
      .select({ id: zipsets.id })
      .from(zipsets)
      .where(and(eq(zipsets.id, id), or(isNull(zipsets.buyerId), eq(zipsets.buyerId, buyerId))));
    return Boolean(row);
  },

  /** Which of these source ids exist. */
  async existingSources(db: Db | Tx, ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await db.select({ id: sources.id }).from(sources).where(inArray(sources.id, ids));
    return new Set(rows.map((r) => r.id));
  },

  async serviceNames(db: Db | Tx): Promise<Set<string>> {
    const rows = await db.select({ name: services.name }).from(services);
    return new Set(rows.map((r) => r.name));
  },
};
