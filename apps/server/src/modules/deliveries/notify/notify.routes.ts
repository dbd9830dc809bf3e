import formBody from '@fastify/formbody';
import { apiResponses, resendAnswerSchema } from '@leadex/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import twilio from 'twilio';
import { z } from 'zod';
import type { Config } from '../../../config';
import { AppError } from '../../../lib/errors';
import type { NotifyResends } from './notify';

/** Resending a match's failed notify channels (admin) and Twilio's SMS status callback. */
export const notifyRoutes: FastifyPluginAsyncZod<{
  jobs: NotifyResends;
  config: Pick<Config, 'PUBLIC_URL' | 'TWILIO_ACCOUNT_SID' | 'TWILIO_AUTH_TOKEN'>;
}> = async (app, { jobs, config }) => {
  await app.register(formBody);

  app.post(
    '/lead/:id/match/:matchId/resend',
    {
      onRequest: app.requireRole('admin'),
      schema: {
        tags: ['leads'],
        params: z.object({ id: z.string(), matchId: z.string() }),
        response: apiResponses(resendAnswerSchema),
      },
    },
    (request) => jobs.resend(request.params.id, request.params.matchId),
  );

  app.post(
    '/twilio/status',
    {
      schema: {
        hide: true,
        response: { 204: z.void().describe('No content') },
        body: z.object({ MessageSid: z.string().min(1), MessageStatus: z.string().min(1) }).passthrough(),
      },
    },
    async (request, reply) => {
      const token = config.TWILIO_AUTH_TOKEN;
      if (!token || !config.TWILIO_ACCOUNT_SID) throw AppError.notFound('Route');
      // Only Twilio knows the auth token it signs its callbacks with.
      const signature = String(request.headers['x-twilio-signature'] ?? '');
      const url = `${config.PUBLIC_URL}/api/twilio/status`;
      if (!twilio.validateRequest(token, signature, url, request.body as Record<string, string>))
        throw new AppError('forbidden', 'Invalid Twilio signature');
      await jobs.smsStatus(request.body.MessageSid, request.body.MessageStatus);
      return reply.code(204).send();
    },
  );
};
