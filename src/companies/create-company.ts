import { randomUUID } from 'node:crypto';
import type { Static } from 'typebox';
import type { AppContext } from '../app-context.ts';
import { findMainCompanyId, lockCase, touchCase } from '../cases/repository.ts';
import type { Db } from '../db/connect.ts';
import type { CompanyRow } from '../db/schema.ts';
import { recordEvents } from '../events/record-event.ts';
import { badRequest, notFound } from '../http/errors.ts';
import { addEntityRelations } from '../relations/add-entity-relations.ts';
import { relationsAddedEvents } from '../relations/relations-added-events.ts';
import { noteCreatedResource } from '../shared/request-scope.ts';
import { companyView } from './company-view.ts';
import { presentCompany } from './present.ts';
import type { CompanyCreate } from './schemas.ts';
import { companyInsertRow } from './to-row.ts';

/**
 * `afterInsert` runs in the transaction once the company and its event are written (a registry
 * import links it and adds its officers); true when it changed what the response shows.
 */
export async function createCompany(
  ctx: AppContext,
  workspaceId: string,
  input: Static<typeof CompanyCreate>,
  afterInsert?: (trx: Db, row: CompanyRow) => Promise<boolean>,
) {
  return ctx.db.transaction().execute(async (trx) => {
    const c = await lockCase(trx, workspaceId, input.case_id);
    if (!c) throw notFound('Case', 'case_id');
    const type = input.type ?? 'main';
    const mainId = await findMainCompanyId(trx, c.id);
    if (type === 'main' && mainId) {
      throw badRequest('type: the case already has a main company (type defaults to main)', 'type');
    }
    // as the reference says, and as POST /v1/cases refuses the same graph (docs/case-graph.md)
    if (type === 'affiliated' && !mainId) {
      throw badRequest(
        'type: the case has no main company: create its main company (type main) before an affiliated one',
        'type',
      );
    }
    const id = randomUUID();
    noteCreatedResource(id);
    const row = await trx
      .insertInto('companies')
      .values(companyInsertRow(input, { id, workspaceId, caseId: c.id, type }))
      .returningAll()
      .executeTakeFirstOrThrow();
    const relations = await addEntityRelations(
      trx,
      { workspaceId, caseId: c.id, mainCompanyId: type === 'main' ? undefined : mainId },
      { kind: 'company', id },
      input.relations ?? [],
    );
    const touched = await touchCase(trx, c.id);
    const company = presentCompany(row, relations);
    await recordEvents(trx, workspaceId, [
      { type: 'Company.Created', case_id: c.id, payload: { company } },
      ...relationsAddedEvents(touched, relations),
    ]);
    const extended = afterInsert ? await afterInsert(trx, row) : false;
    // the case's template follows: the new company gets the checks it is a target of
    const templated = await ctx.hooks.afterCaseEntitiesChanged?.(trx, workspaceId, c.id, {
      added: id,
      created: true,
    });
    if (templated || extended) return companyView(trx, ctx, row);
    return company;
  });
}
