import type { RelationRow } from '../db/schema.ts';
import { iso } from '../shared/time.ts';

export function presentRelation(r: RelationRow) {
  return {
    id: r.id,
    from_company_id: r.from_company_id,
    from_individual_id: r.from_individual_id,
    to_company_id: r.to_company_id,
    voting_rights_percentage: r.voting_rights_percentage,
    ownership_percentage: r.ownership_percentage,
    roles: r.roles as ('legal_representative' | 'shareholder')[],
    position: r.position,
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
  };
}

export function presentRelationOfEntity(r: RelationRow) {
  const { from_company_id: _c, from_individual_id: _i, ...rest } = presentRelation(r);
  return rest;
}

/** Groups relations by their source entity id. */
export function relationsBySource(rows: RelationRow[]): Map<string, RelationRow[]> {
  const map = new Map<string, RelationRow[]>();
  for (const r of rows) {
    const key = (r.from_company_id ?? r.from_individual_id) as string;
    const list = map.get(key);
    if (list) list.push(r);
    else map.set(key, [r]);
  }
  return map;
}
