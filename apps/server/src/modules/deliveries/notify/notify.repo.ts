import { DIRECT_DELIVERY } from '@leadex/domain';
import { and, asc, count, eq, ne, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../../db/client';
import {
  buyers,
  campaigns,
  consentEvidence,
  consentEvidenceSeals,
  deliveryAttempts,
  leadMatches,
  leads,
  messages,
  type NotifyConfig,
  pingCalls,
} from '../../../db/schema';
import type { ConsentEvidenceRecord } from '../../../distribution/ports';

/** The columns of a `NotifyLead`: the sale, its buyer's and campaign's names, the lead's fields. */
const notifyLeadColumns = {
  id: leads.id,
  matchId: leadMatches.id,
  buyerId: leadMatches.buyerId,
  buyerName: buyers.name,
  campaignId: leadMatches.campaignId,
  campaignName: campaigns.name,
  kind: leadMatches.kind,
  priceCents: leadMatches.priceCents,
  rejected: leadMatches.rejected,
  deliveryStatus: leadMatches.deliveryStatus,
  service: leads.service,
  name: leads.name,
  firstName: leads.firstName,
  lastName: leads.lastName,
  phone: leads.phone,
  email: leads.email,
  address: leads.address,
  city: leads.city,
  state: leads.state,
  zip: leads.zip,
  homeowner: leads.homeowner,
  tcpaConsent: leads.tcpaConsent,
  tcpaLanguage: leads.tcpaLanguage,
  trustedForm: leads.trustedForm,
  trustedFormPingUrl: leads.trustedFormPingUrl,
  jornaya: leads.jornaya,
  createdAt: leads.createdAt,
  ...evidenceColumns(),
};

/**
 * The lead's consent evidence as its deliveries read it (issue 34 item 3), from a left join of
 * `consent_evidence` and `consent_evidence_seals`: none when there is none, or when it is sealed (an
 * erased lead's evidence is the admin's only).
 */
function evidenceColumns() {
  const unsealed = sql`${consentEvidenceSeals.leadId} is null`;
  return {
    consentPageUrl: sql<string | null>`case when ${unsealed} then ${consentEvidence.record} ->> 'page_url' end`,
    consentEvidence: sql<ConsentEvidenceRecord | null>`case when ${unsealed} and ${consentEvidence.leadId} is not null
      then jsonb_build_object('record', ${consentEvidence.record}, 'hash', ${consentEvidence.hash}) end`,
  };
}

/** A sold lead as its notify channels render it (typed by its columns, so the two never drift apart). */
export type NotifyLead = NonNullable<Awaited<ReturnType<typeof notifyRepo.lead>>>;

/** A claimed match and the notify settings it is delivered by. */
export interface ClaimedMatch {
  id: string;
  campaignNotify: NotifyConfig | null;
  buyerNotify: NotifyConfig;
  /** The buyer's live custom deliveries. */
  customIds: string[];
}

/**
 * The live custom deliveries a match goes to, oldest first (SQL over the match's table `m`): every
 * Direct delivery of its buyer, and of its Ping/Post deliveries only the one whose ping made the
 * buyer's winning bid (its best; a tie goes to the first delivery), as the sale chose (bidding.ts
 * `roundOf`). The others never asked for this lead, and their bid ids would not match it.
 */
function customIdsOf(m: string) {
  const match = sql.raw(m);
  return sql`(select coalesce(array_agg(w.id order by w.created_at, w.id), '{}') from webhooks w
  where w.buyer_id = ${match}.buyer_id and w.status = 'live'
    and (w.ping_id = ${DIRECT_DELIVERY} or w.id = (
      select pc.delivery_id from ping_calls pc
        join leads l on l.id = ${match}.lead_id
        join webhooks pw on pw.id = pc.delivery_id
      where pc.buyer_id = ${match}.buyer_id and pc.outcome = 'bid'
        and (pc.lead_id = l.id or (l.ping_id <> ${DIRECT_DELIVERY} and pc.ping_id = l.ping_id))
      order by pc.bid_cents desc, pw.created_at, pw.id
      limit 1)))`;
}

const CUSTOM_IDS = customIdsOf('m');

export type AttemptRow = typeof deliveryAttempts.$inferSelect;

export const notifyRepo = {
  /**
   * Claims up to `limit` matches waiting for jobs: new sales (pending) and matches queued more than
   * `staleSeconds` ago that never got an outcome (a crash between the claim and the jobs' insert).
   * Other dispatchers skip the locked rows, so each match is claimed once. Queue times are the
   * database's own clock, not the business clock a simulator may move.
   */
  async claim(db: Db, limit: number, staleSeconds: number): Promise<ClaimedMatch[]> {
    const result = await db.execute(sql`
      with claimed as (
        select id from lead_matches
        where (delivery_status = 'pending'
               or (delivery_status = 'queued' and delivery_queued_at < now() - make_interval(secs => ${staleSeconds})))
          and not rejected
        order by created_at
        limit ${limit}
        for update skip locked
      )
      update lead_matches m set delivery_status = 'queued', delivery_queued_at = now()
      from claimed, campaigns c, buyers b
      where m.id = claimed.id and c.id = m.campaign_id and b.id = m.buyer_id
      returning m.id, c.notify as campaign_notify, b.notify as buyer_notify, ${CUSTOM_IDS} as custom_ids`);
    return rowsOf<{
      id: string;
      campaign_notify: NotifyConfig | null;
      buyer_notify: NotifyConfig;
      custom_ids: string[];
    }>(result).map((r) => ({
      id: r.id,
      campaignNotify: r.campaign_notify,
      buyerNotify: r.buyer_notify,
      customIds: r.custom_ids ?? [],
    }));
  },

  async lead(db: Db, matchId: string) {
    const [row] = await db
      .select(notifyLeadColumns)
      .from(leadMatches)
      .innerJoin(leads, eq(leads.id, leadMatches.leadId))
      .innerJoin(buyers, eq(buyers.id, leadMatches.buyerId))
      .innerJoin(campaigns, eq(campaigns.id, leadMatches.campaignId))
      .leftJoin(consentEvidence, eq(consentEvidence.leadId, leads.id))
      .leftJoin(consentEvidenceSeals, eq(consentEvidenceSeals.leadId, leads.id))
      .where(eq(leadMatches.id, matchId));
    return row ?? null;
  },

  async setStatus(db: Db, matchId: string, status: 'queued' | 'delivered') {
    await db
      .update(leadMatches)
      .set({ deliveryStatus: status, ...(status === 'queued' ? { deliveryQueuedAt: sql`now()` } : {}) })
      .where(eq(leadMatches.id, matchId));
  },

  /** Marks a match delivered; true when this call changed it. */
  async markDelivered(db: Db, matchId: string): Promise<boolean> {
    const rows = await db
      .update(leadMatches)
      .set({ deliveryStatus: 'delivered' })
      .where(and(eq(leadMatches.id, matchId), ne(leadMatches.deliveryStatus, 'delivered')))
      .returning({ id: leadMatches.id });
    return rows.length > 0;
  },

  /**
   * Marks a queued match undelivered once `targets` chains have ended without any acceptance;
   * true when this call changed it (so one admin message is raised).
   */
  async concludeUndelivered(db: Db, matchId: string, targets: number): Promise<boolean> {
    const result = await db.execute(sql`
      update lead_matches set delivery_status = 'undelivered'
      where id = ${matchId} and delivery_status = 'queued'
        and not exists (select 1 from delivery_attempts a where a.match_id = ${matchId} and a.accepted)
        and (select count(distinct (a.channel, a.target)) from delivery_attempts a
             where a.match_id = ${matchId} and a.last) >= ${targets}
      returning id`);
    return rowsOf(result).length > 0;
  },

  async insertAttempt(db: Db, row: typeof deliveryAttempts.$inferInsert) {
    await db.insert(deliveryAttempts).values(row);
  },

  /** How many attempts a target has had, and whether one was accepted. */
  async targetState(db: Db, matchId: string, channel: string, target: string) {
    const [row] = await db
      .select({
        n: count(),
        accepted: sql<boolean>`coalesce(bool_or(${deliveryAttempts.accepted}), false)`,
      })
      .from(deliveryAttempts)
      .where(
        and(
          eq(deliveryAttempts.matchId, matchId),
          eq(deliveryAttempts.channel, channel),
          eq(deliveryAttempts.target, target),
        ),
      );
    return { attempts: Number(row?.n ?? 0), accepted: Boolean(row?.accepted) };
  },

  async attemptsOf(db: Db, matchIds: string[]): Promise<AttemptRow[]> {
    if (matchIds.length === 0) return [];
    return db
      .select()
      .from(deliveryAttempts)
      .where(sql`${deliveryAttempts.matchId} in ${matchIds}`)
      .orderBy(asc(deliveryAttempts.at), asc(deliveryAttempts.id));
  },

  async attemptByProviderId(db: Db, providerId: string): Promise<AttemptRow | null> {
    const [row] = await db.select().from(deliveryAttempts).where(eq(deliveryAttempts.providerId, providerId));
    return row ?? null;
  },

  async updateAttempt(db: Db, id: string, patch: Partial<typeof deliveryAttempts.$inferInsert>) {
    await db.update(deliveryAttempts).set(patch).where(eq(deliveryAttempts.id, id));
  },

  /** A resend starts new chains: the ended ones no longer count toward "undelivered". */
  async reopenChains(db: Db, matchId: string) {
    await db.update(deliveryAttempts).set({ last: false }).where(eq(deliveryAttempts.matchId, matchId));
  },

  async match(db: Db, leadId: string, matchId: string) {
    const [row] = await db
      .select({
        id: leadMatches.id,
        rejected: leadMatches.rejected,
        deliveryStatus: leadMatches.deliveryStatus,
        campaignNotify: campaigns.notify,
        buyerNotify: buyers.notify,
        customIds: sql<string[]>`${customIdsOf('lead_matches')}`,
      })
      .from(leadMatches)
      .innerJoin(campaigns, eq(campaigns.id, leadMatches.campaignId))
      .innerJoin(buyers, eq(buyers.id, leadMatches.buyerId))
      .where(and(eq(leadMatches.id, matchId), eq(leadMatches.leadId, leadId)));
    return row ?? null;
  },

  /** The stored lead, as a custom delivery renders it. */
  async leadRow(db: Db, leadId: string) {
    const [row] = await db
      .select({ lead: leads, ...evidenceColumns() })
      .from(leads)
      .leftJoin(consentEvidence, eq(consentEvidence.leadId, leads.id))
      .leftJoin(consentEvidenceSeals, eq(consentEvidenceSeals.leadId, leads.id))
      .where(eq(leads.id, leadId));
    return row ? { ...row.lead, consentPageUrl: row.consentPageUrl, consentEvidence: row.consentEvidence } : null;
  },

  /**
   * The buyer's id of its winning bid for a lead (Ping/Post), from the logged pings: what a retried
   * post echoes as `buyer_ping_id`, as the sale's own post did.
   */
  async buyerPingIdOf(db: Db, lead: { id: string; pingId: string }, deliveryId: string): Promise<string | null> {
    const [row] = await db
      .select({ buyerPingId: pingCalls.buyerPingId })
      .from(pingCalls)
      .where(
        and(
          eq(pingCalls.deliveryId, deliveryId),
          eq(pingCalls.outcome, 'bid'),
          lead.pingId === 'no_ping' ? eq(pingCalls.leadId, lead.id) : eq(pingCalls.pingId, lead.pingId),
        ),
      )
      .limit(1);
    return row?.buyerPingId ?? null;
  },

  async setBuyerLeadId(db: Db, matchId: string, buyerLeadId: string) {
    await db.update(leadMatches).set({ buyerLeadId }).where(eq(leadMatches.id, matchId));
  },

  async insertMessage(db: Db, row: typeof messages.$inferInsert) {
    await db.insert(messages).values(row);
  },
};
