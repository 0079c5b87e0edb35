import { sql } from 'kysely';
import { caseReportEntries } from '../../case-reports/case-documents.ts';
import { documentOrderEntries } from '../../company-data/document-orders/case-documents.ts';
import type { Db } from '../../db/connect.ts';
import type { CheckRow } from '../../db/schema.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import { UUID_RE } from '../../shared/pg-errors.ts';
import { iso } from '../../shared/time.ts';
import { CASE_DOCUMENT_TYPES, type CaseDocumentOut, type CaseDocumentType } from './schemas.ts';

export interface CaseDocumentsQueryIn {
  company_id?: string;
  individual_id?: string;
  type?: string;
  include_check_history?: boolean;
  include_not_relevant?: boolean;
}

type FileCheckType = 'document' | 'id_document' | 'id_verification' | 'electronic_signature';
const FILE_CHECK_TYPES: readonly FileCheckType[] = [
  'document',
  'id_document',
  'id_verification',
  'electronic_signature',
];

type Data = Record<string, unknown>;
const obj = (v: unknown): Data => (v && typeof v === 'object' ? (v as Data) : {});
const ids = (...values: unknown[]): string[] =>
  values.flat().filter((v): v is string => typeof v === 'string' && v.length > 0);

/** Where each check type keeps its file ids in `data` (spec, File). */
export function checkFileIds(type: string, data: Data): string[] {
  const info = obj(data.information);
  switch (type) {
    case 'id_document':
      return ids(info.front_file_id, info.back_file_id);
    case 'document':
      return ids(Array.isArray(data.document_file_ids) ? data.document_file_ids : []);
    case 'id_verification':
      return ids(
        info.front_file_id,
        info.back_file_id,
        info.face_file_id,
        info.video_file_id,
        info.signature_file_id,
        obj(data.vendor).report_file_id,
      );
    case 'electronic_signature':
      return ids(info.file_id, info.signed_file_id, info.audit_trail_id);
    default:
      return [];
  }
}

const LABELS: Record<FileCheckType, string> = {
  document: 'Document',
  id_document: 'ID document',
  id_verification: 'ID verification',
  electronic_signature: 'Electronic signature',
};

function documentName(type: FileCheckType, subtype: string | null, data: Data): string {
  if (type === 'id_document') {
    const docType = obj(data.information).document_type;
    return typeof docType === 'string' ? `ID document (${docType.replaceAll('_', ' ')})` : LABELS[type];
  }
  // a document check: its document type's label as the check recorded it
  const label = obj(obj(data.settings).document_type).label;
  if (type === 'document' && typeof label === 'string' && label) return label;
  const key = subtype?.split(':')[1];
  return key ? `${LABELS[type]} (${key})` : LABELS[type];
}

/** The requested document types (comma-separated); every one must be known, else 400 naming `type`. */
function parseTypes(raw: string | undefined): Set<CaseDocumentType> {
  if (raw === undefined) return new Set(CASE_DOCUMENT_TYPES);
  const parts = raw.split(',').map((s) => s.trim());
  if (parts.every((p) => p === '')) throw badRequest('type must list at least one document type', 'type');
  // an empty entry (`type=a,` or `type=a,,b`) is refused as the list filters refuse `status.in=open,`
  if (parts.includes(''))
    throw badRequest(
      `type has an empty value (item ${parts.indexOf('') + 1} of ${parts.length}: a comma too many?)`,
      'type',
    );
  for (const p of parts) {
    if (!(CASE_DOCUMENT_TYPES as readonly string[]).includes(p))
      throw badRequest(`type ${p} is not one of ${CASE_DOCUMENT_TYPES.join(', ')}`, 'type');
  }
  return new Set(parts as CaseDocumentType[]);
}

interface HistoryEntry {
  attempt?: number;
  data?: Data;
  ended_at?: string;
}

/**
 * `GET /cases/{id}/documents`: the files of the case's checks, one entry per check (its current
 * attempt) and, with include_check_history, one per earlier attempt kept in the check's history.
 * Entities marked not relevant are left out unless include_not_relevant. Completed document orders
 * follow, one entry each (company documents: none with an individual_id filter), then generated
 * case reports (whole-case documents: none with a company_id or individual_id filter).
 */
export async function listCaseDocuments(
  db: Db,
  workspaceId: string,
  caseId: string,
  query: CaseDocumentsQueryIn,
): Promise<{ data: CaseDocumentOut[] }> {
  const types = parseTypes(query.type);
  const found = UUID_RE.test(caseId)
    ? await db
        .selectFrom('cases')
        .select('id')
        .where('workspace_id', '=', workspaceId)
        .where('id', '=', caseId)
        .where('deleted_at', 'is', null)
        .executeTakeFirst()
    : undefined;
  if (!found) throw notFound('Case');
  const checkTypes = FILE_CHECK_TYPES.filter((t) => types.has(`check__${t}`));
  const orders = types.has('document_order')
    ? await documentOrderEntries(db, workspaceId, caseId, query)
    : [];
  const reports = types.has('case_report') ? await caseReportEntries(db, workspaceId, caseId, query) : [];
  if (checkTypes.length === 0) return { data: [...orders, ...reports] };
  let q = db
    .selectFrom('checks as k')
    .selectAll('k')
    .where('k.workspace_id', '=', workspaceId)
    .where('k.case_id', '=', caseId)
    .where('k.type', 'in', checkTypes);
  if (query.company_id) q = q.where('k.company_id', '=', query.company_id);
  if (query.individual_id) q = q.where('k.individual_id', '=', query.individual_id);
  if (query.include_not_relevant !== true) {
    q = q.where(
      sql<boolean>`coalesce(
        (select is_relevant from companies where id = k.company_id),
        (select is_relevant from individuals where id = k.individual_id))`,
    );
  }
  const rows: CheckRow[] = await q.orderBy('k.created_at').orderBy('k.id').execute();
  const out: CaseDocumentOut[] = [];
  for (const row of rows) {
    const type = row.type as FileCheckType;
    const entity = row.company_id
      ? { company_id: row.company_id }
      : { individual_id: row.individual_id as string };
    const entry = (data: Data, version: 'current' | 'history', updatedAt: string) => {
      const fileIds = checkFileIds(type, data);
      if (fileIds.length === 0) return;
      const documentTypeKey = type === 'document' && row.subtype ? row.subtype.split(':')[1] : undefined;
      out.push({
        ...entity,
        name: documentName(type, row.subtype, data),
        type: `check__${type}`,
        check: {
          id: row.id,
          subtype: row.subtype,
          ...(documentTypeKey ? { document_type_key: documentTypeKey } : {}),
          type,
          version,
        },
        file_ids: fileIds,
        updated_at: updatedAt,
      });
    };
    entry(row.data as Data, 'current', iso(row.updated_at));
    if (query.include_check_history) {
      const history = (Array.isArray(row.history) ? row.history : []) as HistoryEntry[];
      for (const h of [...history].reverse()) {
        entry(obj(h.data), 'history', h.ended_at ?? iso(row.updated_at));
      }
    }
  }
  return { data: [...out, ...orders, ...reports] };
}
