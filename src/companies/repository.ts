import type { Db } from '../db/connect.ts';
import type { CompanyRow } from '../db/schema.ts';
import { UUID_RE } from '../shared/pg-errors.ts';

/** A company of the workspace whose case is not deleted. */
export async function findCompany(db: Db, workspaceId: string, id: string): Promise<CompanyRow | undefined> {
  if (!UUID_RE.test(id)) return undefined;
  return db
    .selectFrom('companies as co')
    .innerJoin('cases as c', 'c.id', 'co.case_id')
    .selectAll('co')
    .where('co.workspace_id', '=', workspaceId)
    .where('co.id', '=', id)
    .where('c.deleted_at', 'is', null)
    .executeTakeFirst();
}
