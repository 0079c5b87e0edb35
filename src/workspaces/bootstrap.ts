import type { Db } from '../db/connect.ts';
import { hashApiKey } from './api-key.ts';
import { countWorkspaces, createApiKey, createWorkspace, findWorkspaceByName } from './repository.ts';

export interface BootstrapResult {
  createdWorkspace: boolean;
  /** Present only when a key was generated now: it is printed once and never again. */
  newApiKey: string | null;
}

/**
 * Start-up convenience. With VERICASE_BOOTSTRAP_API_KEY, a `default` workspace exists with that key.
 * With no workspace at all and no such key, a `default` workspace is created and its key printed once.
 */
export async function bootstrapWorkspace(db: Db, bootstrapKey: string | null): Promise<BootstrapResult> {
  if (bootstrapKey) {
    const existing = await db
      .selectFrom('api_keys')
      .select('id')
      .where('key_hash', '=', hashApiKey(bootstrapKey))
      .executeTakeFirst();
    if (existing) return { createdWorkspace: false, newApiKey: null };
    const ws = await findWorkspaceByName(db, 'default');
    if (ws) {
      await createApiKey(db, ws.id, bootstrapKey);
      return { createdWorkspace: false, newApiKey: null };
    }
    await createWorkspace(db, 'default', bootstrapKey);
    return { createdWorkspace: true, newApiKey: null };
  }
  if ((await countWorkspaces(db)) > 0) return { createdWorkspace: false, newApiKey: null };
  const ws = await createWorkspace(db, 'default');
  return { createdWorkspace: true, newApiKey: ws.api_key };
}
