import type { Db } from '../db/connect.ts';
import { fetchPage, type ListSpec, parseListQuery } from '../http/list-query.ts';
import { nestedUsersById } from '../users/nested-user.ts';
import { ACTIVITY_TYPES } from './activity-types.ts';
import { presentActivity } from './present.ts';

export const activityListSpec: ListSpec = {
  filters: {
    case_id: { kind: 'uuid', ops: ['eq'] },
    individual_id: { kind: 'uuid', ops: ['eq'] },
    company_id: { kind: 'uuid', ops: ['eq'] },
    type: { kind: 'set', column: 'activity_type', values: ACTIVITY_TYPES },
    author_id: { kind: 'uuid', column: 'actor_id', ops: ['eq'] },
    created_at: { kind: 'date', ops: ['eq', 'gte', 'lte', 'gt', 'lt'] },
  },
  sort: ['created_at'],
  // events of one transaction share created_at: commit order breaks the tie
  idColumn: 'seq',
};

/**
 * The audit trail: the workspace's events that are reference activities (activity_type set when
 * recorded), through the partial indexes of migration 0010.
 */
export async function listActivities(db: Db, workspaceId: string, query: Record<string, unknown>) {
  const parsed = parseListQuery(activityListSpec, query);
  const base = db
    .selectFrom('events')
    .where('workspace_id', '=', workspaceId)
    .where('activity_type', 'is not', null)
    .where('case_id', 'is not', null);
  const { rows, pagination } = await fetchPage(
    activityListSpec,
    parsed,
    base,
    (qb) =>
      qb.select([
        'id',
        'case_id',
        'company_id',
        'individual_id',
        'activity_type',
        'actor_type',
        'actor_id',
        'payload',
        'activity_changes',
        'created_at',
      ]),
    db,
  );
  // the users behind `user` activities of the page, in one query
  const users = await nestedUsersById(
    db,
    workspaceId,
    rows.filter((r) => r.actor_type === 'user').map((r) => r.actor_id),
  );
  return { data: rows.map((r) => presentActivity(r, users)), pagination };
}
