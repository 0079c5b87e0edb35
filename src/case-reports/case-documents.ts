import type { CaseDocumentOut } from '../cases/documents/schemas.ts';
import type { Db } from '../db/connect.ts';
import { iso } from '../shared/time.ts';
import { generatedReportsOfCase } from './repository.ts';

/**
 * The case documents (`GET /cases/{id}/documents`, type `case_report`) of a case's generated reports,
 * one entry each. Reports are of the whole case: none when filtering by company or individual.
 */
export async function caseReportEntries(
  db: Db,
  workspaceId: string,
  caseId: string,
  query: { company_id?: string; individual_id?: string },
): Promise<CaseDocumentOut[]> {
  if (query.company_id || query.individual_id) return [];
  const rows = await generatedReportsOfCase(db, workspaceId, caseId);
  return rows.map((r) => ({
    name: `Case report (${r.timezone})`,
    type: 'case_report' as const,
    file_ids: [r.file_id as string],
    updated_at: iso(r.generated_at as Date),
  }));
}
