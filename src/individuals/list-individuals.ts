import type { AliasedSelectQueryBuilder } from 'kysely';
import type { Db } from '../db/connect.ts';
import type { IndividualRow } from '../db/schema.ts';
import { fetchPage, type ListSpec, parseListQuery } from '../http/list-query.ts';
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
  const base = db
    .selectFrom('individuals as i')
    .innerJoin('cases as c', 'c.id', 'i.case_id')
    .where('i.workspace_id', '=', workspaceId)
    .where('c.deleted_at', 'is', null);
  const { rows, pagination } = await fetchPage(
    individualListSpec,
    parsed,
    base,
    (qb) => qb.selectAll('i'),
    db,
    {
      alias: 'i',
      rows: db.selectFrom('individuals as i').selectAll('i').where('i.workspace_id', '=', workspaceId),
      over: (from) =>
        db
          .selectFrom(from as AliasedSelectQueryBuilder<IndividualRow, 'i'>)
          .innerJoin('cases as c', 'c.id', 'i.case_id')
          .where('c.deleted_at', 'is', null),
    },
  );
  return {
    data: rows.map(presentIndividualListItem),
    pagination,
  };
}
