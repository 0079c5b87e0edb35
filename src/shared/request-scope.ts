import { AsyncLocalStorage } from 'node:async_hooks';

/** What the API request being served is known by, for code that records who did something. */
interface RequestScope {
  /** The id of the API key the request was authenticated with. */
  apiKeyId: string;
}

const storage = new AsyncLocalStorage<RequestScope>();

/** Runs `fn` (and everything it awaits or schedules) as part of the given request. */
export function runInRequestScope<T>(scope: RequestScope, fn: () => T): T {
  return storage.run(scope, fn);
}

/** The API key behind the current request, or null outside a request (jobs, workers, CLI). */
export function currentApiKeyId(): string | null {
  return storage.getStore()?.apiKeyId ?? null;
}
