import { presentCase } from '../cases/present.ts';
import type { Db } from '../db/connect.ts';
import type { CaseRow, RelationRow } from '../db/schema.ts';
import type { DomainEvent } from '../events/record-event.ts';
import { presentRelation } from './present.ts';

/**
 * Deletes every relation touching an entity that is about to be deleted (as source or as target),
 * inside the caller's transaction, and returns them in creation order. The foreign keys would drop
 * them too, but silently: removing them here lets each one be announced as `DELETE
 * /v1/cases/{id}/relations/{id}` announces it, so a webhook consumer never keeps a relation whose
 * end is gone. The no-orphan rule of that endpoint does not apply: the entities left without a
 * relation stay in the case (docs/case-graph.md).
 */
export async function removeRelationsOf(trx: Db, entityId: string): Promise<RelationRow[]> {
  return trx
    .deleteFrom('relations')
    .where((eb) =>
      eb.or([
        eb('from_company_id', '=', entityId),
        eb('from_individual_id', '=', entityId),
        eb('to_company_id', '=', entityId),
      ]),
    )
    .returningAll()
    .execute()
    .then((rows) =>
      rows.sort((a, b) => +new Date(a.created_at) - +new Date(b.created_at) || a.id.localeCompare(b.id)),
    );
}

/** One `Case.RelationsUpdated` per removed relation, shaped as the relation delete endpoint's. */
export function relationsDeletedEvents(caseRow: CaseRow, removed: RelationRow[]): DomainEvent[] {
  const kase = presentCase(caseRow);
  return removed.map((r) => ({
    type: 'Case.Updated',
    sub_event: 'Case.RelationsUpdated',
    case_id: caseRow.id,
    payload: { case: kase, case_relation: { ...presentRelation(r), deleted: true } },
  }));
}
