import type { ApiError } from '@leadex/domain';
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isDatabaseUnavailable } from '../db/unavailable';
import { AppError, codeOfStatus, REASON_OF, STATUS_OF } from '../lib/errors';

/** PostgreSQL's unique_violation: two requests raced past a service's own check. */
const UNIQUE_VIOLATION = '23505';
/** Seconds a client waits before it retries while the database is unreachable (a restart or failover takes a few). */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A route of the public source API: its failures always carry a `reason` code for machines. */
    sourceApi?: boolean;
  }
}

/**
 * The one error handler: every failure answers `{ ok: false, message, errors? }` (DESIGN.md §4), and
 * the public source API's also `reason` (the error's own, else its code's). Validation failures name
 * their fields; a 500 never shows internals, only the request id.
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const { status, body } = toErrorReply(error, request);
    const reason = error instanceof AppError ? error.reason : undefined;
    if (status === 503) void reply.header('retry-after', String(UNAVAILABLE_RETRY_AFTER_SECONDS));
    const answer = request.routeOptions.config.sourceApi
      ? { ok: false, reason: reason ?? REASON_OF[codeOfStatus(status)], message: body.message, ...errorsOf(body) }
      : { ...body, ...(reason ? { reason } : {}) };
    return reply.status(status).send(answer);
  });
}

const errorsOf = (body: ApiError) => (body.errors ? { errors: body.errors } : {});

/** The status and body for any error. */
function toErrorReply(error: FastifyError, request: FastifyRequest): { status: number; body: ApiError } {
  if (error instanceof AppError) return { status: STATUS_OF[error.code], body: body(error.message, error.errors) };
  if (hasZodFastifySchemaValidationErrors(error)) {
    const errors: Record<string, string> = {};
    for (const issue of error.validation) {
      const field: string =
        issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || (error.validationContext ?? 'body');
      errors[field] ??= issue.message ?? 'Invalid value';
    }
    const [field, message] = Object.entries(errors)[0] ?? ['body', 'Invalid request'];
    return { status: 400, body: body(field === 'body' ? 'A request body is required' : message, errors) };
  }
  if (pgCode(error) === UNIQUE_VIOLATION) return { status: 409, body: body('This record already exists') };
  if (error.statusCode && error.statusCode < 500) return { status: error.statusCode, body: body(error.message) };
  // Nothing is wrong with the request: the client retries after Retry-After (DESIGN.md §12, Faults).
  if (isDatabaseUnavailable(error)) {
    request.log.warn({ err: error }, 'request answered 503: the database is unavailable');
    return {
      status: 503,
      body: body('The exchange is briefly unavailable (its database is not answering); retry shortly'),
    };
  }
  request.log.error({ err: error }, 'request failed');
  return { status: 500, body: body(`Something went wrong on our side (request ${request.id})`) };
}

function body(message: string, errors?: Record<string, string>): ApiError {
  return errors ? { ok: false, message, errors } : { ok: false, message };
}

function pgCode(error: unknown): string | undefined {
  for (
    let e = error as { code?: unknown; cause?: unknown } | undefined, depth = 0;
    e && depth < 4;
    e = e.cause as typeof e, depth++
  ) {
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return e.code;
  }
  return undefined;
}
