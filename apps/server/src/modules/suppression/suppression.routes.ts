import type { Readable } from 'node:stream';
import {
  apiResponses,
  okSchema,
  optOutCreateSchema,
  optOutSchema,
  SUPPRESSION_LIMITS,
  suppressionCheckResultSchema,
  suppressionEntriesAddSchema,
  suppressionImportResultSchema,
  suppressionListCreateSchema,
  suppressionListSchema,
  suppressionListUpdateSchema,
  suppressionValueSchema,
} from '@leadex/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/errors';
import { created, idParams } from '../../lib/http';
import type { SuppressionService } from './suppression.service';

const tags = ['compliance'];

/**
 * Suppression lists and opt-outs (issue 34 items 1 and 2): the admin keeps the exchange's lists and
 * any buyer's; a buyer its own (another's answers 404). Entries by hand or API (JSON), or by CSV
 * streamed in the request body (`text/csv`).
 */
export const suppressionRoutes: FastifyPluginAsyncZod<{ suppression: SuppressionService }> = async (
  app,
  { suppression },
) => {
  const adminOrBuyer = app.requireRole('admin', 'buyer');
  // The CSV is read as it arrives, never buffered whole (a million rows, DESIGN.md §2 CSV).
  app.addContentTypeParser(['text/csv', 'text/plain', 'application/octet-stream'], (_request, payload, done) =>
    done(null, payload),
  );

  app.get(
    '/suppression/list',
    { onRequest: adminOrBuyer, schema: { tags, response: apiResponses(z.array(suppressionListSchema)) } },
    (request) => suppression.lists(request.viewer()),
  );

  app.post(
    '/suppression/list',
    {
      onRequest: adminOrBuyer,
      schema: { tags, body: suppressionListCreateSchema, response: apiResponses(suppressionListSchema, 201) },
    },
    (request, reply) => created(reply, suppression.create(request.viewer(), request.body)),
  );

  app.get(
    '/suppression/list/:id',
    { onRequest: adminOrBuyer, schema: { tags, params: idParams, response: apiResponses(suppressionListSchema) } },
    (request) => suppression.get(request.viewer(), request.params.id),
  );

  app.put(
    '/suppression/list/:id',
    {
      onRequest: adminOrBuyer,
      schema: {
        tags,
        params: idParams,
        body: suppressionListUpdateSchema,
        response: apiResponses(suppressionListSchema),
      },
    },
    (request) => suppression.update(request.viewer(), request.params.id, request.body),
  );

  app.delete(
    '/suppression/list/:id',
    { onRequest: adminOrBuyer, schema: { tags, params: idParams, response: apiResponses(okSchema) } },
    async (request) => {
      await suppression.remove(request.viewer(), request.params.id);
      return { ok: true };
    },
  );

  app.post(
    '/suppression/list/:id/entries',
    {
      onRequest: adminOrBuyer,
      schema: {
        tags,
        params: idParams,
        body: suppressionEntriesAddSchema,
        response: apiResponses(suppressionImportResultSchema),
      },
    },
    (request) =>
      suppression.addEntries(
        request.viewer(),
        request.params.id,
        request.body,
        // A request with a bearer token is a buyer's system; a session cookie, a person at the screen.
        request.headers.authorization ? 'api' : 'manual',
      ),
  );

  app.post(
    '/suppression/list/:id/upload',
    {
      onRequest: adminOrBuyer,
      bodyLimit: SUPPRESSION_LIMITS.uploadBytes,
      schema: { tags, params: idParams, response: apiResponses(suppressionImportResultSchema) },
    },
    (request) => {
      const body = request.body as Readable | undefined;
      if (!body || typeof (body as Readable).pipe !== 'function')
        throw AppError.field('file', 'Send the CSV as the request body, with Content-Type: text/csv');
      return suppression.importCsv(request.viewer(), request.params.id, body);
    },
  );

  app.post(
    '/suppression/list/:id/remove',
    {
      onRequest: adminOrBuyer,
      schema: { tags, params: idParams, body: suppressionValueSchema, response: apiResponses(okSchema) },
    },
    async (request) => {
      await suppression.removeEntry(request.viewer(), request.params.id, request.body.value);
      return { ok: true };
    },
  );

  app.post(
    '/suppression/list/:id/lookup',
    {
      onRequest: adminOrBuyer,
      schema: {
        tags,
        params: idParams,
        body: suppressionValueSchema,
        response: apiResponses(suppressionCheckResultSchema),
      },
    },
    (request) => suppression.lookup(request.viewer(), request.params.id, request.body.value),
  );

  app.get(
    '/opt-out',
    { onRequest: adminOrBuyer, schema: { tags, response: apiResponses(z.array(optOutSchema)) } },
    (request) => suppression.optOuts(request.viewer()),
  );

  app.post(
    '/opt-out',
    {
      onRequest: adminOrBuyer,
      schema: { tags, body: optOutCreateSchema, response: apiResponses(z.array(optOutSchema), 201) },
    },
    (request, reply) => created(reply, suppression.recordOptOut(request.viewer(), request.body)),
  );
};
