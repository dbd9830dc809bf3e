import type { Db } from '../../db/client';
import { type Clock, toEpochSeconds } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { type MessageRow, messagesRepo } from './messages.repo';

const DAY_MS = 86_400_000;

const messageOf = (m: MessageRow) => ({
  _id: m.id,
  text: m.text,
  data: m.data ?? undefined,
  hidden: m.hiddenAt !== null,
  ts: toEpochSeconds(m.createdAt),
});

/** The admin's messages (admin spec §2 Messages): the last days' events, each hidden by hand. */
export function createMessagesService({ db, clock }: { db: Db; clock: Clock }) {
  return {
    async list({ page, pageSize, days }: { page: number; pageSize: number; days: number }) {
      const since = new Date(clock.now().getTime() - days * DAY_MS);
      const { rows, total } = await messagesRepo.page(db, since, (page - 1) * pageSize, pageSize);
      return { data: rows.map(messageOf), total };
    },

    async hide(id: string, hide: boolean) {
      const row = await messagesRepo.hide(db, id, hide ? clock.now() : null);
      if (!row) throw AppError.notFound('Message');
      return messageOf(row);
    },
  };
}

export type MessagesService = ReturnType<typeof createMessagesService>;
