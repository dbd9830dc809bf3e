import formBody from '@fastify/formbody';
import rateLimit from '@fastify/rate-limit';
import { pingAnswerSchema, saleAnswerSchema, sourceApiQuerySchema, sourceApiResponses } from '@leadex/domain';
import { XMLParser } from 'fast-xml-parser';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { stringify } from 'safe-stable-stringify';
import type { z } from 'zod';
import type { Config } from '../../config';
import type { SourceCaller } from '../../distribution/engine';
import { emailHash, phoneHash } from '../../distribution/normalize';
import { AppError } from '../../lib/errors';
import { sha256Hex } from '../../lib/secrets';
import { keepStorableMetadata } from '../../plugins/input-hygiene';
import { chooseService, type FieldPlan, fieldMapper } from './field-map';
import { pingSerializerCompiler } from './ping-answer';
import { ANSWER_FORMAT_PARAMETER, type AnswerFormatChoice, answerFormatOf, renderAnswer } from './source-api.answers';
import { mapTestFlags, takeApiKey } from './source-api.request';
import { fieldNamesOf, leadSchema, pingSchema, postSchema } from './source-api.schema';
import type { Answer, RequestMeta, SourceApiService } from './source-api.service';

/** The public API's rate limiter keeps counts for at most this many API keys (or addresses) at once. */
const RATE_LIMIT_KEYS = 10_000;
const xml = new XMLParser({ ignoreAttributes: true, parseTagValue: false, trimValues: true });

declare module 'fastify' {
  interface FastifyRequest {
    /** The public API key of the call, taken from where the platforms put it before validation (issue 32). */
    sourceApiKey?: string;
    /** The answer's format (`response_format`, Accept), read as the request arrives so every answer has it. */
    sourceApiAnswerFormat?: AnswerFormatChoice;
    /** The source calling, known before validation (issue 32: the key first, then the aliases, then the fields). */
    sourceCaller?: SourceCaller;
    /** Why the call is refused (no key, an unknown or held one), answered after the rate limit counted it. */
    sourceAuthError?: unknown;
    /** The services' own fields sent (issue 33), taken out of the body before validation. */
    serviceFieldsSent?: Record<string, unknown>;
  }
}

/** Every field of ours on any route: `Phone` at a ping is our `phone`, not a stranger (field-map.ts). */
const ALL_FIELDS = [...new Set([...fieldNamesOf(leadSchema), ...fieldNamesOf(postSchema)])];
/** A ping carries no contact: a phone or email sent with one is read as its hash (duplicates, suppression; issue 34). */
const PING_HASHES = {
  phone: { field: 'phone_hash', hash: phoneHash },
  email: { field: 'email_hash', hash: emailHash },
};
const planOf = (schema: z.ZodType, keepsMetadata: boolean): FieldPlan => ({
  fields: new Set(fieldNamesOf(schema)),
  allFields: ALL_FIELDS,
  keepsMetadata,
  ...(keepsMetadata ? {} : { hashedInto: PING_HASHES }),
});

const apiKeyOf = (request: FastifyRequest) => request.sourceApiKey;

/**
 * The request an Idempotency-Key names (issue 28): sha256 of the route and the body as validated
 * (aliases mapped, values normalized, keys sorted), so a retry matches however its fields are
 * ordered or encoded (JSON, form, XML), and the same key on another route is another request.
 */
function fingerprintOf(request: FastifyRequest): string {
  const fields = request.serviceFieldsSent ? `\n${stringify(request.serviceFieldsSent) ?? ''}` : '';
  return sha256Hex(`${request.routeOptions.url}\n${stringify(request.body) ?? ''}${fields}`);
}

/** What the OpenAPI document says of the header, on the two routes that take it. */
const IDEMPOTENCY_NOTE =
  'Optional header `Idempotency-Key` (at most 200 characters): send the same request again with the same key within 24 hours and you get the first answer, nothing sold twice. Make a new key (a UUID) for every lead and reuse it only to retry that lead: a different lead or route under a used key is refused with 422 `idempotency_key_reused` and not stored, so a fixed key would refuse every lead after the first.';

