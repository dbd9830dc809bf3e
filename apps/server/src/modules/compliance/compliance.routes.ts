import {
  apiResponses,
  complianceServiceSchema,
  evidenceDownloadQuery,
  evidenceRetentionSchema,
  fileResponses,
  leadComplianceSchema,
  legalHoldSchema,
  sealedEvidenceSchema,
  sealedReadQuery,
} from '@leadex/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ComplianceService } from './compliance.service';

const idParams = z.object({ id: z.string() });
const evidenceAnswer = z.object({ evidence: leadComplianceSchema.shape.evidence });

/**
 * A lead's consent evidence and calling window (issue 34 items 3 and 5): its buyers and the admin read
 * and download them; another buyer or a source gets 404. No route changes evidence: the admin's legal
 * hold is kept beside it, and the retention is a setting.
 */
export const complianceRoutes: FastifyPluginAsyncZod<{ compliance: ComplianceService }> = async (
  app,
  { compliance },
) => {
  const adminOrBuyer = app.requireRole('admin', 'buyer');
  const admin = app.requireRole('admin');
  const signedIn = app.requireRole('admin', 'buyer', 'source');

  app.get(
    '/lead/:id/compliance',
    {
      onRequest: adminOrBuyer,
      schema: {
        tags: ['leads'],
        summary: 'The lead’s consent evidence and the consumer’s calling window',
        params: idParams,
        response: apiResponses(leadComplianceSchema),
      },
    },
    (request) => compliance.compliance(request.viewer(), request.params.id),
  );

  for (const format of ['json', 'pdf'] as const)
    app.get(
      `/lead/:id/consent-evidence.${format}`,
      {
        onRequest: adminOrBuyer,
        schema: {
          tags: ['leads'],
          summary: `The lead’s consent evidence as ${format.toUpperCase()}`,
          params: idParams,
          querystring: evidenceDownloadQuery,
          response: fileResponses(
            format === 'json' ? 'application/json' : 'application/pdf',
            'The record, its canonical text and its SHA-256',
          ),
        },
      },
      async (request, reply) => {
        const { id } = request.params;
        const file = await compliance.evidenceFile(request.viewer(), id, format, request.query.reason);
        reply
          .type(file.type)
          .header('content-disposition', `attachment; filename="${file.fileName}"`)
          .header('cache-control', 'no-store');
        return reply.send(file.body);
      },
    );

  app.get(
    '/lead/:id/sealed-evidence',
    {
      // Every role may ask; anyone but the admin is answered 404, as for a record that does not exist.
      onRequest: signedIn,
      schema: {
        tags: ['leads'],
        summary: 'An erased lead’s sealed consent evidence: the admin reads it with a reason, and the read is logged',
        params: idParams,
        querystring: sealedReadQuery,
        response: apiResponses(sealedEvidenceSchema),
      },
    },
    (request) => compliance.readSealed(request.viewer(), request.params.id, request.query.reason),
  );

  app.put(
    '/lead/:id/legal-hold',
    {
      onRequest: admin,
      schema: {
        tags: ['leads'],
        summary: 'Keeps the lead’s consent evidence past its retention until the hold is lifted',
        params: idParams,
        body: legalHoldSchema,
        response: apiResponses(evidenceAnswer),
      },
    },
    (request) => compliance.setHold(request.params.id, request.body, request.viewer()),
  );

  app.delete(
    '/lead/:id/legal-hold',
    {
      onRequest: admin,
      schema: {
        tags: ['leads'],
        summary: 'Lifts the legal hold',
        params: idParams,
        response: apiResponses(evidenceAnswer),
      },
    },
    (request) => compliance.setHold(request.params.id, null, request.viewer()),
  );

  app.get(
    '/compliance/services',
    {
      onRequest: admin,
      schema: {
        tags: ['settings'],
        summary: 'The services, each with its Medicare flag',
        response: apiResponses(z.array(complianceServiceSchema)),
      },
    },
    () => compliance.services(),
  );

  app.put(
    '/compliance/services/:name',
    {
      onRequest: admin,
      schema: {
        tags: ['settings'],
        summary: 'Marks a service Medicare (every campaign buys its leads only with consent naming the buyer), or not',
        params: z.object({ name: z.string() }),
        body: complianceServiceSchema.pick({ medicare: true }),
        response: apiResponses(complianceServiceSchema),
      },
    },
    (request) => compliance.setMedicare(request.params.name, request.body.medicare),
  );

  app.get(
    '/compliance/evidence-retention',
    {
      onRequest: admin,
      schema: {
        tags: ['settings'],
        summary: 'How many years consent evidence is kept',
        response: apiResponses(evidenceRetentionSchema),
      },
    },
    () => compliance.retention(),
  );

  app.put(
    '/compliance/evidence-retention',
    {
      onRequest: admin,
      schema: {
        tags: ['settings'],
        summary: 'Sets how many years consent evidence is kept (6 by default)',
        body: evidenceRetentionSchema,
        response: apiResponses(evidenceRetentionSchema),
      },
    },
    (request) => compliance.setRetention(request.body.years),
  );
};
