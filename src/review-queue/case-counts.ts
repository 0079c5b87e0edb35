import { type TObject, type TSchema, Type } from 'typebox';
import { caseListSpec } from '../cases/list-cases.ts';
import { CASE_STATUSES } from '../cases/schemas.ts';
import type { Db } from '../db/connect.ts';
import { applyFilters, type ListSpec, listQuerySchema, parseListQuery } from '../http/list-query.ts';

/** The cases list's filters but status (the counts are per status). */
export const caseCountSpec: ListSpec = {
  ...caseListSpec,
  filters: Object.fromEntries(Object.entries(caseListSpec.filters).filter(([k]) => k !== 'status')),
};

/** The query string: the filters only (no sort, page or limit: there is no page). */
export function caseCountQuery(): TObject {
  const full = listQuerySchema(caseCountSpec);
  const { sort: _s, page: _p, limit: _l, ...props } = full.properties;
  const { patternProperties } = full as unknown as { patternProperties: Record<string, TSchema> };
  return Type.Object(props, { additionalProperties: false, patternProperties });
}

export const CaseCounts = Type.Object(
  {
    all: Type.Integer({ description: 'Cases matching the filters, every status' }),
    ...Object.fromEntries(CASE_STATUSES.map((s) => [s, Type.Integer()])),
  },
  { description: 'How many cases match the filters, in all and per status' },
);

/** GET /v1/case-counts: one grouped count instead of one list call per status. */
export async function countCases(db: Db, workspaceId: string, query: Record<string, unknown>) {
  const parsed = parseListQuery(caseCountSpec, query);
  const rows = await applyFilters(
    db
      .selectFrom('cases')
      .where('workspace_id', '=', workspaceId)
      .where('deleted_at', 'is', null)
      .select((eb) => ['status', eb.fn.countAll<string>().as('n')])
      .groupBy('status'),
    parsed,
  ).execute();
  const out: Record<string, number> = { all: 0, ...Object.fromEntries(CASE_STATUSES.map((s) => [s, 0])) };
  for (const r of rows) {
    out[r.status] = Number(r.n);
    out.all += Number(r.n);
  }
  return out as { all: number } & Record<string, number>;
}
