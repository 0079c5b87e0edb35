import { sql } from 'kysely';
import type { Static } from 'typebox';
import type { AppContext } from '../app-context.ts';
import { presentCase } from '../cases/present.ts';
import { findInLiveCase, lockCase, touchCase } from '../cases/repository.ts';
import type { Db } from '../db/connect.ts';
import { updateIfChanged } from '../db/update-if-changed.ts';
import { recordEvents } from '../events/record-event.ts';
import { badRequest, notFound } from '../http/errors.ts';
import { isUniqueViolation } from '../shared/pg-errors.ts';
import { presentRelation } from './present.ts';
import { countRelationsTouching } from './repository.ts';
import type { RelationUpdate } from './schemas.ts';

export const findCaseRelation = (db: Db, workspaceId: string, caseId: string, relationId: string) =>
  findInLiveCase(db, 'relations', workspaceId, relationId, { caseId });

export async function updateRelation(
  ctx: AppContext,
  workspaceId: string,
  caseId: string,
  relationId: string,
  input: Static<typeof RelationUpdate>,
) {
  if (!(await findCaseRelation(ctx.db, workspaceId, caseId, relationId))) throw notFound('Relation');
  try {
    return await ctx.db.transaction().execute(async (trx) => {
      // the case first, as every write under a case does: one lock order, no deadlock with case writes
      if (!(await lockCase(trx, workspaceId, caseId))) throw notFound('Relation');
      // read again under the lock: a concurrent PATCH or delete of this relation came first
      const found = await findCaseRelation(trx, workspaceId, caseId, relationId);
      if (!found) throw notFound('Relation');
      if (input.to_company_id !== undefined && input.to_company_id !== found.to_company_id) {
        const target = await trx
          .selectFrom('companies')
          .select('id')
          .where('case_id', '=', caseId)
          .where('id', '=', input.to_company_id)
          .executeTakeFirst();
        if (!target) throw notFound('Company');
        if (input.to_company_id === found.from_company_id) {
          throw badRequest('A company cannot be related to itself', 'to_company_id');
        }
        // moving the relation away from its target is deleting it there: the no-orphan rule of a
        // relation delete applies to the company it leaves (the main company never counts)
        const left = await trx
          .selectFrom('companies')
          .select('type')
          .where('id', '=', found.to_company_id)
          .executeTakeFirst();
        if (left && left.type !== 'main' && (await countRelationsTouching(trx, found.to_company_id)) <= 1) {
          throw badRequest(
            `Moving this relation would leave the company ${found.to_company_id} with no relation`,
            'to_company_id',
          );
        }
      }
      const set: Record<string, unknown> = {};
      for (const k of [
        'voting_rights_percentage',
        'ownership_percentage',
        'roles',
        'position',
        'to_company_id',
      ] as const) {
        if (input[k] !== undefined) set[k] = input[k];
      }
      const row = await updateIfChanged(trx, 'relations', found.id, set, { updated_at: sql`now()` });
      // the values it already has: no change, so no stamp, no event, no template run (a no-op)
      if (!row) return presentRelation(found);
      const touched = await touchCase(trx, caseId);
      const relation = presentRelation(row);
      await recordEvents(trx, workspaceId, [
        {
          type: 'Case.Updated',
          sub_event: 'Case.RelationsUpdated',
          case_id: caseId,
          payload: { case: presentCase(touched), case_relation: relation },
        },
      ]);
      // a role gained (legal representative) may make the source a target of the case's template:
      // it gets the checks it lacks, as after a relation added (a refusal undoes the whole update)
      await ctx.hooks.afterCaseEntitiesChanged?.(trx, workspaceId, caseId, { before: found, after: row });
      return relation;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw badRequest('This relation already exists', 'to_company_id');
    throw err;
  }
}
