import type { AppContext } from '../../app-context.ts';
import { ApiError } from '../../http/errors.ts';
import { fetchProfileByRef } from '../fetch-profile.ts';

export type RegistryImport = Awaited<ReturnType<typeof fetchProfileByRef>>;

/**
 * Fetches the profile behind a search_ref for a company being created, before any transaction
 * opens (no network inside a transaction). A refused ref is a 400 naming the body field; a registry
 * failure (`RegistryError`, mapped by the error handler) a 502/503, so nothing is written.
 */
export async function fetchForImport(
  ctx: AppContext,
  workspaceId: string,
  searchRef: string,
  path: string,
): Promise<RegistryImport> {
  try {
    return await fetchProfileByRef(ctx, workspaceId, searchRef);
  } catch (err) {
    if (err instanceof ApiError && err.statusCode === 400) {
      const message = err.message.startsWith('search_ref')
        ? err.message.replace(/^search_ref/, path)
        : `${path}: ${err.message}`;
      throw new ApiError(400, message, [{ path, message }], err.code);
    }
    throw err;
  }
}
