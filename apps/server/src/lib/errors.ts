/** What went wrong, mapped to an HTTP status by the one error handler (plugins/errors.ts). */
export type ErrorCode =
  | 'bad_request'
  | 'unauthenticated'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'unprocessable'
  | 'too_many_requests'
  | 'unavailable'
  | 'internal';

export const STATUS_OF: Record<ErrorCode, number> = {
  bad_request: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  unprocessable: 422,
  too_many_requests: 429,
  unavailable: 503,
  internal: 500,
};

/**
 * The public source API's `reason` for a code, when the error names none more precise (`held`,
 * `expired`, `not_approved`): machines branch on it (docs/api.md).
 */
export const REASON_OF: Record<ErrorCode, string> = {
  bad_request: 'invalid',
  unauthenticated: 'unauthorized',
  forbidden: 'forbidden',
  not_found: 'not_found',
  conflict: 'conflict',
  unprocessable: 'invalid',
  too_many_requests: 'rate_limited',
  unavailable: 'unavailable',
  internal: 'error',
};

/** The code of an HTTP status that a library raised (a body too large, a rate limit). */
export function codeOfStatus(status: number): ErrorCode {
  const code = (Object.keys(STATUS_OF) as ErrorCode[]).find((c) => STATUS_OF[c] === status);
  return code ?? (status < 500 ? 'bad_request' : 'internal');
}

export interface AppErrorDetails {
  /** Per-field messages, keyed by dotted path. */
  errors?: Record<string, string>;
  /** The public source API's reason code, where it says more than the code's default. */
  reason?: string;
}

/**
 * The one error type services and the engine raise; the one error handler turns it into
 * `{ ok: false, message, errors? }` (and `reason` on the public source API). No HTTP status here.
 */
export class AppError extends Error {
  readonly errors?: Record<string, string>;
  readonly reason?: string;

  constructor(
    readonly code: ErrorCode,
    message: string,
    details: AppErrorDetails = {},
  ) {
    super(message);
    this.name = 'AppError';
    if (details.errors) this.errors = details.errors;
    if (details.reason) this.reason = details.reason;
  }

  /** A 400 naming one field, so the web can mark it (spec §8). */
  static field(field: string, message: string, reason?: string): AppError {
    return new AppError('bad_request', message, { errors: { [field]: message }, reason });
  }

  /**
   * A 400 from a schema a service checks itself, where the rules depend on the caller (a buyer's
   * return request, an admin's decision on the same route); each field named as a route's would be.
   */
  static fromIssues(issues: readonly { path: readonly PropertyKey[]; message: string }[]): AppError {
    const errors: Record<string, string> = {};
    for (const issue of issues) errors[issue.path.map(String).join('.') || 'body'] ??= issue.message;
    return new AppError('bad_request', Object.values(errors)[0] ?? 'Invalid value', { errors });
  }

  static notFound(what = 'Record'): AppError {
    return new AppError('not_found', `${what} not found`);
  }
}

/** PostgreSQL's unique_violation, wherever the driver put it in the error's cause chain. */
export function isUniqueViolation(error: unknown): boolean {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 4; depth++) {
    if (e.code === '23505') return true;
    e = e.cause as typeof e;
  }
  return false;
}
