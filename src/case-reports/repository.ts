import type { Insertable } from 'kysely';
import type { Db } from '../db/connect.ts';
import type { CaseReportRow, CaseReportsTable } from '../db/schema.ts';

export async function insertCaseReport(
  trx: Db,
  row: Pick<Insertable<CaseReportsTable>, 'id' | 'workspace_id' | 'case_id' | 'timezone' | 'base_url'>,
): Promise<CaseReportRow> {
  return trx.insertInto('case_reports').values(row).returningAll().executeTakeFirstOrThrow();
}

/** The report, locked for the transaction (its job's runs settle it one at a time). */
export async function lockCaseReport(trx: Db, id: string): Promise<CaseReportRow | undefined> {
  return trx.selectFrom('case_reports').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

export async function updateCaseReport(
  trx: Db,
  id: string,
  change: { status: 'generated' | 'failed'; file_id?: string; generated_at?: Date; error?: string },
): Promise<CaseReportRow> {
  return trx
    .updateTable('case_reports')
    .set({
      status: change.status,
      file_id: change.file_id ?? null,
      generated_at: change.generated_at ?? null,
      error: change.error ?? null,
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Generated reports of a case, oldest first. */
export async function generatedReportsOfCase(db: Db, workspaceId: string, caseId: string) {
  return db
    .selectFrom('case_reports')
    .select(['id', 'file_id', 'generated_at', 'timezone'])
    .where('workspace_id', '=', workspaceId)
    .where('case_id', '=', caseId)
    .where('status', '=', 'generated')
    .where('file_id', 'is not', null)
    .orderBy('generated_at')
    .orderBy('id')
    .execute();
}
