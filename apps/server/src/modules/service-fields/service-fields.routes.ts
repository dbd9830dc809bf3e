import {
  allServiceFieldsAnswerSchema,
  apiResponses,
  serviceFieldListSchema,
  serviceFieldsAnswerSchema,
} from '@leadex/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ServiceFieldsService } from './service-fields.service';

const serviceParams = z.object({ service: z.string().trim().toLowerCase().min(1).max(100) });

/** The services' own fields (issue 33 item 1): read by every portal user, defined by the admin. */
export const serviceFieldRoutes: FastifyPluginAsyncZod<{ serviceFields: ServiceFieldsService }> = async (
  app,
  { serviceFields },
) => {
  const portalUser = app.requireRole('admin', 'buyer', 'source');
  const admin = app.requireRole('admin');

  app.get(
    '/services/fields',
    {
      onRequest: portalUser,
      schema: {
        tags: ['reference'],
        summary: 'Every service’s own fields, in their order (removed ones included, flagged)',
        response: apiResponses(allServiceFieldsAnswerSchema),
      },
    },
    () => serviceFields.all(),
  );

  app.get(
    '/services/:service/fields',
    {
      onRequest: portalUser,
      schema: {
        tags: ['reference'],
        summary: 'A service’s own fields, in their order',
        params: serviceParams,
        response: apiResponses(serviceFieldsAnswerSchema),
      },
    },
    (request) => serviceFields.ofService(request.params.service),
  );

  app.put(
    '/services/:service/fields',
    {
      onRequest: admin,
      schema: {
        tags: ['settings'],
        summary: 'Replace a service’s fields (a field left out is kept, removed)',
        params: serviceParams,
        body: serviceFieldListSchema,
        response: apiResponses(serviceFieldsAnswerSchema),
      },
    },
    (request) => serviceFields.replace(request.params.service, request.body),
  );
};
