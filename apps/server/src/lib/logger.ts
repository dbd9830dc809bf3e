import { pino } from 'pino';
import type { Config } from '../config';

/**
 * The one logger of a process: Fastify logs requests through it and every service that must report
 * something nobody is waiting for (a failed background reload, a job's error) is handed it.
 */
export type Logger = pino.Logger;

const REDACTED = '[redacted]';

/**
 * Personal fields of leads, users, buyers and sources, and what carries them whole (a query's
 * parameters, PostgreSQL's `detail` "Failing row contains (…)"): never in a log line (issue 29 item 11,
 * ASVS 7.1.1, 8.3.5), at the top of the object logged or up to three levels down.
 */
const PERSONAL_FIELDS = [
  'name',
  'first_name',
  'last_name',
  'firstName',
  'lastName',
  'phone',
  'email',
  'address',
  'street',
  'ip',
  'ipAddress',
  'ip_address',
  'dob',
  'password',
  'params',
  'detail',
];
export const REDACTED_PATHS = PERSONAL_FIELDS.flatMap((field) => [
  field,
  `*.${field}`,
  `*.*.${field}`,
  `*.*.*.${field}`,
]);

/** The text a failed query's parameters add to its message, for each failed query in an error's causes. */
function leakedParams(error: unknown): string[] {
  const leaks: string[] = [];
  for (let e = error as { params?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 5; depth++) {
    // Drizzle's DrizzleQueryError writes "Failed query: <sql>\nparams: <values>": the sale's values are the lead's.
    if (Array.isArray(e.params) && e.params.length > 0) leaks.push(`\nparams: ${e.params}`);
    e = typeof e.cause === 'object' && e.cause !== null ? (e.cause as typeof e) : undefined;
  }
  return leaks;
}

/** pino's error serializer, with the values of any failed query taken out of its message and stack. */
function errorWithoutValues(error: Error): Record<string, unknown> {
  const out = pino.stdSerializers.err(error) as unknown as Record<string, unknown>;
  for (const leak of leakedParams(error))
    for (const key of ['message', 'stack'])
      if (typeof out[key] === 'string') out[key] = (out[key] as string).replaceAll(leak, `\nparams: ${REDACTED}`);
  return out;
}

export function createLogger(config: Pick<Config, 'LOG_LEVEL'>, destination?: pino.DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level: config.LOG_LEVEL,
    redact: { paths: REDACTED_PATHS, censor: REDACTED },
    serializers: { err: errorWithoutValues, error: errorWithoutValues },
  };
  return destination ? pino(options, destination) : pino(options);
}
