import {
  apiKeyCreateSchema,
  apiKeyHoldSchema,
  apiResponses,
  sourceApiKeySchema,
  sourceApproveSchema,
  sourceCreateSchema,
  sourceGetQuery,
  sourceHoldSchema,
  sourceListItemSchema,
  sourceListQuery,
  sourceSchema,
  sourceUpdateSchema,
  sourceUserAnswerSchema,
  sourceUserSchema,
} from '@leadex/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { created, idParams, pagedListRoute, userParams } from '../../lib/http';
import type { SourcesService } from './sources.service';

const tags = ['sources'];
const sourceAnswer = apiResponses(sourceSchema);
const apiKeyAnswer = apiResponses(sourceApiKeySchema);
const userAnswer = apiResponses(sourceUserAnswerSchema);

/** /api/source: sources, their channels, API keys and users (admin spec §7 Sources). */
export const sourceRoutes: FastifyPluginAsyncZod<{ sources: SourcesService }> = async (app, { sources }) => {
  const admin = app.requireRole('admin');

  pagedListRoute(
    app,
    '/source',
    { onRequest: admin, tags, querystring: sourceListQuery, item: sourceListItemSchema },
    (query) => sources.list(query),
  );

  app.get(
    '/source/:id',
    {
      onRequest: app.requireRole('admin', 'source'),
      schema: { tags, params: idParams, querystring: sourceGetQuery, response: sourceAnswer },
    },
    (request) => sources.get(request.viewer(), request.params.id, request.query.include),
  );

  app.post(
    '/source',
    { onRequest: admin, schema: { tags, body: sourceCreateSchema, response: apiResponses(sourceSchema, 201) } },
    (request, reply) => created(reply, sources.create(request.body)),
  );

  app.put(
    '/source/:id',
    { onRequest: admin, schema: { tags, params: idParams, body: sourceUpdateSchema, response: sourceAnswer } },
    (request) => sources.update(request.params.id, request.body),
  );

  app.put(
    '/source/:id/hold',
    { onRequest: admin, schema: { tags, params: idParams, body: sourceHoldSchema, response: sourceAnswer } },
    (request) => sources.hold(request.params.id, request.body?.reason),
  );

  app.put(
    '/source/:id/unhold',
    { onRequest: admin, schema: { tags, params: idParams, response: sourceAnswer } },
    (request) => sources.unhold(request.params.id),
  );

  app.put(
    '/source/:id/approve',
    { onRequest: admin, schema: { tags, params: idParams, body: sourceApproveSchema, response: sourceAnswer } },
    (request) => sources.approve(request.params.id, request.body ?? {}),
  );

  app.put(
    '/source/:id/apikey/new',
    { onRequest: admin, schema: { tags, params: idParams, body: apiKeyCreateSchema, response: apiKeyAnswer } },
    (request) => sources.newApiKey(request.params.id, request.body ?? {}),
  );

  app.put(
    '/source/:id/apikey/hold',
    { onRequest: admin, schema: { tags, params: idParams, body: apiKeyHoldSchema, response: apiKeyAnswer } },
    (request) => sources.holdApiKey(request.params.id, request.body.name),
  );

  app.post(
    '/source/:id/user',
    {
      onRequest: admin,
      schema: { tags, params: idParams, body: sourceUserSchema, response: apiResponses(sourceUserAnswerSchema, 201) },
    },
    (request, reply) => created(reply, sources.addUser(request.params.id, request.body)),
  );

  app.put(
    '/source/:id/user/:userId',
    { onRequest: admin, schema: { tags, params: userParams, body: sourceUserSchema, response: userAnswer } },
    (request) => sources.updateUser(request.params.id, request.params.userId, request.body),
  );

  app.put(
    '/source/:id/welcome/:userId',
    { onRequest: admin, schema: { tags, params: userParams, response: userAnswer } },
    (request) => sources.sendWelcome(request.params.id, request.params.userId),
  );

  app.put(
    '/source/:id/hold/:userId',
    { onRequest: admin, schema: { tags, params: userParams, response: userAnswer } },
    (request) => sources.lockUser(request.params.id, request.params.userId),
  );

  app.put(
    '/source/:id/unhold/:userId',
    { onRequest: admin, schema: { tags, params: userParams, response: userAnswer } },
    (request) => sources.unlockUser(request.params.id, request.params.userId),
  );
};
