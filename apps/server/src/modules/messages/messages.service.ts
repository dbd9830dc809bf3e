import type { Db } from '../../db/client';
import { type Clock, toEpochSeconds } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import type { BuyersService, Viewer } from '../buyers/buyers.service';
import type { UsersService } from '../users/users.service';
import { type MessageInsert, type MessageRow, messagesRepo } from './messages.repo';

const DAY_MS = 86_400_000;

const messageOf = (m: MessageRow) => ({
  _id: m.id,
  text: m.text,
  data: m.data ?? undefined,
  hidden: m.hiddenAt !== null,
  ts: toEpochSeconds(m.createdAt),
});

/** What a buyer's Message Us answers: the message as the admins will read it. */
export interface SentBuyerMessage {
  _id: string;
  message: string;
  /** Epoch seconds. */
  ts: number;
}

/**
 * The admin's messages (admin spec §2 Messages): the last days' events, each hidden by hand; buyers'
 * Message Us notes join them.
 */
export function createMessagesService({
  db,
  clock,
  buyers,
  users,
}: {
  db: Db;
  clock: Clock;
  /** Who wrote a buyer's Message Us: its buyer and its user. */
  buyers: Pick<BuyersService, 'findRow'>;
  users: Pick<UsersService, 'findById'>;
}) {
  return {
    /** Raises an admin message (DESIGN.md §11: the system's, never lost): a failed payment, a sign-up, an expired integration. */
    raise: (row: MessageInsert): Promise<void> => messagesRepo.insert(db, row),

    async list({ page, pageSize, days }: { page: number; pageSize: number; days: number }) {
      const since = new Date(clock.now().getTime() - days * DAY_MS);
      const { rows, total } = await messagesRepo.page(db, since, (page - 1) * pageSize, pageSize);
      return { data: rows.map(messageOf), total };
    },

    /**
     * Message Us (portals spec §2 buyer home): the signed-in buyer's note becomes an admin message that
     * names the buyer and who wrote it, and links to the buyer. Another buyer's id is not found.
     */
    async fromBuyer(viewer: Viewer & { userId: string }, buyerId: string, message: string): Promise<SentBuyerMessage> {
      const own = viewer.role === 'buyer' && viewer.roleId === buyerId;
      const buyer = own ? await buyers.findRow(buyerId) : null;
      if (!buyer) throw AppError.notFound('Buyer');
      const author = await users.findById(viewer.userId);
      const id = newId('msg');
      const at = clock.now();
      await messagesRepo.insert(db, {
        id,
        text: `Message from ${buyer.name}${author ? ` (${author.email})` : ''}: ${message}`,
        data: {
          kind: 'buyer_message',
          buyer_id: buyer.id,
          user_id: viewer.userId,
          ...(author ? { from: author.email } : {}),
          message,
          link: `/buyer/${buyer.id}`,
        },
        createdAt: at,
      });
      return { _id: id, message, ts: toEpochSeconds(at) };
    },

    /** Hides (or shows again) several messages at once; answers how many were found. */
    async hideMany(ids: readonly string[], hide: boolean): Promise<{ ok: true; count: number }> {
      const count = await messagesRepo.hideMany(db, [...new Set(ids)], hide ? clock.now() : null);
      return { ok: true, count };
    },

    async hide(id: string, hide: boolean) {
      const row = await messagesRepo.hide(db, id, hide ? clock.now() : null);
      if (!row) throw AppError.notFound('Message');
      return messageOf(row);
    },
  };
}

export type MessagesService = ReturnType<typeof createMessagesService>;
