import type { Db } from '../db/connect.ts';
import { fetchPage, type ListSpec, parseListQuery } from '../http/list-query.ts';
import { withTagSpellings } from '../tags/tag-filter-spellings.ts';
import { presentCase } from './present.ts';
import { CASE_STATUSES } from './schemas.ts';

export const caseListSpec: ListSpec = {
  filters: {
    external_id: { kind: 'text' },
    assignee_id: { kind: 'text' },
    name: { kind: 'text', ops: ['eq', 'not_eq', 'like', 'ilike', 'search'] },
    tags: { kind: 'array' },
    status: { kind: 'set', values: CASE_STATUSES },
    created_at: { kind: 'date' },
    updated_at: { kind: 'date' },
    last_activity_at: { kind: 'date' },
  },
  sort: ['created_at', 'last_activity_at', 'name'],
  idColumn: 'id',
};

export async function listCases(db: Db, workspaceId: string, query: Record<string, unknown>) {
  const parsed = await withTagSpellings(db, workspaceId, parseListQuery(caseListSpec, query));
  const base = db.selectFrom('cases').where('workspace_id', '=', workspaceId).where('deleted_at', 'is', null);
  const { rows, pagination } = await fetchPage(caseListSpec, parsed, base, (qb) => qb.selectAll(), db, {
    alias: 'cases',
    rows: base.selectAll(),
    over: (from) => db.selectFrom(from),
  });
  // custom properties are shown only when asked for (include_custom_properties, default false)
  const withCustom = query.include_custom_properties === true;
  return {
    data: rows.map((row) => {
      const c = presentCase(row);
      if (withCustom) return c;
      const { custom_properties: _omitted, ...rest } = c;
      return rest;
    }),
    pagination,
  };
}
