import {
  apiKeyCreateSchema,
  apiKeyHoldSchema,
  sourceApproveSchema,
  sourceCreateSchema,
  sourceGetQuery,
  sourceHoldSchema,
  sourceListQuery,
  sourceUpdateSchema,
  sourceUserSchema,
} from '@leadex/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { created, idParams, userParams } from '../../lib/http';
import type { SourcesService } from './sources.service';

const tags = ['sources'];

/** /api/source: sources, their channels, API keys and users (admin spec §7 Sources). */
export const sourceRoutes: FastifyPluginAsyncZod<{ sources: SourcesService }> = async (app, { sources }) => {
  const admin = app.requireRole('admin');

  app.get('/source', { onRequest: admin, schema: { tags, querystring: sourceListQuery } }, (request) =>
    sources.list(request.query),
  );

  app.get(
    '/source/:id',
    {
      onRequest: app.requireRole('admin', 'source'),
      schema: { tags, params: idParams, querystring: sourceGetQuery },
    },
    (request) => sources.get(request.viewer(), request.params.id, request.query.include),
  );

  app.post('/source', { onRequest: admin, schema: { tags, body: sourceCreateSchema } }, (request, reply) =>
    created(reply, sources.create(request.body)),
  );

  app.put(
    '/source/:id',
    { onRequest: admin, schema: { tags, params: idParams, body: sourceUpdateSchema } },
    (request) => sources.update(request.params.id, request.body),
  );

  app.put(
    '/source/:id/hold',
    { onRequest: admin, schema: { tags, params: idParams, body: sourceHoldSchema } },
    (request) => sources.hold(request.params.id, request.body?.reason),
  );

  app.put('/source/:id/unhold', { onRequest: admin, schema: { tags, params: idParams } }, (request) =>
    sources.unhold(request.params.id),
  );

  app.put(
    '/source/:id/approve',
    { onRequest: admin, schema: { tags, params: idParams, body: sourceApproveSchema } },
    (request) => sources.approve(request.params.id, request.body ?? {}),
  );

  app.put(
    '/source/:id/apikey/new',
    { onRequest: admin, schema: { tags, params: idParams, body: apiKeyCreateSchema } },
    (request) => sources.newApiKey(request.params.id, request.body ?? {}),
  );

  app.put(
    '/source/:id/apikey/hold',
    { onRequest: admin, schema: { tags, params: idParams, body: apiKeyHoldSchema } },
    (request) => sources.holdApiKey(request.params.id, request.body.name),
  );

  app.post(
    '/source/:id/user',
    { onRequest: admin, schema: { tags, params: idParams, body: sourceUserSchema } },
    (request, reply) => created(reply, sources.addUser(request.params.id, request.body)),
  );

  app.put(
    '/source/:id/user/:userId',
    { onRequest: admin, schema: { tags, params: userParams, body: sourceUserSchema } },
    (request) => sources.updateUser(request.params.id, request.params.userId, request.body),
  );

  app.put('/source/:id/welcome/:userId', { onRequest: admin, schema: { tags, params: userParams } }, (request) =>
    sources.sendWelcome(request.params.id, request.params.userId),
  );

  app.put('/source/:id/hold/:userId', { onRequest: admin, schema: { tags, params: userParams } }, (request) =>
    sources.lockUser(request.params.id, request.params.userId),
  );

  app.put('/source/:id/unhold/:userId', { onRequest: admin, schema: { tags, params: userParams } }, (request) =>
    sources.unlockUser(request.params.id, request.params.userId),
  );
};
