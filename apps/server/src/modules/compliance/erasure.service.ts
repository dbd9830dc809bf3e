import {
  type ErasureContact,
  type ErasurePreview,
  type ErasureRecord,
  type ErasureRequest,
  formatLeadPhone,
  type Retention,
} from '@leadex/domain';
import type { Db } from '../../db/client';
import { likeContains } from '../../db/records';
import { readSetting, writeSetting } from '../../db/settings';
import { type Clock, toEpochSeconds } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import type { Logger } from '../../lib/logger';
import { pageWindow } from '../../lib/paging';
import type { Viewer } from '../../plugins/auth';
import type { ChannelNotice, NotifyChannel } from '../deliveries/notify/channels';
import { targetsOf } from '../deliveries/notify/notify';
import type { AccessLogService } from './access-log.service';
import { type ErasureBuyerRow, type ErasureTarget, erasureRepo } from './erasure.repo';

/** The setting holding the retention (issue 35 item 4): `{ lead_days: number | null }`. */
export const RETENTION_KEY = 'retention';
/** Notices sent per round; a notice is tried this many times before it is marked failed. */
const NOTICE_BATCH = 50;
export const NOTICE_TRIES = 5;
/** Leads the retention job erases per transaction. */
const RETENTION_BATCH = 500;

/** What the erasure needs from the other modules (deps.ts plugs them in). */
export interface ErasureDeps {
  db: Db;
  clock: Clock;
  accessLog: AccessLogService;
  /** Puts the contact on the exchange-wide suppression list as a keyed hash (issue 34's service). */
  suppress(kind: 'phone' | 'email', value: string): Promise<unknown>;
  /** Sends a notice on one of a buyer's channels (deliveries/notify/channels.ts); null: taken. */
  notice(channel: NotifyChannel, target: string, message: ChannelNotice): Promise<string | null>;
  logger?: Pick<Logger, 'error'>;
}

/** The ILIKE patterns of a contact as free texts write it: a phone's digits, formatted, with +1. */
export function contactPatterns(contact: ErasureContact): ErasureTarget {
  if (contact.phone) {
    const d = contact.phone;
    const [a, b, c] = [d.slice(0, 3), d.slice(3, 6), d.slice(6)];
    const written = [d, formatLeadPhone(d), `${a}-${b}-${c}`, `${a}.${b}.${c}`, `${a} ${b} ${c}`, `${a}) ${b}-${c}`];
    return { column: 'phone', value: d, patterns: [...new Set(written)].map(likeContains) };
  }
  const email = contact.email ?? '';
  return { column: 'email', value: email, patterns: [likeContains(email)] };
}

/** A buyer's notice targets: its campaign's channels or its own (custom deliveries cannot carry one), else its email. */
function noticeTargets(b: ErasureBuyerRow): { channel: NotifyChannel; target: string }[] {
  const targets = targetsOf(b.campaignNotify, b.buyerNotify).filter((t) => t.channel !== 'custom');
  return targets.length > 0 ? targets : [{ channel: 'email', target: b.buyerEmail }];
}

/**
 * Erasure on request (issue 35 item 1) and by retention (item 4): finds every row holding a person's
 * contact, overwrites the personal fields in one transaction (the leads stay as sales with their money),
 * puts the contact on the exchange-wide suppression list, tells every buyer that received a lead, and
 * keeps a request record (who asked, who erased, when, how many rows; never the data).
 */
