import { zipSearchQuery, zipSuggestionsQuery, zipsetCreateSchema, zipsetListQuery } from '@leadex/domain';
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
    { onRequest: adminOrBuyer, schema: { tags, querystring: zipSuggestionsQuery } },
    (request) => zips.suggestions(request.query.q),
  );

  app.get('/zip/search', { onRequest: adminOrBuyer, schema: { tags, querystring: zipSearchQuery } }, (request) =>
    zips.search(request.query),
  );

  app.get('/zipset', { onRequest: adminOrBuyer, schema: { tags, querystring: zipsetListQuery } }, (request) =>
    zips.list(request.viewer(), request.query),
  );

  app.get(
    '/zipset/:id',
    { onRequest: adminOrBuyer, schema: { tags, params: z.object({ id: z.string() }) } },
    (request) => zips.get(request.viewer(), request.params.id),
  );

  app.post('/zipset', { onRequest: adminOrBuyer, schema: { tags, body: zipsetCreateSchema } }, (request, reply) =>
    created(reply, zips.create(request.viewer(), request.body)),
  );
};
