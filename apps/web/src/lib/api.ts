import type { ApiError } from '@leadex/domain';
import { showError } from './notify';

/** Spec §8: the toast text when a failure carries no message, and when the server cannot be reached. */
export const GENERIC_ERROR = 'An error occurred.';
export const NETWORK_ERROR = 'An unknown error occurred';

/** A failed API call: the HTTP status (0 when the server could not be reached) and the server's error shape. */
export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** Per-field messages keyed by dotted path (`bill.pay`), from a 400. */
    readonly errors: Record<string, string> = {},
    /** better-auth's own error code (`INVALID_TOKEN`, …) on /api/auth/* answers. */
    readonly code?: string,
  ) {
    super(message);
    this.name = 'ApiRequestError';
  }
}

/** A query parameter's value; a list repeats the parameter (`field=a:1&field=b:2`). */
export type QueryValue = string | number | boolean | null | undefined | readonly string[];

export interface RequestOptions {
  /** Query parameters; empty values are left out. */
  query?: Record<string, QueryValue>;
  body?: unknown;
  /** Sends `body` (a string) as it is with this content type (a CSV file's text), not as JSON. */
  contentType?: string;
  /** Set false when the caller shows the failure itself (the sign-in forms map it to the spec's texts). */
  toast?: boolean;
  signal?: AbortSignal;
}

let onUnauthenticated: () => void = () => {};

/** Called when an API call answers 401: the session has ended, so the app drops its claims and shows /auth. */
export function setUnauthenticatedHandler(handler: () => void): void {
  onUnauthenticated = handler;
}

/**
 * Calls the API with the session cookie. Any non-2xx answer throws an ApiRequestError built from the
 * `{ ok: false, message, errors? }` shape and, unless `toast: false`, raises the spec's error toast.
 * A 2xx answer is never an error, even with `ok: false`: the availability checks answer that way.
 */
export async function apiRequest<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  const { query, body, contentType, toast = true, signal } = options;
  let response: Response;
  try {
    response = await fetch(withQuery(path, query), {
      method,
      credentials: 'same-origin',
      headers:
        body === undefined ? { accept: 'application/json' } : { 'content-type': contentType ?? 'application/json' },
      body: body === undefined ? undefined : contentType ? String(body) : JSON.stringify(body),
      signal,
    });
  } catch (cause) {
    // A query TanStack cancelled (the user moved on) is not a failure worth a toast.
    if (signal?.aborted) throw cause;
    throw fail(new ApiRequestError(0, NETWORK_ERROR), toast);
  }

  const payload = await readBody(response);
  if (!response.ok) {
    if (response.status === 401) onUnauthenticated();
    const shape = (isRecord(payload) ? payload : {}) as Partial<ApiError> & { code?: unknown };
    const message = typeof shape.message === 'string' && shape.message.trim() ? shape.message : GENERIC_ERROR;
    const errors = isRecord(shape.errors) ? (shape.errors as Record<string, string>) : {};
    const code = typeof shape.code === 'string' ? shape.code : undefined;
    throw fail(new ApiRequestError(response.status, message, errors, code), toast);
  }
  return payload as T;
}

export const api = {
  get: <T>(path: string, options?: Omit<RequestOptions, 'body'>) => apiRequest<T>('GET', path, options),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    apiRequest<T>('POST', path, { ...options, body: body ?? {} }),
  put: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    apiRequest<T>('PUT', path, { ...options, body: body ?? {} }),
  delete: <T>(path: string, options?: RequestOptions) => apiRequest<T>('DELETE', path, options),
};

/** POSTs `body` as JSON, in the session, asking for `accept`: the response as it comes (a network failure throws). */
export function postJson(path: string, body: unknown, accept: string): Promise<Response> {
  return fetch(path, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json', accept },
    body: JSON.stringify(body),
  });
}

/**
 * POSTs `body` to a route that answers one JSON object a line (application/x-ndjson) as its work goes
 * on, and calls `onLine` with each as it arrives (a simulator run's progress). Failures before the
 * first line are answered and toasted like any call.
 */
export async function postForLines<T>(path: string, body: unknown, onLine: (line: T) => void): Promise<void> {
  let response: Response;
  try {
    response = await postJson(path, body, 'application/x-ndjson');
  } catch {
    throw fail(new ApiRequestError(0, NETWORK_ERROR), true);
  }
  if (!response.ok || !response.body) {
    if (response.status === 401) onUnauthenticated();
    const payload = await readBody(response);
    const shape = (isRecord(payload) ? payload : {}) as Partial<ApiError>;
    const errors = isRecord(shape.errors) ? (shape.errors as Record<string, string>) : {};
    throw fail(new ApiRequestError(response.status, shape.message || GENERIC_ERROR, errors), true);
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let pending = '';
  for (;;) {
    const { done, value } = await reader.read();
    pending += value ?? '';
    const lines = pending.split('\n');
    pending = done ? '' : (lines.pop() ?? '');
    for (const line of lines) if (line.trim()) onLine(JSON.parse(line) as T);
    if (done) return;
  }
}

function fail(error: ApiRequestError, toast: boolean): ApiRequestError {
  if (toast) showError(error.message);
  return error;
}

/** The query string of `values` (no `?`): empty values left out, a list as the parameter repeated. */
export function searchOf(values: Record<string, QueryValue>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) {
    if (Array.isArray(value)) for (const item of value as readonly string[]) params.append(key, item);
    else if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  return params.toString();
}

function withQuery(path: string, query: RequestOptions['query']): string {
  if (!query) return path;
  const search = searchOf(query);
  return search ? `${path}${path.includes('?') ? '&' : '?'}${search}` : path;
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text().catch(() => '');
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
