import { apiResponses, nameListSchema, serviceLabelsSchema, TAG_KINDS } from '@leadex/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Engine } from '../../distribution/engine';
import { API_KEY_PREFIX } from '../../lib/api-keys';
import type { RoleGuard } from '../../plugins/auth';
import type { ReferenceService } from './reference.service';

/** Reference data for forms: services and tag choices (short lists, answered as bare arrays). */
export const referenceRoutes: FastifyPluginAsyncZod<{
  engine: Pick<Engine, 'authenticate'>;
  reference: ReferenceService;
}> = async (app, { engine, reference }) => {
  const portalUser = app.requireRole('admin', 'buyer', 'source');
  /** A source's server asks with its API key (DESIGN.md §4), a portal user with the session. */
  const apiKeyOrPortalUser: RoleGuard = Object.assign(
    async function guard(this: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
      const header = request.headers.authorization ?? '';
      const key = /^bearer /i.test(header) ? header.slice(7).trim() : '';
      if (!key.startsWith(API_KEY_PREFIX)) return portalUser.call(this, request, reply);
      engine.authenticate(key, { direct: false });
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
        response: apiResponses(nameListSchema),
      },
    },
    () => reference.serviceNames(),
  );

  app.get(
    '/services/labels',
    {
      onRequest: portalUser,
      schema: {
        tags: ['reference'],
        summary: 'Each service’s key and the label the screens show for it',
        response: apiResponses(serviceLabelsSchema),
      },
    },
    () => reference.serviceLabels(),
  );

  app.get(
    '/tag/:kind',
    {
      onRequest: app.requireRole('admin', 'buyer'),
      schema: {
        tags: ['reference'],
        params: z.object({ kind: z.enum(TAG_KINDS, { error: 'Unknown tag kind' }) }),
        response: apiResponses(nameListSchema),
      },
    },
    (request) => reference.tags(request.viewer(), request.params.kind),
  );
};
