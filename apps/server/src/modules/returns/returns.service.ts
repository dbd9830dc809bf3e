import {
  type BillPeriod,
  DEFAULT_RETURN_WINDOW_DAYS,
  type ReturnDecision,
  type ReturnListItem,
  type ReturnListQuery,
  type ReturnRequest,
  type ReturnStatus,
  returnDecisionSchema,
  returnRequestSchema,
} from '@leadex/domain';
import type { Db, Tx } from '../../db/client';
import { type Clock, toEpochSeconds } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { centsToDollars } from '../../lib/money';
import type { Viewer } from '../../plugins/auth';
import { billingPeriod, ensureAccruingBill } from '../bills/bills.service';
import { buyerSpend } from '../bills/buyer-spend';
import { autoApproveAllows, withinReturnWindow } from '../bills/money';
import { statsRollup } from '../stats/stats-rollup';
import { type ReturnMatch, returnsRepo } from './returns.repo';

/** The return window in days: the `return_window_days` setting, else the default. */
export async function returnWindowDays(db: Db): Promise<number> {
  return (await returnsRepo.numberSetting(db, 'return_window_days')) ?? DEFAULT_RETURN_WINDOW_DAYS;
}

/** The match's return as the lead detail shows it (admin §3 Lead: return reason, comment, approve, deny). */
function returnOf(m: ReturnMatch) {
  return {
    _id: m.id,
    status: m.returnStatus as ReturnStatus | null,
    reason: m.returnReason ?? undefined,
    comment: m.returnComment ?? undefined,
  };
}

/**
 * A closed bill's totals are final (DESIGN.md §7: returns only before the bill is invoiced). Called under
 * the buyer's lock, which the billing run also takes, so a bill cannot close between this and the change.
 */
async function refuseOnClosedBill(tx: Tx, matchId: string): Promise<void> {
  const status = await returnsRepo.billStatus(tx, matchId);
  if (status === 'closed')
    throw new AppError('conflict', "This lead's bill is closed: its returns can no longer change");
}

/**
 * What an approved return changes beyond the match: a prepay or credit buyer gets the price back to
 * spend (rule 7), and the source gives back its share of the lead's payout.
 */
async function onApproved(tx: Tx, match: Pick<ReturnMatch, 'id' | 'buyerId'>, now: Date): Promise<void> {
  await buyerSpend.recomputeOf(tx, match.buyerId);
  await returnsRepo.chargeBack(tx, newId('chb'), match.id, now);
  // A sale of a closed day: its day's figures in the reports' rollup are rewritten with the return.
  await statsRollup.refreshSale(tx, match.id);
}

/**
 * A late Not Accepted from a retried custom delivery (DESIGN.md §6): the buyer refused a lead it was
 * sold, so the sale becomes an approved return, never a re-sale. If its bill has closed meanwhile, the
 * closed totals stay as invoiced and the buyer's next bill carries a credit of the price instead.
 * Under the buyer's lock, like every return decision and the billing run.
 */
export async function approveRefusedSale(db: Db, matchId: string, comment: string, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    const match = await returnsRepo.matchById(tx, matchId);
    if (!match || match.rejected || match.returnStatus === 'approved') return;
    const buyer = await returnsRepo.lockBuyer(tx, match.buyerId);
    if (!buyer) return;
    if ((await returnsRepo.billStatus(tx, match.id)) === 'closed') {
      const next = await ensureAccruingBill(tx, buyer, now, true);
      const name = (await returnsRepo.leadName(tx, match.leadId)) ?? match.leadId;
      if (next)
        await returnsRepo.addRefusalCredit(tx, {
          id: newId('adj'),
          billId: next.id,
          matchId: match.id,
          amountCents: match.priceCents,
          description: `Lead ${name} refused by the buyer's custom delivery after its bill closed`,
          at: now,
        });
      await onApproved(tx, match, now);
      return;
    }
    const approved = await returnsRepo.setReturn(tx, match.id, match.returnStatus, {
      returnStatus: 'approved',
      returnReason: "Not Accepted by the buyer's custom delivery",
      returnComment: comment.slice(0, 500),
      returnRequestedAt: now,
      returnDecidedAt: now,
      returnDecidedBy: 'delivery',
    });
    if (approved) await onApproved(tx, match, now);
  });
}

/**
 * Lead returns (DESIGN.md §7): a buyer asks to return a lead it bought, within the return window;
 * its auto-approve share approves at once while its approved returns stay within that share of its
 * leads on the bill, otherwise an admin decides (and is told by a message). An approved return credits
 * the bill: the bill's totals leave out approved returns (bills.repo.ts).
 */
