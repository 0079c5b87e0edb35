import type { Db } from '../db/connect.ts';
import { applyFilters, applyList, type ListSpec, parseListQuery } from '../http/list-query.ts';
import { presentTag } from './present.ts';

export const tagListSpec: ListSpec = {
  filters: {
    label: { kind: 'text', ops: ['eq', 'not_eq', 'like', 'ilike'] },
    created_at: { kind: 'date' },
  },
  sort: ['created_at', 'label'],
  idColumn: 'id',
};

export async function listTags(db: Db, workspaceId: string, query: Record<string, unknown>) {
  const parsed = parseListQuery(tagListSpec, query);
  const base = db.selectFrom('tags').where('workspace_id', '=', workspaceId);
  const [rows, total] = await Promise.all([
    applyList(base.selectAll(), tagListSpec, parsed).execute(),
    applyFilters(
      base.select((eb) => eb.fn.countAll<string>().as('n')),
      parsed,
    ).executeTakeFirstOrThrow(),
  ]);
  return {
    data: rows.map(presentTag),
    pagination: { page: parsed.page, limit: parsed.limit, count: Number(total.n) },
  };
}
