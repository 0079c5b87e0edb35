import type { Db } from '../db/connect.ts';
import { fetchPage, type ListSpec, parseListQuery } from '../http/list-query.ts';
import { presentDocumentType } from './present.ts';
import { visibleTypes } from './repository.ts';

export const documentTypeListSpec: ListSpec = {
  filters: {
    label: { kind: 'text', ops: ['eq', 'not_eq', 'like', 'ilike'] },
    key: { kind: 'text', ops: ['eq', 'not_eq', 'like', 'ilike'] },
    created_at: { kind: 'date' },
    updated_at: { kind: 'date' },
  },
  sort: ['created_at', 'key', 'label', 'updated_at'],
  idColumn: 'id',
};

/** `GET /document_types`: built-in types and the workspace's own; archived ones only when asked. */
export async function listDocumentTypes(db: Db, workspaceId: string, query: Record<string, unknown>) {
  const { include_archived, ...rest } = query;
  const parsed = parseListQuery(documentTypeListSpec, rest);
  let base = visibleTypes(db, workspaceId);
  if (include_archived !== true) base = base.where('archived_at', 'is', null);
  const { rows, pagination } = await fetchPage(documentTypeListSpec, parsed, base, (qb) => qb.selectAll());
  return { data: rows.map(presentDocumentType), pagination };
}
