import type { SimWhitelist } from '@leadex/domain';
import type { Db } from '../../../db/client';
import { outboxRepo } from './outbox.repo';

/** The settings row of the whitelist the simulator edits (DESIGN.md §11 Simulator). */
export const WHITELIST_KEY = 'sim_whitelist';

/** The outbox status of a message kept back because its address is not whitelisted. */
export const NOT_WHITELISTED = 'not_whitelisted';

/** The last 10 digits of a phone number: (512) 555-0100, 512-555-0100 and +15125550100 are one number. */
const phoneKey = (phone: string) => phone.replace(/\D/g, '').slice(-10);

/** Whether mail or a text may go to an address. */
export interface Whitelist {
  allows(channel: 'email' | 'sms', to: string): Promise<boolean>;
}

/** The saved whitelist as the simulator shows it (empty lists before one is saved). */
export async function readWhitelist(db: Db): Promise<SimWhitelist & { _id: string }> {
  const saved = await outboxRepo.setting<SimWhitelist>(db, WHITELIST_KEY);
  return { _id: WHITELIST_KEY, email: saved?.email ?? [], phone: saved?.phone ?? [] };
}

/** Saves the whitelist (the simulator's form): from now on mail and texts go only to it outside production. */
export async function saveWhitelist(db: Db, list: SimWhitelist, at: Date): Promise<SimWhitelist & { _id: string }> {
  await outboxRepo.saveSetting(db, WHITELIST_KEY, 'sim', list, at);
  return { _id: WHITELIST_KEY, ...list };
}

/**
 * Outside production, mail and SMS go only to the simulator's whitelist, once one is saved; the others
 * are kept in the outbox marked not whitelisted, so a test exchange never messages real people
 * (DESIGN.md §11). In production, or before a whitelist is saved, everything may go.
 */
export function createWhitelist(db: Db, production: boolean): Whitelist {
  return {
    async allows(channel, to) {
      if (production) return true;
      const list = await outboxRepo.setting<SimWhitelist>(db, WHITELIST_KEY);
      if (!list || (list.email.length === 0 && list.phone.length === 0)) return true;
      if (channel === 'email') return list.email.some((email) => email.toLowerCase() === to.trim().toLowerCase());
      return list.phone.some((phone) => phoneKey(phone) === phoneKey(to));
    },
  };
}
