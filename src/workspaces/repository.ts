import { randomUUID } from 'node:crypto';
import type { Db } from '../db/connect.ts';
import { inTransaction } from '../db/in-transaction.ts';
import { displayPrefix, generateApiKey, hashApiKey } from './api-key.ts';

/**
 * Takes the workspace row's lock until the transaction ends: the writes of one workspace that must
 * see each other (creations under a cap, the last key's revocation, tag creation) run one at a time.
 * FOR NO KEY UPDATE: it does not block rows that merely reference the workspace.
 */
export async function lockWorkspaceRow(trx: Db, workspaceId: string): Promise<void> {
  await trx.selectFrom('workspaces').select('id').where('id', '=', workspaceId).forNoKeyUpdate().execute();
}

export interface WorkspaceWithKey {
  id: string;
  name: string;
  created_at: string;
  api_key: string;
  api_key_id: string;
}

export async function createApiKey(
  db: Db,
  workspaceId: string,
  key = generateApiKey(),
  opts: { name?: string | null; createdByUserId?: string | null } = {},
) {
  const id = randomUUID();
  await db
    .insertInto('api_keys')
    .values({
      id,
      workspace_id: workspaceId,
      key_hash: hashApiKey(key),
      prefix: displayPrefix(key),
      name: opts.name ?? null,
      created_by_user_id: opts.createdByUserId ?? null,
    })
    .execute();
  return { id, workspace_id: workspaceId, api_key: key };
}

export async function createWorkspace(db: Db, name: string, key?: string): Promise<WorkspaceWithKey> {
  return inTransaction(db, async (trx) => {
    const id = randomUUID();
    const ws = await trx
      .insertInto('workspaces')
      .values({ id, name, settings: JSON.stringify({}) })
      .returning(['id', 'name', 'created_at'])
      .executeTakeFirstOrThrow();
    const k = await createApiKey(trx, id, key);
    return {
      id: ws.id,
      name: ws.name,
      created_at: new Date(ws.created_at).toISOString(),
      api_key: k.api_key,
      api_key_id: k.id,
    };
  });
}

export async function findWorkspace(db: Db, id: string) {
  return db.selectFrom('workspaces').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findWorkspaceByName(db: Db, name: string) {
  return db
    .selectFrom('workspaces')
    .selectAll()
    .where('name', '=', name)
    .orderBy('created_at')
    .executeTakeFirst();
}

/** Every workspace with this name, oldest first (names are not unique). */
export async function findWorkspacesByName(db: Db, name: string) {
  return db.selectFrom('workspaces').selectAll().where('name', '=', name).orderBy('created_at').execute();
}

export async function countWorkspaces(db: Db): Promise<number> {
  const row = await db
    .selectFrom('workspaces')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Revokes a key by its id, or by the key itself. Returns the revoked key's id, or null. */
export async function revokeApiKey(
  db: Db,
  idOrKey: string,
): Promise<{ id: string; key_hash: string } | null> {
  const isUuid = /^[0-9a-f-]{36}$/i.test(idOrKey);
  const row = await db
    .updateTable('api_keys')
    .set({ revoked_at: new Date() })
    .where(isUuid ? 'id' : 'key_hash', '=', isUuid ? idOrKey : hashApiKey(idOrKey))
    .where('revoked_at', 'is', null)
    .returning(['id', 'key_hash'])
    .executeTakeFirst();
  return row ?? null;
}

export async function findActiveKey(db: Db, keyHash: string) {
  return db
    .selectFrom('api_keys as k')
    .innerJoin('workspaces as w', 'w.id', 'k.workspace_id')
    .select([
      'k.id as key_id',
      'k.name as key_name',
      'k.prefix as key_prefix',
      'w.id as workspace_id',
      'w.name as workspace_name',
    ])
    .where('k.key_hash', '=', keyHash)
    .where('k.revoked_at', 'is', null)
    .executeTakeFirst();
}
