import { Readable } from 'node:stream';
import {
  apiResponses,
  billingRunAnswerSchema,
  fileResponses,
  okSchema,
  simBillingQuery,
  simLeadSchema,
  simLeadsSchema,
  simMockDateAnswerSchema,
  simMockDateSchema,
  simPingPostSchema,
  simTestAnswerSchema,
  simWhitelistAnswerSchema,
  simWhitelistSchema,
  systemInfoSchema,
} from '@leadex/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Config } from '../../config';
import { type Clock, toEpochSeconds } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import type { BillsService } from '../bills/bills.service';
import type { MockDate } from './mock-date';
import type { SimService } from './sim.service';

/**
 * The simulator's calls (admin spec §7): a ping-post or a direct lead through the real engine, as a
 * chosen source, answered with every campaign considered. Only outside production.
 */
export const simRoutes: FastifyPluginAsyncZod<{
  sim: SimService;
  bills: Pick<BillsService, 'run'>;
  mockDate: MockDate | null;
  clock: Clock;
  config: Pick<Config, 'NODE_ENV' | 'DATABASE_URL'>;
}> = async (app, { sim, bills, mockDate, clock, config }) => {
  const admin = app.requireRole('admin');
  const simTest = apiResponses(simTestAnswerSchema);
  const whitelistAnswer = apiResponses(simWhitelistAnswerSchema);

  app.post(
    '/sim/pingpost',
    { onRequest: admin, schema: { tags: ['sim'], body: simPingPostSchema, response: simTest } },
    async (request) => sim.pingPost(request.body),
  );

  app.post(
    '/sim/lead',
    { onRequest: admin, schema: { tags: ['sim'], body: simLeadSchema, response: simTest } },
    async (request) => sim.directLead(request.body),
  );

  // The billing run now (admin spec §7: POST /sim/billing), at the injected clock's time; it pays the
  // closed bills only when asked (doPayments=true).
  app.post(
    '/sim/billing',
    {
      onRequest: admin,
      schema: { tags: ['sim'], querystring: simBillingQuery, response: apiResponses(billingRunAnswerSchema) },
    },
    async (request) => ({ ok: true, ...(await bills.run({ doPayments: request.query.doPayments })) }),
  );

  // The mock date (admin spec §7: POST /sim/mockDate, a date or reset), shared by every process.
  app.post(
    '/sim/mockDate',
    { onRequest: admin, schema: { tags: ['sim'], response: apiResponses(simMockDateAnswerSchema) } },
    async (request) => {
      const parsed = simMockDateSchema.safeParse(request.body);
      if (!parsed.success) throw AppError.fromIssues(parsed.error.issues);
      if (!mockDate) throw new AppError('bad_request', 'This clock cannot be moved');
      await mockDate.set('reset' in parsed.data ? null : parsed.data.date);
      return { ok: true, date: toEpochSeconds(clock.now()) };
    },
  );

  // Multiple leads (admin spec §7: POST /sim/leads, count and hit), each lead's outcome streamed as a
  // line of JSON as soon as it is known, so the screen shows the run's progress.
  app.post(
    '/sim/leads',
    {
      onRequest: admin,
      schema: {
        tags: ['sim'],
        body: simLeadsSchema,
        response: fileResponses('application/x-ndjson', 'Each lead’s outcome (SimLeadResult) as a line of JSON'),
      },
    },
    async (request, reply) => {
      const outcomes = sim.leads(request.body);
      // The first outcome is awaited here, so a run that cannot start answers with a plain error.
      const first = await outcomes.next();
      async function* lines() {
        if (!first.done) yield `${JSON.stringify(first.value)}\n`;
        for await (const outcome of outcomes) yield `${JSON.stringify(outcome)}\n`;
      }
      return reply.type('application/x-ndjson').send(Readable.from(lines()));
    },
  );

  // The whitelist (admin spec §7: GET and POST /sim/whitelist): where mail and SMS may go outside production.
  app.get('/sim/whitelist', { onRequest: admin, schema: { tags: ['sim'], response: whitelistAnswer } }, () =>
    sim.whitelist(),
  );
  app.post(
    '/sim/whitelist',
    { onRequest: admin, schema: { tags: ['sim'], body: simWhitelistSchema, response: whitelistAnswer } },
    (request) => sim.saveWhitelist(request.body),
  );

  // Reset database (admin spec §7: POST /sim/reset-db): every row goes, the seed comes back.
  app.post(
    '/sim/reset-db',
    { onRequest: admin, schema: { tags: ['sim'], response: apiResponses(okSchema) } },
    async () => {
      await sim.resetDatabase();
      return { ok: true };
    },
  );

  app.get(
    '/env',
    { onRequest: admin, schema: { tags: ['sim'], response: apiResponses(systemInfoSchema) } },
    async () => ({
      ok: true,
      node_env: config.NODE_ENV,
      db: config.DATABASE_URL ? 'postgres' : 'pglite',
      date: toEpochSeconds(clock.now()),
    }),
  );
};
