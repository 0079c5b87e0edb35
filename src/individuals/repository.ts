import type { Db } from '../db/connect.ts';
import type { IndividualRow } from '../db/schema.ts';
import { UUID_RE } from '../shared/pg-errors.ts';

/** An individual of the workspace whose case is not deleted. */
export async function findIndividual(
  db: Db,
  workspaceId: string,
  id: string,
): Promise<IndividualRow | undefined> {
  if (!UUID_RE.test(id)) return undefined;
  return db
    .selectFrom('individuals as i')
    .innerJoin('cases as c', 'c.id', 'i.case_id')
    .selectAll('i')
    .where('i.workspace_id', '=', workspaceId)
    .where('i.id', '=', id)
    .where('c.deleted_at', 'is', null)
    .executeTakeFirst();
}
