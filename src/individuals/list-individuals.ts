import type { Db } from '../db/connect.ts';
import { fetchPage, type ListSpec, parseListQuery } from '../http/list-query.ts';
import { caseMemberWalk } from '../http/pattern-walk.ts';
import { presentIndividualListItem } from './present.ts';

const TEXT_OPS = ['eq', 'not_eq', 'like', 'ilike'] as const;

export const individualListSpec: ListSpec = {
  filters: {
    first_name: { kind: 'text', ops: TEXT_OPS, column: 'i.first_name' },
    last_name: { kind: 'text', ops: TEXT_OPS, column: 'i.last_name' },
    email: { kind: 'text', ops: TEXT_OPS, column: 'i.email' },
    birth_date: { kind: 'day', column: 'i.birth_date' },
    case_id: { kind: 'uuid', ops: ['eq'], column: 'i.case_id' },
    created_at: { kind: 'date', column: 'i.created_at' },
    updated_at: { kind: 'date', column: 'i.updated_at' },
    last_activity_at: { kind: 'date', column: 'i.last_activity_at' },
  },
  sort: ['created_at', 'last_activity_at', 'last_name', 'first_name'],
  sortColumns: {
    created_at: 'i.created_at',
    last_activity_at: 'i.last_activity_at',
    last_name: 'i.last_name',
    first_name: 'i.first_name',
  },
  idColumn: 'i.id',
};

export async function listIndividuals(db: Db, workspaceId: string, query: Record<string, unknown>) {
  const parsed = parseListQuery(individualListSpec, query);
  const members = db.selectFrom('individuals as i').where('i.workspace_id', '=', workspaceId);
  const base = members.innerJoin('cases as c', 'c.id', 'i.case_id').where('c.deleted_at', 'is', null);
  const walk = caseMemberWalk(db, 'i', members.selectAll('i'));
  const { rows, pagination } = await fetchPage(
    individualListSpec,
    parsed,
    base,
    (qb) => qb.selectAll('i'),
    db,
    walk,
  );
  return { data: rows.map(presentIndividualListItem), pagination };
}