export function createReturnsService({ db, clock }: { db: Db; clock: Clock }) {
  /** The match a viewer may act on: an admin any, a buyer only its own; anyone else's is not found. */
  async function visibleMatch(viewer: Viewer, leadId: string, matchId: string): Promise<ReturnMatch> {
    const match = await returnsRepo.match(db, leadId, matchId);
    const visible = match && (viewer.role === 'admin' || (viewer.role === 'buyer' && viewer.roleId === match.buyerId));
    if (!match || !visible) throw AppError.notFound('Lead');
    return match;
  }

  async function request(viewer: Viewer, leadId: string, matchId: string, body: ReturnRequest) {
    const match = await visibleMatch(viewer, leadId, matchId);
    if (match.rejected) throw new AppError('conflict', 'This lead was not sold to you: there is nothing to return');
    if (match.returnStatus) throw new AppError('conflict', 'A return was already requested for this lead');
    const now = clock.now();
    const windowDays = await returnWindowDays(db);
    if (!withinReturnWindow(match.createdAt, now, windowDays))
      throw new AppError(
        'conflict',
        `The return window has closed: a lead may be returned within ${windowDays} days of its sale`,
      );
    const decided = await db.transaction(async (tx) => {
      const buyer = await returnsRepo.lockBuyer(tx, match.buyerId);
      if (!buyer) throw AppError.notFound('Lead');
      await refuseOnClosedBill(tx, match.id);
      const { start, next } = billingPeriod(buyer.period as BillPeriod, match.createdAt);
      const share = await returnsRepo.billShare(tx, match.buyerId, start, next);
      const automatic = autoApproveAllows(buyer.autoApproveReturns, share.approved, share.leads);
      const updated = await returnsRepo.setReturn(tx, match.id, null, {
        returnStatus: automatic ? 'approved' : 'requested',
        returnReason: body.reason,
        returnComment: body.comment ?? null,
        returnRequestedAt: now,
        returnDecidedAt: automatic ? now : null,
        returnDecidedBy: automatic ? 'auto' : null,
      });
      if (!updated) throw new AppError('conflict', 'A return was already requested for this lead');
      if (automatic) await onApproved(tx, match, now);
      if (!automatic) {
        const name = await returnsRepo.leadName(tx, leadId);
        await returnsRepo.insertMessage(tx, {
          id: newId('msg'),
          text: `${buyer.name} asks to return the lead ${name ?? leadId} (${body.reason}). Approve or deny it on the Returns screen.`,
          data: {
            kind: 'return_requested',
            lead_id: leadId,
            match_id: match.id,
            buyer_id: buyer.id,
            reason: body.reason,
            comment: body.comment,
            link: `/lead/${leadId}`,
          },
          createdAt: now,
        });
      }
      return updated;
    });
    return returnOf(decided);
  }

  async function decide(viewer: Viewer, leadId: string, matchId: string, decision: ReturnDecision) {
    const match = await visibleMatch(viewer, leadId, matchId);
    if (match.rejected) throw new AppError('conflict', 'This match was rejected: it was never sold');
    const approve = 'approve' in decision;
    // An admin may approve a sale nobody asked to return (admin spec §4); only a request can be denied.
    if (match.returnStatus === 'approved' || match.returnStatus === 'denied')
      throw new AppError('conflict', 'This return was already decided');
    if (!approve && match.returnStatus !== 'requested')
      throw new AppError('conflict', 'There is no return request to deny');
    const now = clock.now();
    const updated = await db.transaction(async (tx) => {
      await returnsRepo.lockBuyer(tx, match.buyerId);
      await refuseOnClosedBill(tx, match.id);
      const decided = await returnsRepo.setReturn(tx, match.id, match.returnStatus, {
        returnStatus: approve ? 'approved' : 'denied',
        returnDecidedAt: now,
        returnDecidedBy: viewer.userId,
      });
      if (decided && approve) await onApproved(tx, match, now);
      if (decided) await returnsRepo.resolveRequestMessage(tx, match.id, approve ? 'approved' : 'denied', now);
      return decided;
    });
    if (!updated) throw new AppError('conflict', 'This return was already decided');
    return returnOf(updated);
  }

  return {
    /** POST /api/lead/{id}/match/{matchId}/return: a buyer's request, or an admin's approve or deny. */
    async act(viewer: Viewer, leadId: string, matchId: string, body: unknown) {
      const schema = viewer.role === 'admin' ? returnDecisionSchema : returnRequestSchema;
      const parsed = schema.safeParse(body);
      if (!parsed.success) throw AppError.fromIssues(parsed.error.issues);
      return viewer.role === 'admin'
        ? decide(viewer, leadId, matchId, parsed.data as ReturnDecision)
        : request(viewer, leadId, matchId, parsed.data as ReturnRequest);
    },

    /** GET /api/lead/returns: the admin's Returns screen. */
    async list(query: ReturnListQuery): Promise<{ data: ReturnListItem[]; total: number }> {
      const { rows, total } = await returnsRepo.page(
        db,
        query.status,
        (query.page - 1) * query.pageSize,
        query.pageSize,
      );
      return {
        total,
        data: rows.map(({ match: m, leadName, service, zip, buyerName }) => ({
          _id: m.id,
          lead_id: m.leadId,
          lead_name: leadName ?? undefined,
          service,
          zip,
          buyer: { _id: m.buyerId, name: buyerName },
          price: centsToDollars(m.priceCents),
          ts: toEpochSeconds(m.createdAt),
          reason: m.returnReason ?? undefined,
          comment: m.returnComment ?? undefined,
          status: m.returnStatus as ReturnStatus,
          requested_ts: m.returnRequestedAt ? toEpochSeconds(m.returnRequestedAt) : undefined,
          decided_ts: m.returnDecidedAt ? toEpochSeconds(m.returnDecidedAt) : undefined,
        })),
      };
    },
  };
}

export type ReturnsService = ReturnType<typeof createReturnsService>;
