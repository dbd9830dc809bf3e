import {
  accessLogEntrySchema,
  accessLogFilterSchema,
  accessLogQuery,
  apiResponses,
  csvResponse,
  pageSchema,
} from '@leadex/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AccessLogService } from './access-log.service';

/** /api/compliance: the access log (issue 35 item 5), the admin's only; no route changes or deletes an entry. */
export const complianceRoutes: FastifyPluginAsyncZod<{ accessLog: AccessLogService }> = async (app, { accessLog }) => {
  const admin = app.requireRole('admin');

  app.get(
    '/compliance/access-log',
    {
      onRequest: admin,
      schema: {
        tags: ['compliance'],
        summary: 'Who saw what: views, lists and exports of leads’ personal data, erasures; newest first',
        querystring: accessLogQuery,
        response: apiResponses(pageSchema(accessLogEntrySchema)),
      },
    },
    (request) => accessLog.list(request.query),
  );

  app.get(
    '/compliance/access-log/export.csv',
    {
      onRequest: admin,
      schema: {
        tags: ['compliance'],
        summary: 'The access log as CSV, streamed',
        querystring: accessLogFilterSchema,
        response: csvResponse,
      },
    },
    (request, reply) => {
      const { fileName, body } = accessLog.exportCsv(request.query);
      reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .header('cache-control', 'no-store');
      return reply.send(body);
    },
  );
};
