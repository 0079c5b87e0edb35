import { randomUUID } from 'node:crypto';
import type { Db } from '../db/connect.ts';

/** Makes sure the workspace has a tag for each label (tags on cases are stored by label). */
export async function ensureTags(trx: Db, workspaceId: string, labels: string[]) {
  const unique = [...new Set(labels)];
  if (!unique.length) return [];
  await trx
    .insertInto('tags')
    .values(unique.map((label) => ({ id: randomUUID(), workspace_id: workspaceId, label })))
    .onConflict((oc) => oc.columns(['workspace_id', 'label']).doNothing())
    .execute();
  return trx
    .selectFrom('tags')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('label', 'in', unique)
    .orderBy('label')
    .execute();
}
