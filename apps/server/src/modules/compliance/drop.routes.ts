import type { Readable } from 'node:stream';
import {
  apiResponses,
  dropDirectorySchema,
  dropRunSchema,
  dropRunsQuery,
  dropStatusSchema,
  dropUploadQuery,
} from '@leadex/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../lib/errors';
import { pagedListRoute } from '../../lib/http';
import type { DropService } from './drop.service';

/** A deletion list is one hash a line or so: 100 MB holds over a million. */
const UPLOAD_BYTES = 200 * 1024 * 1024;
const tags = ['compliance'];

/**
 * /api/compliance/deletion-lists, the admin's only (issue 35 item 3): California's deletion lists
 * uploaded (streamed in the body) or read by the daily job from a directory; their runs and the warning
 * once 45 days pass without one.
 */
export const dropRoutes: FastifyPluginAsyncZod<{ drop: DropService }> = async (app, { drop }) => {
  const admin = app.requireRole('admin');
  // The file is read as it arrives, never buffered whole.
  app.addContentTypeParser(['text/csv', 'text/plain', 'application/octet-stream'], (_request, payload, done) =>
    done(null, payload),
  );

  pagedListRoute(
    app,
    '/compliance/deletion-lists',
    {
      onRequest: admin,
      tags,
      summary: 'The deletion lists’ runs, newest first: when, file, entries, matched, erased, refused since',
      querystring: dropRunsQuery,
      item: dropRunSchema,
    },
    (query) => drop.list(query),
  );

  app.get(
    '/compliance/deletion-lists/status',
    {
      onRequest: admin,
      schema: {
        tags,
        summary: 'The last run, the directory read daily, and the warning once 45 days pass without a run',
        response: apiResponses(dropStatusSchema),
      },
    },
    () => drop.status(),
  );

  app.put(
    '/compliance/deletion-lists/directory',
    {
      onRequest: admin,
      schema: {
        tags,
        summary: 'The server directory the daily job reads deletion lists from (null: none)',
        body: dropDirectorySchema,
        response: apiResponses(dropDirectorySchema),
      },
    },
    (request) => drop.setDirectory(request.body.directory),
  );

  app.post(
    '/compliance/deletion-lists/upload',
    {
      onRequest: admin,
      bodyLimit: UPLOAD_BYTES,
      schema: {
        tags,
        summary: 'Runs a deletion list: SHA-256 hashes as CSV in the body (Content-Type: text/csv); answers the run',
        querystring: dropUploadQuery,
        response: apiResponses(dropRunSchema),
      },
    },
    (request) => {
      const body = request.body as Readable | undefined;
      if (!body || typeof body.pipe !== 'function')
        throw AppError.field('file', 'Send the list as the request body, with Content-Type: text/csv');
      return drop.upload(request.viewer(), request.query.file, body);
    },
  );
};