function metaOf(request: FastifyRequest): RequestMeta {
  const header = request.headers['idempotency-key'];
  const key = typeof header === 'string' && header.length > 0 ? header.slice(0, 200) : undefined;
  return {
    ip: request.ip,
    userAgent: request.headers['user-agent'],
    // Hashed only with a key: a request without one pays nothing for it.
    ...(key ? { idempotencyKey: key, requestHash: fingerprintOf(request) } : {}),
  };
}

/**
 * The public source API: POST /api/ping, /api/post, /api/lead with JSON, form or XML bodies.
 * Answers are JSON: `{ ok: true, … }` or `{ ok: false, reason, message?, errors? }`; or, when the
 * request asks (issue 32 item 7), the same as XML or in LeadConduit's shape (source-api.answers.ts).
 */
export const sourceApiRoutes: FastifyPluginAsyncZod<{
  sourceApi: SourceApiService;
  config: Pick<Config, 'PUBLIC_API_RATE_LIMIT'>;
}> = async (app, { sourceApi: api, config }) => {
  // Every failure of these routes carries a `reason` for machines (the app's one error handler).
  app.addHook('onRoute', (route) => {
    route.config = { ...route.config, sourceApi: true };
  });
  await app.register(formBody);
  app.addContentTypeParser(['application/xml', 'text/xml'], { parseAs: 'string' }, (_request, payload, done) => {
    try {
      const parsed = xml.parse(payload as string) as Record<string, unknown>;
      // The fields are the children of the root element, whatever it is called (<lead>, <ping>, …).
      const root = Object.values(parsed).find((v) => v && typeof v === 'object');
      done(null, root ?? {});
    } catch {
      done(Object.assign(new Error('The XML body could not be parsed'), { statusCode: 400 }), undefined);
    }
  });

  app.decorateRequest('sourceApiKey', undefined);
  app.decorateRequest('sourceApiAnswerFormat', undefined);
  // Read first, so the failures of the body's parsing (413, 415) are answered in the format asked too.
  // The hooks of these routes take `done` rather than being async: no promise and no microtask a request.
  app.addHook('onRequest', (request, _reply, done) => {
    request.sourceApiAnswerFormat = answerFormatOf(request);
    done();
  });
  // Every answer, the errors' and the rate limiter's too, is written as JSON and checked against the
  // route's schema first; only a format other than JSON is then rewritten, from that checked JSON.
  app.addHook('onSend', (request, reply, payload, done) => {
    const choice = request.sourceApiAnswerFormat;
    if (!choice || choice.format === 'json' || typeof payload !== 'string') return done(null, payload);
    if (!String(reply.getHeader('content-type') ?? '').startsWith('application/json')) return done(null, payload);
    const answer = renderAnswer(choice, payload);
    reply.header('content-type', answer.contentType);
    done(null, answer.payload);
  });
  app.decorateRequest('sourceCaller', undefined);
  app.decorateRequest('sourceAuthError', undefined);
  app.decorateRequest('serviceFieldsSent', undefined);
  app.addHook('preValidation', (request, _reply, done) => {
    request.sourceApiKey = takeApiKey(request);
    mapTestFlags(request);
    done();
  });

  if (config.PUBLIC_API_RATE_LIMIT > 0) {
    await app.register(rateLimit, {
      max: config.PUBLIC_API_RATE_LIMIT,
      timeWindow: 1000,
      hook: 'preHandler',
      keyGenerator: (request) => api.limitBucket(apiKeyOf(request), request.ip),
      // The plugin's in-memory store: at most this many keys or addresses, least recently seen dropped
      // first (its LRU), each count for one window: a flood of invented keys cannot grow the heap.
      cache: RATE_LIMIT_KEYS,
      errorResponseBuilder: (_request, context) => ({
        statusCode: 429,
        ok: false,
        reason: 'rate_limited',
        message: `At most ${context.max} requests a second per API key (per address for an unknown key); retry after ${context.after}`,
      }),
    });
  }

  /**
   * A route of the public API: its summary, the body it takes, the answer it gives besides the
   * failures, and the service call that answers. The caller is authenticated before the body's
   * validation is looked at (issue 32): no key or a wrong one answers 401, never field errors. Each
   * answer's shape is checked against the response schema when it is serialized.
   */
  const publicRoute = <TBody extends z.ZodType>(
    path: string,
    summary: string,
    body: TBody,
    answer: z.ZodType,
    answerOf: (caller: SourceCaller, body: z.infer<TBody>, request: FastifyRequest) => Answer | Promise<Answer>,
    description?: string,
  ) => {
    const direct = path === '/lead';
    const mapFields = fieldMapper(planOf(body, path !== '/ping'));
    const takesService = fieldNamesOf(body).includes('service');
    /**
     * The caller first (a refusal waits for the handler, after the rate limit has counted the call),
     * then the industry's field names read as ours and the caller's default service (issue 32 items
     * 1 and 3), all before the body is validated.
     */
    const prepare = (request: FastifyRequest): void => {
      try {
        request.sourceCaller = api.authenticate(apiKeyOf(request), { direct });
        // The source's own answer format, when the request names none (issue 32 item 7).
        const ownFormat = request.sourceCaller.source.answerFormat;
        if (ownFormat && !request.sourceApiAnswerFormat?.asked)
          request.sourceApiAnswerFormat = answerFormatOf(request, ownFormat);
      } catch (error) {
        request.sourceAuthError = error;
        return;
      }
      let fields = request.body;
      if (!fields || typeof fields !== 'object' || Array.isArray(fields)) return;
      // The services' own fields first: their names are none of ours (issue 33).
      const captured = api.captureFields(fields as Record<string, unknown>);
      if (captured) {
        request.serviceFieldsSent = captured.sent;
        request.body = fields = captured.rest;
      }
      const { warnings, campaignIds } = mapFields(fields as Record<string, unknown>);
      if (takesService) {
        const { key, source } = request.sourceCaller;
        warnings.push(
          ...chooseService(fields as Record<string, unknown>, campaignIds, {
            campaignServices: source.campaignServices,
            keyDefaultService: key.defaultService,
            sourceDefaultService: source.defaultService,
          }),
        );
      }
      // Fields moved into metadata must be storable there too.
      keepStorableMetadata(request, fields as Record<string, unknown>);
      if (warnings.length > 0) request.inputWarnings = [...(request.inputWarnings ?? []), ...warnings];
    };
    return app.post(
      path,
      {
        // Validation errors wait in request.validationError until the caller is known (below).
        attachValidation: true,
        // The ping's common answers skip the schema's encoding, being what it would write (ping-answer.ts).
        ...(path === '/ping' ? { serializerCompiler: pingSerializerCompiler as never } : {}),
        // A hook with `done`, not async: no promise and no microtask a request.
        preValidation: (request, _reply, done) => {
          prepare(request);
          done();
        },
        schema: {
          tags: ['public'],
          summary,
          ...(description ? { description } : {}),
          // Or a key field or query parameter (docs/api.md "Authentication"), which OpenAPI cannot name by case.
          security: [{ bearer: [] }, { basic: [] }],
          querystring: sourceApiQuerySchema,
          body,
          response: sourceApiResponses(answer),
        },
      },
      async (request, reply) => {
        if (request.sourceAuthError !== undefined) throw request.sourceAuthError;
        const caller = request.sourceCaller ?? api.authenticate(apiKeyOf(request), { direct });
        const formatError = request.sourceApiAnswerFormat?.error;
        if (formatError) throw AppError.field(ANSWER_FORMAT_PARAMETER, formatError);
        if (request.validationError) throw request.validationError;
        const { status, body } = await answerOf(caller, request.body as z.infer<TBody>, request);
        // The status is one of the response schema's, and so is the body's shape (checked as it is serialized).
        return reply.status(status as 200).send(body as never);
      },
    );
  };

  publicRoute(
    '/ping',
    'Ask a price for a lead (no contact data)',
    pingSchema,
    pingAnswerSchema,
    (caller, body, request) => api.pingAs(caller, body, request.serviceFieldsSent),
  );
  publicRoute(
    '/post',
    'Send the lead of a ping; it sells once',
    postSchema,
    saleAnswerSchema,
    (caller, body, request) => api.postAs(caller, body, metaOf(request), request.serviceFieldsSent),
    IDEMPOTENCY_NOTE,
  );
  publicRoute(
    '/lead',
    'Ping and post in one call (sources approved to post directly)',
    leadSchema,
    saleAnswerSchema,
    (caller, body, request) => api.leadAs(caller, body, metaOf(request), request.serviceFieldsSent),
    IDEMPOTENCY_NOTE,
  );
};
