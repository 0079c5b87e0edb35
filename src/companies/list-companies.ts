import type { Db } from '../db/connect.ts';
import { fetchPage, type ListSpec, parseListQuery } from '../http/list-query.ts';
import { caseMemberWalk } from '../http/pattern-walk.ts';
import { presentCompanyListItem } from './present.ts';

const TEXT_OPS = ['eq', 'not_eq', 'like', 'ilike'] as const;

export const companyListSpec: ListSpec = {
  filters: {
    name: { kind: 'text', ops: TEXT_OPS, column: 'co.name' },
    registration_number: { kind: 'text', ops: TEXT_OPS, column: 'co.registration_number' },
    country: { kind: 'text', ops: ['eq'], column: 'co.country', format: 'alpha-2' },
    case_id: { kind: 'uuid', ops: ['eq'], column: 'co.case_id' },
    created_at: { kind: 'date', column: 'co.created_at' },
    updated_at: { kind: 'date', column: 'co.updated_at' },
    last_activity_at: { kind: 'date', column: 'co.last_activity_at' },
  },
  sort: ['created_at', 'last_activity_at', 'name'],
  sortColumns: { created_at: 'co.created_at', last_activity_at: 'co.last_activity_at', name: 'co.name' },
  idColumn: 'co.id',
};

export async function listCompanies(db: Db, workspaceId: string, query: Record<string, unknown>) {
  const parsed = parseListQuery(companyListSpec, query);
  const members = db.selectFrom('companies as co').where('co.workspace_id', '=', workspaceId);
  const base = members.innerJoin('cases as c', 'c.id', 'co.case_id').where('c.deleted_at', 'is', null);
  const walk = caseMemberWalk(db, 'co', members.selectAll('co'));
  const { rows, pagination } = await fetchPage(
    companyListSpec,
    parsed,
    base,
    (qb) => qb.selectAll('co'),
    db,
    walk,
  );
  return { data: rows.map(presentCompanyListItem), pagination };
}
