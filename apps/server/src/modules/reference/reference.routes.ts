import { TAG_KINDS } from '@leadex/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../app';
import { SourceApiError } from '../../distribution/engine';
import { API_KEY_PREFIX } from '../../lib/api-keys';
import { AppError } from '../../lib/errors';
import type { RoleGuard } from '../../plugins/auth';
import { referenceRepo } from './reference.repo';

/** Buyers may read the tags of their own campaigns, deliveries and leads; the rest is the admin's. */
const BUYER_TAG_KINDS = new Set(['match', 'webhook', 'lead']);

/** Reference data for forms: services and tag choices (short lists, answered as bare arrays). */
export const referenceRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db, engine }) => {
  const portalUser = app.requireRole('admin', 'buyer', 'source');
  /** A source's server asks with its API key (DESIGN.md §4), a portal user with the session. */
  const apiKeyOrPortalUser: RoleGuard = Object.assign(
    async function guard(this: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
      const header = request.headers.authorization ?? '';
      const key = /^bearer /i.test(header) ? header.slice(7).trim() : '';
      if (!key.startsWith(API_KEY_PREFIX)) return portalUser.call(this, request, reply);
      try {
        engine.authenticate(key, { direct: false });
      } catch (error) {
        if (!(error instanceof SourceApiError)) throw error;
        throw new AppError(error.status === 401 ? 'unauthenticated' : 'forbidden', error.message);
      }
    },
    { roles: portalUser.roles },
  );

  app.get(
    '/services',
    {
      onRequest: apiKeyOrPortalUser,
      schema: {
        tags: ['reference', 'public'],
        summary: 'The exchange’s services (a source may ask with its API key)',
        security: [{ bearer: [] }],
      },
    },
    () => referenceRepo.serviceNames(db),
  );

  app.get(
    '/tag/:kind',
    {
      onRequest: app.requireRole('admin', 'buyer'),
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
