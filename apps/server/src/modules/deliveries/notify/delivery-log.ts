import type { Db } from '../../../db/client';
import { type AttemptRow, notifyRepo } from './notify.repo';

export type { AttemptRow };

/** The delivery logs of sold leads (every attempt of every channel), for the admin's lead detail. */
export function createDeliveryLog({ db }: { db: Db }) {
  return {
    /** The attempts of these matches, oldest first. */
    attemptsOf: (matchIds: string[]): Promise<AttemptRow[]> => notifyRepo.attemptsOf(db, matchIds),
  };
}

export type DeliveryLog = ReturnType<typeof createDeliveryLog>;
