import { randomUUID } from 'node:crypto';
import type { Static } from 'typebox';
import type { AppContext } from '../app-context.ts';
import { findMainCompanyId, lockCase, touchCase } from '../cases/repository.ts';
import { recordEvents } from '../events/record-event.ts';
import { ApiError, badRequest, notFound } from '../http/errors.ts';
import { addEntityRelations } from '../relations/add-entity-relations.ts';
import { relationsAddedEvents } from '../relations/relations-added-events.ts';
import { noteCreatedResource } from '../shared/request-scope.ts';
import { birthDateProblem } from './birth-date.ts';
import { individualView } from './individual-view.ts';
import { presentIndividual } from './present.ts';
import type { IndividualCreate } from './schemas.ts';
import { individualInsertRow } from './to-row.ts';

export async function createIndividual(
  ctx: AppContext,
  workspaceId: string,
  input: Static<typeof IndividualCreate>,
) {
  const born = birthDateProblem(input.birth_date, 'birth_date');
  if (born) throw new ApiError(400, born.message, [born]);
  return ctx.db.transaction().execute(async (trx) => {
    const c = await lockCase(trx, workspaceId, input.case_id);
    if (!c) throw notFound('Case', 'case_id');
    const mainId = await findMainCompanyId(trx, c.id);
    // a case with individuals has a main company, as POST /v1/cases requires (docs/case-graph.md)
    if (!mainId) {
      throw badRequest(
        'case_id: the case has no main company: create it (POST /v1/companies) before its individuals',
        'case_id',
      );
    }
    const id = randomUUID();
    noteCreatedResource(id);
    const toMain = (input.relations ?? []).find((r) => (r.to_company_id ?? mainId) === mainId);
    const row = await trx
      .insertInto('individuals')
      .values(
        individualInsertRow(
          input,
          { id, workspaceId, caseId: c.id },
          toMain ? { ...toMain, roles: toMain.roles } : {},
        ),
      )
      .returningAll()
      .executeTakeFirstOrThrow();
    const relations = await addEntityRelations(
      trx,
      { workspaceId, caseId: c.id, mainCompanyId: mainId },
      { kind: 'individual', id },
      input.relations ?? [],
    );
    const touched = await touchCase(trx, c.id);
    const individual = presentIndividual(row, relations);
    await recordEvents(trx, workspaceId, [
      { type: 'Individual.Created', case_id: c.id, payload: { individual } },
      ...relationsAddedEvents(touched, relations),
    ]);
    // the case's template follows: the new individual gets the checks it is a target of
    if (await ctx.hooks.afterCaseEntitiesChanged?.(trx, workspaceId, c.id, { added: id, created: true }))
      return individualView(trx, ctx, row);
    return individual;
  });
}
