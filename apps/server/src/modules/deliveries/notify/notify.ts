import { createHash } from 'node:crypto';
import type { ResendAnswer } from '@leadex/domain';
import type PgBoss from 'pg-boss';
import { z } from 'zod';
import type { Config } from '../../../config';
import type { Db } from '../../../db/client';
import type { NotifyConfig } from '../../../db/schema';
import type { Clock } from '../../../lib/clock';
import { newId } from '../../../lib/ids';
import { approveRefusedSale } from '../../returns/returns.service';
import type { Channels, NotifyChannel } from './channels';
import { notifyRepo } from './notify.repo';

/** The pg-boss queue of the notify jobs. */
export const NOTIFY_QUEUE = 'notify';

/**
 * One pg-boss job: one try of one channel to one target of a match. The payload is checked when a
 * worker takes the job: a job written by another version of the code fails loudly, not halfway.
 */
export const notifyJobSchema = z.object({
  matchId: z.string().min(1),
  channel: z.enum(['email', 'sms', 'webhook', 'broadcast', 'custom']),
  target: z.string().min(1),
  /** How many targets the match has: when all have ended unaccepted, it is undelivered. */
  targets: z.number().int().positive(),
  /** 0 for the first try of a chain; retry n waits DELIVERY_RETRY_DELAYS_MS[n - 1]. */
  step: z.number().int().min(0),
  /** Tells a resend's chain from the first one, so their job ids differ. */
  chain: z.string(),
}) satisfies z.ZodType<{ channel: NotifyChannel }>;
export type NotifyJob = z.infer<typeof notifyJobSchema>;

/**
 * The targets of a match: the campaign's channels when it has any, else the buyer's defaults; and
 * the buyer's live custom deliveries (by id), which the sale has tried once already.
 */
export function targetsOf(
  campaign: NotifyConfig | null,
  buyer: NotifyConfig,
  customIds: readonly string[] = [],
): { channel: NotifyChannel; target: string }[] {
  const list = (n: NotifyConfig | null) => [
    ...(n?.email ?? []).map((target) => ({ channel: 'email' as const, target })),
    ...(n?.sms ?? []).map((target) => ({ channel: 'sms' as const, target })),
    ...(n?.webhook ? [{ channel: 'webhook' as const, target: n.webhook }] : []),
    ...(n?.broadcast_webhooks ?? []).map((target) => ({ channel: 'broadcast' as const, target })),
  ];
  const own = list(campaign);
  const chosen = [
    ...(own.length > 0 ? own : list(buyer)),
    ...customIds.map((target) => ({ channel: 'custom' as const, target })),
  ];
  const seen = new Set<string>();
  return chosen.filter((t) => !seen.has(`${t.channel} ${t.target}`) && seen.add(`${t.channel} ${t.target}`));
}

/** A job id derived from what it does: sending the same job twice inserts it once. */
export function jobId(job: NotifyJob): string {
  const h = createHash('sha256')
    .update(`${job.matchId}|${job.channel}|${job.target}|${job.chain}|${job.step}`)
    .digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export interface NotifyDeps {
  db: Db;
  clock: Clock;
  config: Config;
  channels: Channels;
}

/** The handler of one notify job (at least once: a job run twice sends nothing already accepted). */
export function createNotifyHandler({ db, clock, config, channels }: NotifyDeps) {
  const delays = config.DELIVERY_RETRY_DELAYS_MS;

  async function undelivered(matchId: string, targets: number) {
    if (!(await notifyRepo.concludeUndelivered(db, matchId, targets))) return;
    const lead = await notifyRepo.lead(db, matchId);
    await notifyRepo.insertMessage(db, {
      id: newId('msg'),
      text: `Lead ${lead?.id ?? ''} sold to ${lead?.buyerName ?? 'a buyer'} was not delivered: every notify channel failed. It is not billed until a resend succeeds.`,
      data: {
        kind: 'undelivered',
        lead_id: lead?.id,
        match_id: matchId,
        buyer_id: lead?.buyerId,
        campaign_id: lead?.campaignId,
        link: lead ? `/lead/${lead.id}` : undefined,
      },
      createdAt: clock.now(),
    });
  }

  async function handle(boss: PgBoss, job: NotifyJob): Promise<void> {
    const lead = await notifyRepo.lead(db, job.matchId);
    if (!lead || lead.rejected) return;
    const state = await notifyRepo.targetState(db, job.matchId, job.channel, job.target);
    // Run again after a crash, or a resend of a target that has since been accepted: nothing to
    // send; the match is made delivered in case the crash came before that.
    if (state.accepted) {
      await notifyRepo.markDelivered(db, job.matchId);
      return;
    }
    const result = await channels.send(job.channel, lead, job.target);
    const awaitingCallback = job.channel === 'sms' && channels.smsByCallback && result.statusCode === 201;
    const last = !result.accepted && !awaitingCallback && (result.final === true || job.step >= delays.length);
    await notifyRepo.insertAttempt(db, {
      id: newId('att'),
      matchId: job.matchId,
      channel: job.channel,
      target: job.target,
      attempt: state.attempts + 1,
      ...result,
      last,
      at: clock.now(),
    });
    if (result.accepted) {
      await notifyRepo.markDelivered(db, job.matchId);
      return;
    }
    // The buyer's system refused a lead it was sold: a return it has already won, never a re-sale (DESIGN.md §6).
    if (job.channel === 'custom' && result.final)
      await approveRefusedSale(db, job.matchId, result.error ?? 'Not Accepted', clock.now());
    // Twilio took the text: its status callback decides delivered or failed.
    if (awaitingCallback) return;
    if (last) return undelivered(job.matchId, job.targets);
    const next: NotifyJob = { ...job, step: job.step + 1 };
    await boss.insert([
      {
        id: jobId(next),
        name: NOTIFY_QUEUE,
        data: next,
        // An interval from the database's clock, so the workers' clocks never matter.
        startAfter: `${delays[job.step] ?? 0} milliseconds`,
      },
    ]);
  }

  return { handle, undelivered };
}

export type NotifyHandler = ReturnType<typeof createNotifyHandler>;

/**
 * What the notify routes need from the process that runs the deliveries (jobs/ implements it, deps.ts
 * hands it in): an admin's resend of a match's failed channels and Twilio's status callback for a text.
 */
export interface NotifyResends {
  resend(leadId: string, matchId: string): Promise<ResendAnswer>;
  /** false: no attempt has this provider id. */
  smsStatus(sid: string, status: string): Promise<boolean>;
}
