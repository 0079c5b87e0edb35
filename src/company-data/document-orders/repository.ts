import { type Insertable, sql } from 'kysely';
import type { Db } from '../../db/connect.ts';
import type { DocumentOrderRow, DocumentOrdersTable } from '../../db/schema.ts';
import { UUID_RE } from '../../shared/pg-errors.ts';

export type NewDocumentOrder = Pick<
  Insertable<DocumentOrdersTable>,
  | 'id'
  | 'workspace_id'
  | 'case_id'
  | 'company_id'
  | 'vendor'
  | 'country'
  | 'registry_ref'
  | 'product_ref'
  | 'name'
  | 'price_tier'
>;

export async function insertDocumentOrder(trx: Db, row: NewDocumentOrder): Promise<DocumentOrderRow> {
  return trx.insertInto('document_orders').values(row).returningAll().executeTakeFirstOrThrow();
}

/** An order of the workspace whose case is live (a soft-deleted case hides its orders). */
export async function findDocumentOrder(
  db: Db,
  workspaceId: string,
  id: string,
): Promise<DocumentOrderRow | undefined> {
  if (!UUID_RE.test(id)) return undefined;
  return db
    .selectFrom('document_orders as o')
    .innerJoin('cases as c', 'c.id', 'o.case_id')
    .selectAll('o')
    .where('o.workspace_id', '=', workspaceId)
    .where('o.id', '=', id)
    .where('c.deleted_at', 'is', null)
    .executeTakeFirst();
}

/** The order under a row lock (the job's state changes are serialised by it). */
export async function lockDocumentOrder(trx: Db, id: string): Promise<DocumentOrderRow | undefined> {
  return trx.selectFrom('document_orders').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

export type OrderChange = Partial<Pick<DocumentOrderRow, 'status' | 'file_id' | 'failure_reason'>> & {
  bumpAttempts?: boolean;
};

export async function updateDocumentOrder(
  trx: Db,
  id: string,
  change: OrderChange,
): Promise<DocumentOrderRow> {
  const { bumpAttempts, ...fields } = change;
  return trx
    .updateTable('document_orders')
    .set({
      ...fields,
      ...(bumpAttempts ? { attempts: sql<number>`attempts + 1` } : {}),
      updated_at: sql`now()`,
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A company's orders, oldest first. */
export async function documentOrdersOfCompany(db: Db, companyId: string): Promise<DocumentOrderRow[]> {
  return db
    .selectFrom('document_orders')
    .selectAll()
    .where('company_id', '=', companyId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** Completed orders of a case (the case documents list), relevant companies only unless asked. */
export async function completedOrdersOfCase(
  db: Db,
  workspaceId: string,
  caseId: string,
  opts: { companyId?: string; includeNotRelevant: boolean },
): Promise<DocumentOrderRow[]> {
  let q = db
    .selectFrom('document_orders as o')
    .innerJoin('companies as co', 'co.id', 'o.company_id')
    .selectAll('o')
    .where('o.workspace_id', '=', workspaceId)
    .where('o.case_id', '=', caseId)
    .where('o.status', '=', 'completed')
    .where('o.file_id', 'is not', null);
  if (opts.companyId) q = q.where('o.company_id', '=', opts.companyId);
  if (!opts.includeNotRelevant) q = q.where('co.is_relevant', '=', true);
  return q.orderBy('o.created_at').orderBy('o.id').execute();
}
