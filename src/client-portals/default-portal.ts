import { randomUUID } from 'node:crypto';
import type { Db } from '../db/connect.ts';
import type { ClientPortalRow } from '../db/schema.ts';

/** Name of a workspace's default portal when it is created. */
export const DEFAULT_PORTAL_NAME = 'Client portal';

/**
 * The workspace's default portal, created on first need. An upsert on the partial unique index
 * (one default per workspace) makes two concurrent first reads agree on one row, and workspaces
 * created before the portal existed get theirs the same way, with no backfill.
 */
export async function ensureDefaultPortal(db: Db, workspaceId: string): Promise<ClientPortalRow> {
  const existing = await findDefaultPortal(db, workspaceId);
  if (existing) return existing;
  await db
    .insertInto('client_portals')
    .values({ id: randomUUID(), workspace_id: workspaceId, name: DEFAULT_PORTAL_NAME, is_default: true })
    .onConflict((oc) => oc.column('workspace_id').where('is_default', '=', true).doNothing())
    .execute();
  const created = await findDefaultPortal(db, workspaceId);
  if (!created) throw new Error(`default client portal of workspace ${workspaceId} missing after upsert`);
  return created;
}

function findDefaultPortal(db: Db, workspaceId: string): Promise<ClientPortalRow | undefined> {
  return db
    .selectFrom('client_portals')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('is_default', '=', true)
    .executeTakeFirst();
}

/**
 * A portal of the workspace by id (undefined for another workspace's: the caller answers 404),
 * locked until the transaction ends with `forUpdate`.
 */
export function findPortal(
  db: Db,
  workspaceId: string,
  id: string,
  forUpdate = false,
): Promise<ClientPortalRow | undefined> {
  const q = db
    .selectFrom('client_portals')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id);
  return (forUpdate ? q.forUpdate() : q).executeTakeFirst();
}
