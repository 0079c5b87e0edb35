import { presentCase } from '../cases/present.ts';
import { lockCase, touchCase } from '../cases/repository.ts';
import type { Db } from '../db/connect.ts';
import { recordEvents } from '../events/record-event.ts';
import { badRequest, notFound } from '../http/errors.ts';
import { presentRelation } from './present.ts';
import { countRelationsTouching } from './repository.ts';
import { findCaseRelation } from './update-relation.ts';

/**
 * Refused when it would leave the source entity, or an affiliated target company, with no relation
 * at all (no orphans). The main company never counts as an orphan.
 */
export async function deleteRelation(db: Db, workspaceId: string, caseId: string, relationId: string) {
  if (!(await findCaseRelation(db, workspaceId, caseId, relationId))) throw notFound('Relation');
  await db.transaction().execute(async (trx) => {
    // the case first, as every write under a case does: one lock order, no deadlock with case writes
    if (!(await lockCase(trx, workspaceId, caseId))) throw notFound('Relation');
    // read again under the lock: a PATCH that moved the relation meanwhile changes which ends the
    // no-orphan rule must look at
    const found = await findCaseRelation(trx, workspaceId, caseId, relationId);
    if (!found) throw notFound('Relation');
    const ends = [found.from_company_id ?? found.from_individual_id, found.to_company_id] as string[];
    const mains = await trx
      .selectFrom('companies')
      .select('id')
      .where('id', 'in', ends)
      .where('type', '=', 'main')
      .execute();
    for (const end of ends) {
      if (mains.some((m) => m.id === end)) continue;
      if ((await countRelationsTouching(trx, end)) <= 1) {
        throw badRequest(
          `Deleting this relation would leave ${end === found.from_individual_id ? 'the individual' : 'the company'} ${end} with no relation`,
          'caseRelationId',
        );
      }
    }
    await trx.deleteFrom('relations').where('id', '=', found.id).execute();
    const touched = await touchCase(trx, caseId);
    await recordEvents(trx, workspaceId, [
      {
        type: 'Case.Updated',
        sub_event: 'Case.RelationsUpdated',
        case_id: caseId,
        payload: { case: presentCase(touched), case_relation: { ...presentRelation(found), deleted: true } },
      },
    ]);
  });
}
