import {
  apiResponses,
  buyerCreateSchema,
  buyerGetQuery,
  buyerLegalNamesSchema,
  buyerListItemSchema,
  buyerListQuery,
  buyerPauseResultSchema,
  buyerPauseSchema,
  buyerSchema,
  buyerUpdateSchema,
  buyerUserAnswerSchema,
  buyerUserSchema,
} from '@leadex/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { created, idParams, pagedListRoute, userParams } from '../../lib/http';
import type { BuyersService } from './buyers.service';

/** /api/buyer: the reference module (routes -> service -> repo) that later modules copy. */
export const buyerRoutes: FastifyPluginAsyncZod<{ buyers: BuyersService }> = async (app, { buyers }) => {
  const admin = app.requireRole('admin');
  const userAnswer = apiResponses(buyerUserAnswerSchema);

  pagedListRoute(
    app,
    '/buyer',
    { onRequest: admin, tags: ['buyers'], querystring: buyerListQuery, item: buyerListItemSchema },
    (query) => buyers.list(query),
  );

  app.get(
    '/buyer/:id',
    {
      onRequest: app.requireRole('admin', 'buyer'),
      schema: { tags: ['buyers'], params: idParams, querystring: buyerGetQuery, response: apiResponses(buyerSchema) },
    },
    (request) => buyers.get(request.viewer(), request.params.id, request.query.include),
  );

  app.post(
    '/buyer',
    {
      onRequest: admin,
      schema: { tags: ['buyers'], body: buyerCreateSchema, response: apiResponses(buyerSchema, 201) },
    },
    (request, reply) => created(reply, buyers.create(request.body)),
  );

  app.put(
    '/buyer/:id',
    {
      onRequest: admin,
      schema: { tags: ['buyers'], params: idParams, body: buyerUpdateSchema, response: apiResponses(buyerSchema) },
    },
    (request) => buyers.update(request.params.id, request.body),
  );

  app.put(
    '/buyer/:id/legal-names',
    {
      onRequest: app.requireRole('admin', 'buyer'),
      schema: {
        tags: ['buyers'],
        summary: 'The company’s legal names, as a consumer’s consent must name it (named-consent campaigns)',
        params: idParams,
        body: buyerLegalNamesSchema,
        response: apiResponses(buyerSchema),
      },
    },
    (request) => buyers.setLegalNames(request.viewer(), request.params.id, request.body.legal_names),
  );

  app.put(
    '/buyer/:id/pause',
    {
      onRequest: admin,
      schema: {
        tags: ['buyers'],
        params: idParams,
        body: buyerPauseSchema,
        response: apiResponses(buyerPauseResultSchema),
      },
    },
    (request) => buyers.pause(request.params.id, request.body.reason, request.viewer().userId),
  );

  app.post(
    '/buyer/:id/user',
    {
      onRequest: admin,
      schema: {
        tags: ['buyers'],
        params: idParams,
        body: buyerUserSchema,
        response: apiResponses(buyerUserAnswerSchema, 201),
      },
    },
    (request, reply) => created(reply, buyers.addUser(request.params.id, request.body)),
  );

  app.put(
    '/buyer/:id/user/:userId',
    { onRequest: admin, schema: { tags: ['buyers'], params: userParams, body: buyerUserSchema, response: userAnswer } },
    (request) => buyers.updateUser(request.params.id, request.params.userId, request.body),
  );

  app.put(
    '/buyer/:id/welcome/:userId',
    { onRequest: admin, schema: { tags: ['buyers'], params: userParams, response: userAnswer } },
    (request) => buyers.sendWelcome(request.params.id, request.params.userId),
  );

  app.put(
    '/buyer/:id/hold/:userId',
    { onRequest: admin, schema: { tags: ['buyers'], params: userParams, response: userAnswer } },
    (request) => buyers.lockUser(request.params.id, request.params.userId),
  );

  app.put(
    '/buyer/:id/unhold/:userId',
    { onRequest: admin, schema: { tags: ['buyers'], params: userParams, response: userAnswer } },
    (request) => buyers.unlockUser(request.params.id, request.params.userId),
  );
};