export function createErasureService({ db, clock, accessLog, suppress, notice, logger }: ErasureDeps) {
  async function find(contact: ErasureContact) {
    const target = contactPatterns(contact);
    const leads = await erasureRepo.leads(db, target);
    const leadIds = leads.map((l) => l.id);
    const pingIds = leads.map((l) => l.pingId).filter((p) => p !== 'no_ping');
    return { target, leads, leadIds, pingIds };
  }

  let sending: Promise<number> | null = null;

  async function retention(): Promise<Retention> {
    const stored = await readSetting<Retention>(db, RETENTION_KEY);
    return { lead_days: stored?.lead_days ?? null };
  }

  /** One batch: a notice that fails waits for the next round (the job's minute), not this one. */
  async function sendRound(): Promise<number> {
    let sent = 0;
    {
      const claimed = await erasureRepo.claimNotices(db, NOTICE_BATCH);
      for (const n of claimed) {
        const matches = await erasureRepo.matchesOf(db, n.matchIds);
        const leads = matches.map((m) => ({ lead_id: m.leadId, match_id: m.id, buyer_lead_id: m.buyerLeadId }));
        const lines = leads.map(
          (l) => `Lead ${l.lead_id} (match ${l.match_id}${l.buyer_lead_id ? `, your lead id ${l.buyer_lead_id}` : ''})`,
        );
        let error: string | null;
        try {
          error = await notice(n.channel as NotifyChannel, n.target, {
            id: n.id,
            buyerId: n.buyerId,
            subject: `Erasure request: delete ${leads.length === 1 ? 'a lead' : `${leads.length} leads`} Leadex sold you`,
            text:
              'A consumer asked Leadex to delete their personal data (a deletion request under the CCPA/CPRA and ' +
              'similar state laws). Leadex has erased it. Please delete the personal data of these leads from your ' +
              `systems and do not contact the person again:\n\n${lines.join('\n')}\n\nLeadex erasure request ${n.requestId}.\n`,
            sms: `Leadex: erasure request ${n.requestId}: delete lead ${leads.map((l) => l.lead_id).join(', ')} and do not contact the person.`,
            json: { type: 'lead.erased', data: { request_id: n.requestId, leads } },
          });
        } catch (e) {
          error = String((e as Error).message ?? e);
        }
        const status = error === null ? 'sent' : n.attempts >= NOTICE_TRIES ? 'failed' : 'pending';
        await erasureRepo.noticeOutcome(db, n.id, { status, error, sentAt: error === null ? clock.now() : null });
        if (error === null) sent += 1;
      }
    }
    return sent;
  }

  /** Sends the notices waiting (one round at a time); answers how many were taken. */
  function sendPendingNotices(): Promise<number> {
    sending ??= sendRound().finally(() => {
      sending = null;
    });
    return sending;
  }

  async function recordOf(id: string): Promise<ErasureRecord> {
    const [record] = await recordsOf(await erasureRepo.one(db, id));
    if (!record) throw AppError.notFound('Erasure request');
    return record;
  }

  async function recordsOf(rows: Awaited<ReturnType<typeof erasureRepo.page>>['rows']): Promise<ErasureRecord[]> {
    const notices = await erasureRepo.noticesOf(
      db,
      rows.map((r) => r.record.id),
    );
    const names = await erasureRepo.buyerNames(db, [...new Set(rows.flatMap((r) => r.record.buyerIds))]);
    return rows.map(({ record: r, userName: erasedByName }) => ({
      _id: r.id,
      kind: r.kind as ErasureRecord['kind'],
      requested_by: r.requestedBy,
      ...(r.erasedBy ? { erased_by: { _id: r.erasedBy, ...(erasedByName ? { name: erasedByName } : {}) } } : {}),
      ...(r.matchedOn ? { matched_on: r.matchedOn as 'email' | 'phone' } : {}),
      counts: r.counts,
      lead_ids: r.leadIds,
      buyers: r.buyerIds.map((id) => ({ _id: id, name: names.get(id) ?? id })),
      notices: notices
        .filter((n) => n.requestId === r.id)
        .map((n) => ({
          buyer: names.get(n.buyerId) ?? n.buyerId,
          channel: n.channel,
          target: n.target,
          status: n.status,
          ...(n.error ? { error: n.error } : {}),
        })),
      ts: toEpochSeconds(r.at),
    }));
  }

  /**
   * Overwrites the leads and what hangs from them in one transaction, seals their consent evidence,
   * keeps the request record with the notices to their buyers, and logs it; the notices go after the
   * commit. Answers the record's id and how many leads it overwrote.
   */
  async function eraseTarget(
    viewer: Viewer | null,
    target: ErasureTarget,
    leadIds: string[],
    pingIds: string[],
    requestedBy: string,
    kind: 'request' | 'deletion_list',
    matchedOn: 'phone' | 'email' | null = target.column,
  ): Promise<{ id: string; leads: number }> {
    const id = newId('era');
    const now = clock.now();
    let leads = 0;
    await db.transaction(async (tx) => {
      const buyers = await erasureRepo.buyers(tx, leadIds);
      const counts = await erasureRepo.erase(tx, target, leadIds, pingIds);
      leads = counts.leads ?? 0;
      await erasureRepo.seal(tx, leadIds, now, id);
      await erasureRepo.insertRequest(tx, {
        id,
        kind,
        requestedBy,
        erasedBy: viewer?.userId ?? null,
        matchedOn,
        counts,
        leadIds,
        buyerIds: buyers.map((b) => b.buyerId),
        at: now,
      });
      await erasureRepo.insertNotices(
        tx,
        buyers.flatMap((b) =>
          noticeTargets(b).map((t) => ({
            id: newId('ern'),
            requestId: id,
            buyerId: b.buyerId,
            matchIds: b.matchIds,
            channel: t.channel,
            target: t.target,
            createdAt: now,
          })),
        ),
      );
      await accessLog.record(viewer, 'erasure', { leadIds, detail: { request: id, counts } }, tx);
    });
    // The buyers are told after the commit (the job's minute round retries what fails).
    sendPendingNotices().catch((error) => logger?.error({ err: error }, 'erasure: sending the notices failed'));
    return { id, leads };
  }

  return {
    /** POST /api/compliance/erasure/search: what an erasure of the contact would overwrite, and who would be told. */
    async preview(viewer: Viewer, contact: ErasureContact): Promise<ErasurePreview> {
      const { target, leads, leadIds, pingIds } = await find(contact);
      const [counts, buyers] = await Promise.all([
        erasureRepo.counts(db, target, leadIds, pingIds),
        erasureRepo.buyers(db, leadIds),
      ]);
      // The search shows leads' personal data: logged with the leads, never the contact searched.
      await accessLog.record(viewer, 'erasure.search', { leadIds, detail: { matched_on: target.column } });
      return {
        leads: leads.map((l) => ({
          _id: l.id,
          ts: toEpochSeconds(l.createdAt),
          ...(l.name ? { name: l.name } : {}),
          service: l.service,
          zip: l.zip,
          source: { _id: l.sourceId, name: l.sourceName ?? l.sourceId },
          buyers: l.buyers ?? [],
        })),
        counts,
        buyers: buyers.map((b) => ({ _id: b.buyerId, name: b.buyerName, targets: noticeTargets(b) })),
      };
    },

    /** POST /api/compliance/erasure: erases the contact everywhere in one transaction; answers the request record. */
    async erase(viewer: Viewer, request: ErasureRequest): Promise<ErasureRecord> {
      const { target, leadIds, pingIds } = await find(request);
      // First on the suppression list: an erasure that then fails leaves the person refused, never sold again.
      await suppress(target.column, target.value);
      const { id } = await eraseTarget(viewer, target, leadIds, pingIds, request.requested_by, 'request');
      return recordOf(id);
    },

    /**
     * A deletion list's matched leads (issue 35 item 3), erased exactly as requests: each phone and each
     * email they hold is erased everywhere (suppressed, buyers told, one record each); a lead matched on
     * name, date of birth and ZIP alone is erased by itself. `viewer` null: the daily job. Answers how
     * many leads were overwritten.
     */
    async eraseLeads(viewer: Viewer | null, leadIds: string[], requestedBy: string): Promise<number> {
      const held = await erasureRepo.contactsOf(db, leadIds);
      const contacts: ErasureContact[] = [
        ...[...new Set(held.flatMap((l) => (l.phone ? [l.phone] : [])))].map((phone) => ({ phone })),
        ...[...new Set(held.flatMap((l) => (l.email ? [l.email] : [])))].map((email) => ({ email })),
      ];
      let erased = 0;
      for (const contact of contacts) {
        const { target, leadIds: found, pingIds } = await find(contact);
        if (found.length === 0) continue; // erased already with the person's other contact
        await suppress(target.column, target.value);
        erased += (await eraseTarget(viewer, target, found, pingIds, requestedBy, 'deletion_list')).leads;
      }
      const rest = held.filter((l) => !l.phone && !l.email).map((l) => l.id);
      if (rest.length > 0) {
        const none: ErasureTarget = { column: 'phone', value: '', patterns: [] };
        const pingIds = await erasureRepo.pingIdsOf(db, rest);
        erased += (await eraseTarget(viewer, none, rest, pingIds, requestedBy, 'deletion_list', null)).leads;
      }
      return erased;
    },

    sendPendingNotices,

    /** GET /api/compliance/erasures: the request records, newest first. */
    async list(query: { page: number; pageSize: number }) {
      const { offset, limit } = pageWindow(query);
      const { rows, total } = await erasureRepo.page(db, { offset, limit });
      return { data: await recordsOf(rows), total };
    },

    retention,

    async setRetention(value: Retention): Promise<Retention> {
      await writeSetting(db, RETENTION_KEY, 'compliance', value, clock.now());
      return value;
    },

    /**
     * The daily retention job: erases the personal fields of leads older than the setting's days, the
     * same way as a request (without suppressing anyone: nobody asked), in batches; one record per run.
     */
    async runRetention(): Promise<number> {
      const { lead_days: days } = await retention();
      if (!days) return 0;
      const before = new Date(clock.now().getTime() - days * 86_400_000);
      const none: ErasureTarget = { column: 'phone', value: '', patterns: [] };
      const total: Record<string, number> = {};
      const erased: string[] = [];
      const id = newId('era');
      for (;;) {
        const leadIds = await erasureRepo.expiredLeads(db, before, RETENTION_BATCH);
        if (leadIds.length === 0) break;
        await db.transaction(async (tx) => {
          const counts = await erasureRepo.erase(tx, none, leadIds, await erasureRepo.pingIdsOf(tx, leadIds));
          await erasureRepo.seal(tx, leadIds, clock.now(), id);
          for (const [k, v] of Object.entries(counts)) total[k] = (total[k] ?? 0) + v;
        });
        erased.push(...leadIds);
        if (leadIds.length < RETENTION_BATCH) break;
      }
      if (erased.length === 0) return 0;
      await db.transaction(async (tx) => {
        await erasureRepo.insertRequest(tx, {
          id,
          kind: 'retention',
          requestedBy: `Retention: leads older than ${days} days`,
          erasedBy: null,
          matchedOn: null,
          counts: total,
          // A run may erase a great many: the record keeps the count, the log the first thousand ids.
          leadIds: erased.slice(0, 1000),
          buyerIds: [],
          at: clock.now(),
        });
        await accessLog.record(
          null,
          'retention',
          { leadIds: erased.slice(0, 1000), detail: { request: id, counts: total } },
          tx,
        );
      });
      return erased.length;
    },
  };
}

export type ErasureService = ReturnType<typeof createErasureService>;
