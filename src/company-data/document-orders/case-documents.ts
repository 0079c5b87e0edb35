import type { CaseDocumentOut } from '../../cases/documents/schemas.ts';
import type { Db } from '../../db/connect.ts';
import { iso } from '../../shared/time.ts';
import { completedOrdersOfCase } from './repository.ts';

/**
 * The case documents (`GET /cases/{id}/documents`, type `document_order`) of a case's completed
 * document orders: one entry per order, its file to download with `GET /v1/files/{id}`.
 */
export async function documentOrderEntries(
  db: Db,
  workspaceId: string,
  caseId: string,
  query: { company_id?: string; individual_id?: string; include_not_relevant?: boolean },
): Promise<CaseDocumentOut[]> {
  // orders are placed for companies: an individual has none
  if (query.individual_id) return [];
  const rows = await completedOrdersOfCase(db, workspaceId, caseId, {
    companyId: query.company_id,
    includeNotRelevant: query.include_not_relevant === true,
  });
  return rows.map((o) => ({
    company_id: o.company_id,
    name: o.name,
    type: 'document_order' as const,
    document_order: { id: o.id },
    file_ids: [o.file_id as string],
    updated_at: iso(o.updated_at),
  }));
}
