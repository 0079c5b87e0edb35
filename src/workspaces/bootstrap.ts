import type { Db } from '../db/connect.ts';
import { createUser } from '../users/write-users.ts';
import { hashApiKey } from './api-key.ts';
import { countWorkspaces, createApiKey, createWorkspace, findWorkspaceByName } from './repository.ts';

export interface BootstrapResult {
  createdWorkspace: boolean;
  /** Present only when a key was generated now: it is printed once and never again. */
  newApiKey: string | null;
  /** The console's first admin, created with the workspace: its password is printed once. */
  newAdmin: { email: string; password: string } | null;
  /** The workspace created now, if one was (a start that cannot serve takes it back). */
  workspaceId?: string;
}

/** The first console user of a workspace created at start-up: an admin with a generated password. */
async function firstAdmin(db: Db, workspaceId: string, email: string) {
  const user = (await createUser(db, workspaceId, {
    email,
    first_name: 'Admin',
    last_name: '',
    role: 'admin',
  })) as { email: string; password?: string };
  return { email: user.email, password: user.password as string };
}

/**
 * Start-up convenience. With VERICASE_BOOTSTRAP_API_KEY, a `default` workspace exists with that key.
 * With no workspace at all and no such key, a `default` workspace is created and its key printed once.
 * A workspace created here gets a console admin (`adminEmail`, VERICASE_BOOTSTRAP_ADMIN_EMAIL) whose
 * generated password is printed once.
 */
export async function bootstrapWorkspace(
  db: Db,
  bootstrapKey: string | null,
  adminEmail = 'admin@localhost',
): Promise<BootstrapResult> {
  const none = { createdWorkspace: false, newApiKey: null, newAdmin: null };
  if (bootstrapKey) {
    const existing = await db
      .selectFrom('api_keys')
      .select('id')
      .where('key_hash', '=', hashApiKey(bootstrapKey))
      .executeTakeFirst();
    if (existing) return none;
    const ws = await findWorkspaceByName(db, 'default');
    if (ws) {
      await createApiKey(db, ws.id, bootstrapKey);
      return none;
    }
    const created = await createWorkspace(db, 'default', bootstrapKey);
    return {
      createdWorkspace: true,
      newApiKey: null,
      newAdmin: await firstAdmin(db, created.id, adminEmail),
      workspaceId: created.id,
    };
  }
  if ((await countWorkspaces(db)) > 0) return none;
  const ws = await createWorkspace(db, 'default');
  return {
    createdWorkspace: true,
    newApiKey: ws.api_key,
    newAdmin: await firstAdmin(db, ws.id, adminEmail),
    workspaceId: ws.id,
  };
}
