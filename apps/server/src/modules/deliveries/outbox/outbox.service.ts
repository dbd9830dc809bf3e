import type { SimWhitelist } from '@leadex/domain';
import type { Db } from '../../../db/client';
import { type Clock, toEpochSeconds } from '../../../lib/clock';
import { outboxRepo } from './outbox.repo';
import { readWhitelist, saveWhitelist } from './whitelist';

/**
 * Outgoing mail for admins: what a missing or failing SMTP server kept back; and the whitelist of the
 * addresses mail and texts may go to outside production (the simulator edits it, DESIGN.md §11).
 */
export function createOutboxService({ db, clock }: { db: Db; clock: Clock }) {
  return {
    whitelist: () => readWhitelist(db),

    saveWhitelist: (list: SimWhitelist) => saveWhitelist(db, list, clock.now()),

    async list({ page, pageSize }: { page: number; pageSize: number }) {
      const { rows, total } = await outboxRepo.page(db, (page - 1) * pageSize, pageSize);
      return {
        data: rows.map((r) => ({
          _id: r.id,
          channel: r.channel,
          to: r.to,
          subject: r.subject,
          text: r.text,
          status: r.status,
          error: r.error ?? undefined,
          ts: toEpochSeconds(r.createdAt),
        })),
        total,
      };
    },
  };
}

export type OutboxService = ReturnType<typeof createOutboxService>;
