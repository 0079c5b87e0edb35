import type { Db } from '../db/connect.ts';
import { fetchPage, type ListSpec, parseListQuery } from '../http/list-query.ts';
import { presentTemplate } from './present.ts';

export const templateListSpec: ListSpec = {
  filters: {
    name: { kind: 'text', ops: ['eq', 'not_eq', 'like', 'ilike'] },
    key: { kind: 'text', ops: ['eq', 'not_eq', 'like', 'ilike'] },
    case_auto_approval: { kind: 'set', ops: ['eq', 'not_eq'], values: ['true', 'false'] },
    created_at: { kind: 'date' },
    updated_at: { kind: 'date' },
  },
  sort: ['created_at', 'name', 'updated_at'],
  idColumn: 'id',
};

/** Live templates of the workspace; default order updated_at ascending (as the reference). */
export async function listTemplates(db: Db, workspaceId: string, query: Record<string, unknown>) {
  const parsed = parseListQuery(templateListSpec, query);
  const base = db
    .selectFrom('templates')
    .where('workspace_id', '=', workspaceId)
    .where('deleted_at', 'is', null);
  const { rows, pagination } = await fetchPage(templateListSpec, parsed, base, (qb) => qb.selectAll());
  return {
    data: rows.map(presentTemplate),
    pagination,
  };
}
