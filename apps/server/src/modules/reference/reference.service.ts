import type { ServiceLabel, TagKind } from '@leadex/domain';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/errors';
import type { Viewer } from '../../plugins/auth';
import { referenceRepo } from './reference.repo';

/** Buyers may read the tags of their own campaigns, deliveries and leads; the rest is the admin's. */
const BUYER_TAG_KINDS = new Set<TagKind>(['match', 'webhook', 'lead']);

/** Reference data for forms: the exchange's services and the tag choices of each kind. */
export function createReferenceService({ db }: { db: Db }) {
  return {
    serviceNames: (): Promise<string[]> => referenceRepo.serviceNames(db),

    /** Each service's key and the label the screens show for it (issue 27 item 12). */
    serviceLabels: (): Promise<ServiceLabel[]> => referenceRepo.serviceLabels(db),

    /** An admin's tags of a kind across the exchange; a buyer's only from its own records. */
    tags(viewer: Viewer, kind: TagKind): Promise<string[]> {
      if (viewer.role === 'admin') return referenceRepo.tags(db, kind);
      if (!BUYER_TAG_KINDS.has(kind)) throw new AppError('forbidden', 'Not allowed');
      return referenceRepo.tags(db, kind, viewer.roleId ?? '');
    },
  };
}

export type ReferenceService = ReturnType<typeof createReferenceService>;
