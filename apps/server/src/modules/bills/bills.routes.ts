import { apiResponses, billListQuery, billSchema, billSummarySchema } from '@leadex/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { pagedListRoute } from '../../lib/http';
import type { BillsService } from './bills.service';

const buyerParams = z.object({ buyerId: z.string() });
const billParams = z.object({ id: z.string() });

/** /api/bill: bills, for the admin and for their buyer only (another buyer's answer 404). */
export const billRoutes: FastifyPluginAsyncZod<{ bills: BillsService }> = async (app, { bills }) => {
  const admin = app.requireRole('admin');
  const adminOrBuyer = app.requireRole('admin', 'buyer');

  pagedListRoute(
    app,
    '/bill/date/all',
    { onRequest: admin, tags: ['bills'], querystring: billListQuery, item: billSummarySchema },
    (query) => bills.list(query),
  );

  app.get(
    '/bill/buyer/:buyerId',
    {
      onRequest: adminOrBuyer,
      schema: { tags: ['bills'], params: buyerParams, response: apiResponses(z.array(billSummarySchema)) },
    },
    (request) => bills.listForBuyer(request.viewer(), request.params.buyerId),
  );

  app.get(
    '/bill/buyer/:buyerId/current',
    { onRequest: adminOrBuyer, schema: { tags: ['bills'], params: buyerParams, response: apiResponses(billSchema) } },
    (request) => bills.current(request.viewer(), request.params.buyerId),
  );

  app.get(
    '/bill/:id',
    { onRequest: adminOrBuyer, schema: { tags: ['bills'], params: billParams, response: apiResponses(billSchema) } },
    (request) => bills.get(request.viewer(), request.params.id),
  );

  // The body is checked by the service, so a bad amount answers with the field's own message.
  app.put(
    '/bill/:id',
    { onRequest: admin, schema: { tags: ['bills'], params: billParams, response: apiResponses(billSchema) } },
    (request) => bills.adjust(request.params.id, request.body),
  );
};
