import type { Db } from '../../db/client';
import { toEpochSeconds } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { centsToDollars } from '../../lib/money';
import type { Viewer } from '../../plugins/auth';
import { type AttemptRow, notifyRepo } from '../deliveries/notify/notify.repo';
import { unpackExplanation } from '../source-api/explanation';
import { type LeadRow, leadsRepo, type MatchRow } from './leads.repo';

const orUndefined = <T>(v: T | null) => v ?? undefined;

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
    duration_ms: a.durationMs,
    ts: toEpochSeconds(a.at),
  };
  if (a.channel === 'email') return { ...entry, status: [{ data: { event: a.accepted ? 'delivered' : 'failed' } }] };
  if (a.channel === 'sms') return { ...entry, status: a.accepted ? 'delivered' : a.last ? 'failed' : 'sent' };
  return entry;
}

/** The admin's delivery logs per channel on each match (GET /lead/{id}?includeNotifyLogs=true). */
function withNotifyLogs<M extends { _id: string }>(matches: M[], attempts: AttemptRow[]) {
  return matches.map((m) => {
    const of = (channel: string) => attempts.filter((a) => a.matchId === m._id && a.channel === channel).map(logEntry);
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

/**
 * Leads as each role may see them (DESIGN.md §8): admins everything, with the engine's explanation;
 * a buyer only a lead sold to it, with its own match; a source only its own leads, without buyers or prices.
 */
export function createLeadsService(db: Db) {
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
      tcpa_consent: lead.tcpaConsent ?? false,
      tcpa_language: orUndefined(lead.tcpaLanguage),
      jornaya: orUndefined(lead.jornaya),
      homeowner: lead.homeowner ?? false,
      pub_id: orUndefined(lead.pubId),
      sub_id: orUndefined(lead.subId),
      tags: lead.tags,
      ping_id: lead.pingId === 'no_ping' ? 'no_ping' : 'ping',
      test: lead.test,
      ts: toEpochSeconds(lead.createdAt),
    };
  }

  return {
    /** How the engine decided a lead (the simulator shows it): every campaign considered, and why. */
    async explanationOf(leadId: string) {
      return unpackExplanation(db, await leadsRepo.explanationOf(db, leadId));
    },

    async get(viewer: Viewer, id: string, options: { includeMatchLog: boolean; includeNotifyLogs?: boolean }) {
      const lead = await leadsRepo.findById(db, id);
      if (!lead) throw AppError.notFound('Lead');
      if (viewer.role === 'admin') {
        const matches = await leadsRepo.matchesOf(db, [id]);
        return {
          ...base(lead),
          ip: orUndefined(lead.ip),
          user_agent: orUndefined(lead.userAgent),
          quality: orUndefined(lead.quality),
          metadata: orUndefined(lead.metadata),
          cost: centsToDollars(lead.costCents),
          price: centsToDollars(lead.priceCents),
          buyers: matches.filter((m) => !m.rejected).map((m) => m.buyerName),
          match: options.includeNotifyLogs
            ? withNotifyLogs(
                matches.map((m) => matchOf(m, true)),
                await notifyRepo.attemptsOf(
                  db,
                  matches.map((m) => m.id),
                ),
              )
            : matches.map((m) => matchOf(m, true)),
          answer: lead.answer ?? undefined,
          ...(options.includeMatchLog ? { explanation: await unpackExplanation(db, lead.explanation) } : {}),
        };
      }
      if (viewer.role === 'buyer') {
        const mine = (await leadsRepo.matchesOf(db, [id])).filter((m) => m.buyerId === viewer.roleId);
        if (mine.length === 0) throw AppError.notFound('Lead');
        return {
          ...base(lead),
          price: centsToDollars(mine[0]?.priceCents ?? 0),
          match: mine.map((m) => matchOf(m, false)),
        };
      }
      if (viewer.role === 'source' && lead.sourceId === viewer.roleId) {
        return { ...base(lead), cost: centsToDollars(lead.costCents) };
      }
      throw AppError.notFound('Lead');
    },
  };
}

export type LeadsService = ReturnType<typeof createLeadsService>;
