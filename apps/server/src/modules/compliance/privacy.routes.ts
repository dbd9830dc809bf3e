import {
  accessLogEntrySchema,
  accessLogFilterSchema,
  accessLogQuery,
  apiResponses,
  csvResponse,
  erasureContactSchema,
  erasureListQuery,
  erasurePreviewSchema,
  erasureRecordSchema,
  erasureRequestSchema,
  retentionSchema,
} from '@leadex/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { pagedListRoute } from '../../lib/http';
import type { AccessLogService } from './access-log.service';
import type { ErasureService } from './erasure.service';

/**
 * /api/compliance, the admin's only (issue 35): erasure on request with its preview and records, the
 * retention setting, and the access log, which no route changes or deletes.
 */
export const privacyRoutes: FastifyPluginAsyncZod<{ accessLog: AccessLogService; erasure: ErasureService }> = async (
  app,
  { accessLog, erasure },
) => {
  const admin = app.requireRole('admin');

  app.post(
    '/compliance/erasure/search',
    {
      onRequest: admin,
      schema: {
        tags: ['compliance'],
        summary: 'Every lead and row an erasure of this email or phone would overwrite, and the buyers it would tell',
        body: erasureContactSchema,
        response: apiResponses(erasurePreviewSchema),
      },
    },
    (request) => erasure.preview(request.viewer(), request.body),
  );

  app.post(
    '/compliance/erasure',
    {
      onRequest: admin,
      schema: {
        tags: ['compliance'],
        summary: 'Erases a person (an email or a phone) everywhere in one step; answers the request record',
        body: erasureRequestSchema,
        response: apiResponses(erasureRecordSchema),
      },
    },
    (request) => erasure.erase(request.viewer(), request.body),
  );

  pagedListRoute(
    app,
    '/compliance/erasures',
    {
      onRequest: admin,
      tags: ['compliance'],
      summary: 'The erasure request records, newest first (kept 24 months at least)',
      querystring: erasureListQuery,
      item: erasureRecordSchema,
    },
    (query) => erasure.list(query),
  );

  app.get(
    '/compliance/retention',
    { onRequest: admin, schema: { tags: ['compliance'], response: apiResponses(retentionSchema) } },
    () => erasure.retention(),
  );

  app.put(
    '/compliance/retention',
    {
      onRequest: admin,
      schema: {
        tags: ['compliance'],
        summary: 'Days after which leads’ personal fields are erased by the daily job; null: off',
        body: retentionSchema,
        response: apiResponses(retentionSchema),
      },
    },
    (request) => erasure.setRetention(request.body),
  );

  pagedListRoute(
    app,
    '/compliance/access-log',
    {
      onRequest: admin,
      tags: ['compliance'],
      summary: 'Who saw what: views, lists and exports of leads’ personal data, erasures; newest first',
      querystring: accessLogQuery,
      item: accessLogEntrySchema,
    },
    (query) => accessLog.list(query),
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
