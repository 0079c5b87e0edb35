import type { AppContext } from '../app-context.ts';
import { ApiError } from '../http/errors.ts';
import { type CompanyRegistryProvider, type RegistryCall, RegistryError } from './provider.ts';

/**
 * One provider call under an overall deadline (every attempt's timeout plus a margin; adapters time
 * each attempt themselves). Whatever goes wrong inside a provider comes out as a `RegistryError`
 * (a deadline as `unavailable`, anything unexpected as `bad_answer`), so no registry problem can
 * become a 500: the error handler (`src/http/errors.ts`) answers it through `registryApiError`.
 */
export async function callRegistry<T>(
  ctx: AppContext,
  provider: CompanyRegistryProvider,
  fn: (call: RegistryCall) => Promise<T>,
): Promise<T> {
  const { timeoutMs, retries } = ctx.config.companyData;
  const signal = AbortSignal.timeout(timeoutMs * (retries + 1) + 1_000);
  try {
    return await fn({ signal });
  } catch (err) {
    if (err instanceof RegistryError || err instanceof ApiError) throw err;
    if (signal.aborted) throw new RegistryError(provider.vendor, 'unavailable', 'no answer in time');
    throw new RegistryError(provider.vendor, 'bad_answer', (err as Error)?.message ?? String(err));
  }
}
