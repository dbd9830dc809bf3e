import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../deps';

const buyerParams = z.object({ buyerId: z.string() });

/** /api/bill: a buyer's bills, for the admin and for that buyer only (another buyer's answer 404). */
export const billRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { services }) => {
  const { bills } = services;
  const adminOrBuyer = app.requireRole('admin', 'buyer');

  app.get(
    '/bill/buyer/:buyerId',
    { onRequest: adminOrBuyer, schema: { tags: ['bills'], params: buyerParams } },
    (request) => bills.listForBuyer(request.viewer(), request.params.buyerId),
  );

  app.get(
    '/bill/buyer/:buyerId/current',
    { onRequest: adminOrBuyer, schema: { tags: ['bills'], params: buyerParams } },
    (request) => bills.current(request.viewer(), request.params.buyerId),
  );
};
