import { sql } from 'kysely';
import type { Db } from '../db/connect.ts';
import { notFound } from '../http/errors.ts';
import { UUID_RE } from '../shared/pg-errors.ts';

/**
 * Soft-deletes a template: it can no longer be run or used at case creation, its key becomes free,
 * and cases created from it keep showing it. It no longer auto-approves cases.
 */
export async function deleteTemplate(db: Db, workspaceId: string, id: string): Promise<void> {
  if (!UUID_RE.test(id)) throw notFound('Template');
  const res = await db
    .updateTable('templates')
    .set({ deleted_at: sql`now()`, updated_at: sql`now()` })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) === 0) throw notFound('Template');
}
