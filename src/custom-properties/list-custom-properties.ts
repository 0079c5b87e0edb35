import type { Db } from '../db/connect.ts';
import { fetchPage, type ListSpec, parseListQuery } from '../http/list-query.ts';
import { definitionsQuery } from './derived-definitions.ts';
import { presentDefinition } from './present.ts';
import type { TargetEntity } from './schemas.ts';

const text = { kind: 'text', ops: ['eq', 'not_eq', 'like', 'ilike'] } as const;
export const customPropertyListSpec: ListSpec = {
  filters: { label: text, key: text, created_at: { kind: 'date' }, updated_at: { kind: 'date' } },
  sort: ['created_at', 'key', 'label'],
  idColumn: 'key',
};

/**
 * The definitions of one entity kind. `include_archived` is accepted for compatibility and changes
 * nothing: derived definitions are never archived.
 */
export async function listCustomProperties(
  db: Db,
  workspaceId: string,
  target: TargetEntity,
  query: Record<string, unknown>,
) {
  const parsed = parseListQuery(customPropertyListSpec, query);
  const base = db.selectFrom(definitionsQuery(workspaceId, target).as('cp'));
  const { rows, pagination } = await fetchPage(customPropertyListSpec, parsed, base, (qb) => qb.selectAll());
  return { data: rows.map((r) => presentDefinition(r, target)), pagination };
}
