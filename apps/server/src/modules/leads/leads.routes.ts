import {
  apiResponses,
  csvResponse,
  LEAD_DATE_RANGES,
  leadDetailSchema,
  leadListAnswerSchema,
  leadListQuery,
  leadUpdateSchema,
  leadValuesQuery,
  nameListSchema,
} from '@leadex/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { LeadsService } from './leads.service';

const flag = z
  .enum(['true', 'false'])
  .optional()
  .transform((v) => v === 'true');

const dateq = z.enum(LEAD_DATE_RANGES, { error: 'Date range must be today, last30d, mtd, ytd or range' });
const idParams = z.object({ id: z.string() });

/** /api/lead: the leads lists, their values and export, and one lead, scoped to the caller's role. */
export const leadRoutes: FastifyPluginAsyncZod<{ leads: LeadsService }> = async (app, { leads }) => {
  const anyRole = app.requireRole('admin', 'buyer', 'source');

  app.get(
    '/lead/date/:dateq',
    {
      onRequest: anyRole,
      schema: {
        tags: ['leads'],
        params: z.object({ dateq }),
        querystring: leadListQuery,
        response: apiResponses(leadListAnswerSchema),
      },
    },
    (request) => leads.list(request.viewer(), request.params.dateq, request.query),
  );

  app.get(
    '/lead/date/:dateq/export.csv',
    {
      onRequest: anyRole,
      schema: {
        tags: ['leads'],
        summary: 'The list as CSV, streamed',
        params: z.object({ dateq }),
        querystring: leadListQuery,
        response: csvResponse,
      },
    },
    async (request, reply) => {
      const { fileName, body } = await leads.exportCsv(request.viewer(), request.params.dateq, request.query);
      reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .header('cache-control', 'no-store');
      return reply.send(body);
    },
  );

  app.get(
    '/lead/values/:field',
    {
      onRequest: anyRole,
      schema: {
        tags: ['leads'],
        summary: 'The values present (service or ZIP) over a date range, for the lists’ select filters',
        params: z.object({ field: z.enum(['service', 'zip'], { error: 'Field must be service or zip' }) }),
        querystring: leadValuesQuery,
        response: apiResponses(nameListSchema),
      },
    },
    (request) => leads.values(request.viewer(), request.params.field, request.query.dateq, request.query),
  );

  app.get(
    '/lead/:id',
    {
      onRequest: anyRole,
      schema: {
        tags: ['leads'],
        params: idParams,
        querystring: z.object({ includeMatchLog: flag, includeNotifyLogs: flag }),
        response: apiResponses(leadDetailSchema),
      },
    },
    (request) =>
      leads.get(request.viewer(), request.params.id, {
        includeMatchLog: request.query.includeMatchLog,
        includeNotifyLogs: request.query.includeNotifyLogs,
      }),
  );

  app.put(
    '/lead/:id',
    {
      onRequest: app.requireRole('admin'),
      schema: { tags: ['leads'], params: idParams, body: leadUpdateSchema, response: apiResponses(leadDetailSchema) },
    },
    (request) => leads.update(request.params.id, request.body),
  );
};
