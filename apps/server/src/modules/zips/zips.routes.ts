import {
  apiResponses,
  zipSearchQuery,
  zipSearchResultSchema,
  zipSuggestionSchema,
  zipSuggestionsQuery,
  zipsetCreateSchema,
  zipsetListQuery,
  zipsetSchema,
} from '@leadex/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { created } from '../../lib/http';
import type { ZipsService } from './zips.service';

const tags = ['reference'];

/** ZIP reference data and regions (admin §7 Reference data): the campaign Location's region builder. */
export const zipRoutes: FastifyPluginAsyncZod<{ zips: ZipsService }> = async (app, { zips }) => {
  const adminOrBuyer = app.requireRole('admin', 'buyer');

  app.get(
    '/zip/suggestions',
    {
      onRequest: adminOrBuyer,
      schema: { tags, querystring: zipSuggestionsQuery, response: apiResponses(z.array(zipSuggestionSchema)) },
    },
    (request) => zips.suggestions(request.query.q),
  );

  app.get(
    '/zip/search',
    {
      onRequest: adminOrBuyer,
      schema: { tags, querystring: zipSearchQuery, response: apiResponses(z.array(zipSearchResultSchema)) },
    },
    (request) => zips.search(request.query),
  );

  app.get(
    '/zipset',
    {
      onRequest: adminOrBuyer,
      schema: { tags, querystring: zipsetListQuery, response: apiResponses(z.array(zipsetSchema)) },
    },
    (request) => zips.list(request.viewer(), request.query),
  );

  app.get(
    '/zipset/:id',
    {
      onRequest: adminOrBuyer,
      schema: { tags, params: z.object({ id: z.string() }), response: apiResponses(zipsetSchema) },
    },
    (request) => zips.get(request.viewer(), request.params.id),
  );

  app.post(
    '/zipset',
    { onRequest: adminOrBuyer, schema: { tags, body: zipsetCreateSchema, response: apiResponses(zipsetSchema, 201) } },
    (request, reply) => created(reply, zips.create(request.viewer(), request.body)),
  );
};
