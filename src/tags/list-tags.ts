import type { Db } from '../db/connect.ts';
import { fetchPage, type ListSpec, parseListQuery } from '../http/list-query.ts';
import { presentTag } from './present.ts';

export const tagListSpec: ListSpec = {
  filters: {
    // labels are case-insensitive (one tag per label whatever its case): `label=Gold` finds `gold`
    label: { kind: 'text', ops: ['eq', 'not_eq', 'like', 'ilike'], caseInsensitive: true },
    created_at: { kind: 'date' },
  },
  sort: ['created_at', 'label'],
  idColumn: 'id',
};

export async function listTags(db: Db, workspaceId: string, query: Record<string, unknown>) {
  const parsed = parseListQuery(tagListSpec, query);
  const base = db.selectFrom('tags').where('workspace_id', '=', workspaceId);
  const { rows, pagination } = await fetchPage(tagListSpec, parsed, base, (qb) => qb.selectAll());
  return {
    data: rows.map(presentTag),
    pagination,
  };
}
