/**
 * The console's typed API client: openapi-fetch over the generated types, on the same /v1 API as
 * integrators, authenticated by the session cookie (never an API key). Every write carries the
 * session's CSRF token; a 401 (session expired or revoked) tells the shell, which returns to the
 * sign-in page; a 403 tells it too, which reads the session (the user's role) again.
 */
import createClient, { type Middleware } from 'openapi-fetch';
import { problemMessage } from './problem-message.ts';
import type { paths } from './schema';

let csrfToken: string | null = null;
const unauthorizedListeners = new Set<() => void>();
const forbiddenListeners = new Set<() => void>();
const notFoundListeners = new Set<(method: string) => void>();

/** Set by the session when it starts (sign-in, or the session read at load); cleared at sign-out. */
export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

/** Called when the server says the session is over. */
export function onUnauthorized(fn: () => void): () => void {
  unauthorizedListeners.add(fn);
  return () => unauthorizedListeners.delete(fn);
}

/**
 * Called when the server refuses a call to this session (403): the user's role may have changed
 * since the page read it (an admin made them a viewer), so the shell reads the session again and the
 * page stops offering what the role no longer allows.
 */
export function onForbidden(fn: () => void): () => void {
  forbiddenListeners.add(fn);
  return () => forbiddenListeners.delete(fn);
}

/**
 * Called with the method of a call answered 404: what the page shows may have been deleted under it
 * (a case deleted through the API while its page is open), so the page can read it again.
 */
export function onNotFound(fn: (method: string) => void): () => void {
  notFoundListeners.add(fn);
  return () => notFoundListeners.delete(fn);
}

function answered(status: number, method: string): void {
  if (status === 401) for (const fn of unauthorizedListeners) fn();
  if (status === 403) for (const fn of forbiddenListeners) fn();
  if (status === 404) for (const fn of notFoundListeners) fn(method);
}

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

const session: Middleware = {
  onRequest({ request }) {
    if (!SAFE.has(request.method) && csrfToken) request.headers.set('X-CSRF-Token', csrfToken);
    return request;
  },
  onResponse({ request, response }) {
    answered(response.status, request.method);
    return response;
  },
};

export const api = createClient<paths>({ baseUrl: '', credentials: 'same-origin' });
api.use(session);

/** A refused call: the status and the server's message (the error body names the field). */
export class ApiProblem extends Error {
  readonly status: number;
  readonly body: unknown;
  constructor(status: number, body: unknown, fallback: string) {
    super(problemMessage(body, fallback));
    this.status = status;
    this.body = body;
  }
}

/** The body of a successful answer, or throws an ApiProblem with the server's message. */
export function unwrap<T>(res: { data?: T; error?: unknown; response: Response }): T {
  if (res.error !== undefined || !res.response.ok) {
    throw new ApiProblem(
      res.response.status,
      res.error,
      res.response.statusText || `HTTP ${res.response.status}`,
    );
  }
  return res.data as T;
}

/**
 * Raw JSON calls: the console's own endpoints (/console/api: sign-in), outside the OpenAPI, and the
 * few /v1 paths built at run time (a check's endpoint by its type). Same CSRF and 401 handling.
 */
export async function consoleCall<T>(method: string, path: string, body?: unknown): Promise<T> {
  return (await versionedCall<T>(method, path, body)).body;
}

/** An answer with the version of the resource it is (its ETag), to send back as If-Match. */
export interface Versioned<T> {
  body: T;
  etag: string | null;
}

/**
 * A raw JSON call that keeps the answer's ETag, with extra request headers (If-Match): a decision
 * names the version of the check it was taken on, and a 412 says someone changed it meanwhile.
 */
export async function versionedCall<T>(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Versioned<T>> {
  const res = await fetch(path, {
    method,
    credentials: 'same-origin',
    headers: {
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(!SAFE.has(method) && csrfToken ? { 'X-CSRF-Token': csrfToken } : {}),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  const json = text ? JSON.parse(text) : null;
  answered(res.status, method);
  if (!res.ok) throw new ApiProblem(res.status, json, res.statusText);
  return { body: json as T, etag: res.headers.get('etag') };
}

/** The status of a refused write whose If-Match named a version that is no longer the current one. */
export const CHANGED_MEANWHILE = 412;
