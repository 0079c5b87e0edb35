import { sql } from 'kysely';
import type { Db } from '../db/connect.ts';
import { fetchPage, type ListSpec, parseListQuery } from '../http/list-query.ts';
import { CHECK_STATUSES, CHECK_TYPES } from './envelope-schema.ts';
import { presentCheckEnvelope } from './present.ts';

export const checkListSpec: ListSpec = {
  filters: {
    individual_id: { kind: 'uuid', column: 'k.individual_id' },
    company_id: { kind: 'uuid', column: 'k.company_id' },
    case_id: { kind: 'uuid', column: 'k.case_id' },
    status: { kind: 'set', values: CHECK_STATUSES, column: 'k.status' },
    type: { kind: 'set', values: CHECK_TYPES, column: 'k.type' },
    created_at: { kind: 'date', column: 'k.created_at' },
    updated_at: { kind: 'date', column: 'k.updated_at' },
    last_activity_at: { kind: 'date', column: 'k.last_activity_at' },
  },
  sort: ['created_at', 'updated_at', 'last_activity_at'],
  sortColumns: {
    created_at: 'k.created_at',
    updated_at: 'k.updated_at',
    last_activity_at: 'k.last_activity_at',
  },
  idColumn: 'k.id',
  // the reference's default order for GET /v1/checks (walk 56-B)
};

/** Lists check envelopes (no `data`). Checks of not-relevant entities only with include_not_relevant. */
export async function listChecks(db: Db, workspaceId: string, query: Record<string, unknown>) {
  const parsed = parseListQuery(checkListSpec, query);
  let base = db
    .selectFrom('checks as k')
    .innerJoin('cases as c', 'c.id', 'k.case_id')
    .where('k.workspace_id', '=', workspaceId)
    .where('c.deleted_at', 'is', null);
  if (query.exclude_internal === true) base = base.where('k.is_internal', '=', false);
  if (query.include_not_relevant !== true) {
    base = base.where(
      sql<boolean>`coalesce(
        (select is_relevant from companies where id = k.company_id),
        (select is_relevant from individuals where id = k.individual_id))`,
    );
  }
  const { rows, pagination } = await fetchPage(checkListSpec, parsed, base, (qb) => qb.selectAll('k'), db);
  return {
    data: rows.map(presentCheckEnvelope),
    pagination,
  };
}
