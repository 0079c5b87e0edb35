import { presentCase } from '../cases/present.ts';
import type { CaseRow, RelationRow } from '../db/schema.ts';
import type { DomainEvent } from '../events/record-event.ts';
import { presentRelation } from './present.ts';

/**
 * One `Case.RelationsUpdated` per relation a new company or individual brings into an existing case,
 * shaped as the relation create endpoint's: the case's relations changed as much as when they are
 * added one by one (a webhook following relations saw only `Individual.Created`).
 */
export function relationsAddedEvents(caseRow: CaseRow, added: RelationRow[]): DomainEvent[] {
  const kase = presentCase(caseRow);
  return added.map((r) => ({
    type: 'Case.Updated',
    sub_event: 'Case.RelationsUpdated',
    case_id: caseRow.id,
    payload: { case: kase, case_relation: presentRelation(r) },
  }));
}
