import type { Db } from '../db/connect.ts';
import type { TemplateRow } from '../db/schema.ts';
import { UUID_RE } from '../shared/pg-errors.ts';

/** A live (not deleted) template of the workspace. */
export async function findTemplate(
  db: Db,
  workspaceId: string,
  id: string,
  forUpdate = false,
): Promise<TemplateRow | undefined> {
  if (!UUID_RE.test(id)) return undefined;
  let q = db
    .selectFrom('templates')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null);
  if (forUpdate) q = q.forUpdate();
  return q.executeTakeFirst();
}

export async function findTemplateByKey(
  db: Db,
  workspaceId: string,
  key: string,
): Promise<TemplateRow | undefined> {
  return db
    .selectFrom('templates')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('key', '=', key)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}
