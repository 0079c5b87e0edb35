import type { Db } from '../db/connect.ts';
import { fetchPage, type ListSpec, parseListQuery } from '../http/list-query.ts';
import { presentTemplateItem } from './present.ts';
import { versionsOf } from './repository.ts';
import { TEMPLATE_KINDS } from './schemas.ts';

export const documentTemplateListSpec: ListSpec = {
  filters: {
    key: { kind: 'text', ops: ['eq', 'not_eq', 'like', 'ilike'] },
    name: { kind: 'text', ops: ['eq', 'not_eq', 'like', 'ilike'] },
    kind: { kind: 'set', values: TEMPLATE_KINDS },
    created_at: { kind: 'date' },
    updated_at: { kind: 'date' },
  },
  sort: ['created_at', 'updated_at', 'key', 'name'],
  idColumn: 'id',
};

/** `GET /document-templates`: the service's list envelope; versions summarised (numbers in use). */
export async function listDocumentTemplates(db: Db, workspaceId: string, query: Record<string, unknown>) {
  const parsed = parseListQuery(documentTemplateListSpec, query);
  const base = db.selectFrom('document_templates').where('workspace_id', '=', workspaceId);
  const { rows, pagination } = await fetchPage(documentTemplateListSpec, parsed, base, (qb) =>
    qb.selectAll(),
  );
  const versions = await versionsOf(
    db,
    rows.map((r) => r.id),
  );
  return {
    data: rows.map((r) =>
      presentTemplateItem(
        r,
        versions.filter((v) => v.template_id === r.id),
      ),
    ),
    pagination,
  };
}
