import type { Db } from '../db/connect.ts';
import { notFound } from '../http/errors.ts';
import { presentUser } from './present.ts';

/** Suspended users are found too: an activity or an assignment may still name them. */
export async function getUser(db: Db, workspaceId: string, id: string) {
  const row = await db
    .selectFrom('users')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound('User');
  return presentUser(row);
}
