import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * What the request being served is known by, for code that records who did something: the API key
 * of a /v1 request, the console user whose session made it, or the contact (an individual) whose client portal link a /portal request carries.
 */
type RequestScope = ({ apiKeyId: string } | { userId: string } | { contactIndividualId: string }) & {
  /**
   * The origin the client reached the service at (`http://host:port`), for links handed back. A
   * function: few requests hand a link back, and every request would pay for reading the host and
   * protocol (forwarded headers included) if it were computed up front.
   */
  origin?: () => string;
};

const storage = new AsyncLocalStorage<RequestScope>();

/** Runs `fn` (and everything it awaits or schedules) as part of the given request. */
export function runInRequestScope<T>(scope: RequestScope, fn: () => T): T {
  return storage.run(scope, fn);
}

/** The API key behind the current request, or null outside a request (jobs, workers, CLI). */
export function currentApiKeyId(): string | null {
  const scope = storage.getStore();
  return scope && 'apiKeyId' in scope ? scope.apiKeyId : null;
}

/** The console user behind the current /v1 request (a session, not a key), or null. */
export function currentUserId(): string | null {
  const scope = storage.getStore();
  return scope && 'userId' in scope ? scope.userId : null;
}

/** The contact behind the current client portal request, or null (API calls, jobs, CLI). */
export function currentContactId(): string | null {
  const scope = storage.getStore();
  return scope && 'contactIndividualId' in scope ? scope.contactIndividualId : null;
}

/** The origin (`scheme://host`) the current request reached the service at, or null outside one. */
export function currentRequestOrigin(): string | null {
  return storage.getStore()?.origin?.() ?? null;
}
