import { TAG_KINDS } from '@leadex/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../app';
import { AppError } from '../../lib/errors';
import { referenceRepo } from './reference.repo';

/** Buyers may read the tags of their own campaigns, deliveries and leads; the rest is the admin's. */
const BUYER_TAG_KINDS = new Set(['match', 'webhook', 'lead']);

/** Reference data for forms: services and tag choices (short lists, answered as bare arrays). */
export const referenceRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db }) => {
  app.get(
    '/services',
    { preHandler: app.requireRole('admin', 'buyer', 'source'), schema: { tags: ['reference'] } },
    () => referenceRepo.serviceNames(db),
  );

  app.get(
    '/tag/:kind',
    {
      preHandler: app.requireRole('admin', 'buyer'),
      schema: { tags: ['reference'], params: z.object({ kind: z.enum(TAG_KINDS, { error: 'Unknown tag kind' }) }) },
    },
    async (request) => {
      const viewer = request.viewer();
      const { kind } = request.params;
      if (viewer.role === 'admin') return referenceRepo.tags(db, kind);
      if (!BUYER_TAG_KINDS.has(kind)) throw new AppError('forbidden', 'Not allowed');
      return referenceRepo.tags(db, kind, viewer.roleId ?? '');
    },
  );
};
