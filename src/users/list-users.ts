import type { Db } from '../db/connect.ts';
import { fetchPage, type ListSpec, parseListQuery } from '../http/list-query.ts';
import { presentUser } from './present.ts';

/** The reference lists users in creation order, with no filter but include_suspended. */
const userListSpec: ListSpec = { filters: {}, sort: ['created_at'], idColumn: 'id' };

export async function listUsers(db: Db, workspaceId: string, query: Record<string, unknown>) {
  const parsed = parseListQuery(userListSpec, query);
  let base = db.selectFrom('users').where('workspace_id', '=', workspaceId);
  if (query.include_suspended !== true) base = base.where('suspended_at', 'is', null);
  const { rows, pagination } = await fetchPage(userListSpec, parsed, base, (qb) => qb.selectAll());
  return { data: rows.map(presentUser), pagination };
}
