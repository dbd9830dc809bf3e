import type { TagKind } from '@leadex/domain';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import { buyers, campaigns, leadMatches, leads, services, sources, webhooks } from '../../db/schema';

/** The table and tag column behind each kind of GET /api/tag/{kind}. */
const TAGGED: Record<TagKind, { table: PgTable; tags: AnyPgColumn }> = {
  buyer: { table: buyers, tags: buyers.tags },
  match: { table: campaigns, tags: campaigns.tags },
  webhook: { table: webhooks, tags: webhooks.tags },
  lead: { table: leads, tags: leads.tags },
  source: { table: sources, tags: sources.tags },
};

export const referenceRepo = {
  async serviceNames(db: Db): Promise<string[]> {
    const rows = await db.select({ name: services.name }).from(services).orderBy(asc(services.name));
    return rows.map((r) => r.name);
  },

  /** Every service's key and label, by key. */
  async serviceLabels(db: Db): Promise<{ name: string; label: string }[]> {
    return db.select({ name: services.name, label: services.label }).from(services).orderBy(asc(services.name));
  },

  /** Distinct tags in use on one kind of record; `buyerId` narrows to one buyer's own records. */
  async tags(db: Db, kind: TagKind, buyerId?: string): Promise<string[]> {
    const { table, tags } = TAGGED[kind];
    const tag = sql<string>`unnest(${tags})`.as('tag');
    // Only tagged rows: for leads, their own partial index instead of every lead's tags.
    const tagged = sql`cardinality(${tags}) > 0`;
    let query = db.selectDistinct({ tag }).from(table).$dynamic();
    if (buyerId && kind === 'lead')
      query = query
        .innerJoin(leadMatches, eq(leadMatches.leadId, leads.id))
        .where(and(tagged, eq(leadMatches.buyerId, buyerId)));
    else if (buyerId && kind === 'match') query = query.where(and(tagged, eq(campaigns.buyerId, buyerId)));
    else if (buyerId && kind === 'webhook') query = query.where(and(tagged, eq(webhooks.buyerId, buyerId)));
    else query = query.where(tagged);
    const rows = await db.select({ tag: sql<string>`t.tag` }).from(query.as('t')).orderBy(sql`t.tag`);
    return rows.map((r) => r.tag);
  },
};
