import type { Db } from '../db/connect.ts';
import { UUID_RE } from '../shared/pg-errors.ts';

/** Types a workspace sees: the built-in ones and its own. */
export const visibleTypes = (db: Db, workspaceId: string) =>
  db
    .selectFrom('document_types')
    .where((eb) => eb.or([eb('workspace_id', 'is', null), eb('workspace_id', '=', workspaceId)]));

/** A type by key, built-in or the workspace's (archived ones too: the caller says why it is unusable). */
export function findDocumentTypeByKey(db: Db, workspaceId: string, key: string) {
  return visibleTypes(db, workspaceId).selectAll().where('key', '=', key).executeTakeFirst();
}

/** A type by id, built-in or the workspace's. */
export function findDocumentType(db: Db, workspaceId: string, id: string) {
  if (!UUID_RE.test(id)) return Promise.resolve(undefined);
  return visibleTypes(db, workspaceId).selectAll().where('id', '=', id).executeTakeFirst();
}
