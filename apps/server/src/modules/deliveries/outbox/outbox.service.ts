import type { Db } from '../../../db/client';
import { toEpochSeconds } from '../../../lib/clock';
import { outboxRepo } from './outbox.repo';

/** Outgoing mail for admins: what a missing or failing SMTP server kept back. */
export function createOutboxService({ db }: { db: Db }) {
  return {
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
