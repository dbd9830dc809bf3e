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

type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/**
 * A request's logger (Fastify's `request.log`): the child with the request's id, made only when the
 * request first writes a line at a level the logger writes. Making a child redacts its bindings
 * against every personal path, a twentieth of a ping's CPU (issue 36); a request that logs nothing
 * (every request at LOG_LEVEL warn or above, unless it fails) need not pay it. What is written, and
 * with which bindings, is the child's as before.
 */
class RequestLogger {
  private made: Logger | undefined;

  constructor(
    private readonly parent: Logger,
    private readonly bindings: pino.Bindings,
    private readonly options: pino.ChildLoggerOptions,
  ) {}

  private real(): Logger {
    this.made ??= this.parent.child(this.bindings, this.options);
    return this.made;
  }

  private write(level: LogLevel, args: unknown[]): void {
    if (this.made === undefined && !this.parent.isLevelEnabled(level)) return;
    (this.real()[level] as (...args: unknown[]) => void)(...args);
  }

  get level(): string {
    return this.made?.level ?? this.parent.level;
  }

  set level(level: string) {
    this.real().level = level;
  }

  fatal(...args: unknown[]) {
    this.write('fatal', args);
  }
  error(...args: unknown[]) {
    this.write('error', args);
  }
  warn(...args: unknown[]) {
    this.write('warn', args);
  }
  info(...args: unknown[]) {
    this.write('info', args);
  }
  debug(...args: unknown[]) {
    this.write('debug', args);
  }
  trace(...args: unknown[]) {
    this.write('trace', args);
  }
  silent() {}

  /** A child of the request's logger: made from the request's child, so it carries the request's id. */
  child(bindings: pino.Bindings, options?: pino.ChildLoggerOptions): Logger {
    return this.real().child(bindings, options);
  }
}

/**
 * Fastify's `childLoggerFactory`: a request's logger made when first written to (`RequestLogger`); a
 * route with its own level or serializers gets its child at once, as Fastify makes it.
 */
export function requestLoggerFactory(
  parent: Logger,
  bindings: pino.Bindings,
  options: pino.ChildLoggerOptions,
): RequestLogger | Logger {
  if (options.level !== undefined || options.serializers !== undefined) return parent.child(bindings, options);
  return new RequestLogger(parent, bindings, options);
}
