import { randomUUID } from 'node:crypto';
import type { Static } from 'typebox';
import type { AppContext } from '../app-context.ts';
import { presentCase } from '../cases/present.ts';
import { findMainCompanyId, lockCase, touchCase } from '../cases/repository.ts';
import type { Db } from '../db/connect.ts';
import { recordEvents } from '../events/record-event.ts';
import { ApiError, badRequest, notFound } from '../http/errors.ts';
import { isUniqueViolation } from '../shared/pg-errors.ts';
import { presentRelation } from './present.ts';
import type { RelationCreate } from './schemas.ts';

async function caseCompanyExists(trx: Db, caseId: string, companyId: string) {
  return !!(await trx
    .selectFrom('companies')
    .select('id')
    .where('case_id', '=', caseId)
    .where('id', '=', companyId)
    .executeTakeFirst());
}

export async function createRelation(
  ctx: AppContext,
  workspaceId: string,
  caseId: string,
  input: Static<typeof RelationCreate>,
) {
  const hasCompany = input.from_company_id !== undefined;
  const hasIndividual = input.from_individual_id !== undefined;
  if (hasCompany === hasIndividual) {
    throw new ApiError(400, 'Give exactly one of from_company_id and from_individual_id', [
      {
        path: 'from_company_id',
        message: 'exactly one of from_company_id and from_individual_id is required',
      },
    ]);
  }
  try {
    return await ctx.db.transaction().execute(async (trx) => {
      const c = await lockCase(trx, workspaceId, caseId);
      if (!c) throw notFound('Case');
      const mainId = await findMainCompanyId(trx, c.id);
      // the spec's rule, and the reference's 400: a case must have its main company before any
      // relation, even one that names its target (a graph of affiliates around no main company)
      if (!mainId) {
        throw badRequest(
          'The case has no main company: add its main company before any relation',
          input.to_company_id ? 'caseId' : 'to_company_id',
        );
      }
      if (hasCompany) {
        if (!(await caseCompanyExists(trx, c.id, input.from_company_id as string)))
          throw notFound('Company', 'from_company_id');
      } else {
        const found = await trx
          .selectFrom('individuals')
          .select('id')
          .where('case_id', '=', c.id)
          .where('id', '=', input.from_individual_id as string)
          .executeTakeFirst();
        if (!found) throw notFound('Individual', 'from_individual_id');
      }
      const target = (input.to_company_id ?? mainId) as string;
      if (input.to_company_id && !(await caseCompanyExists(trx, c.id, target)))
        throw notFound('Company', 'to_company_id');
      if (target === input.from_company_id) {
        throw badRequest('A company cannot be related to itself', 'to_company_id');
      }
      const row = await trx
        .insertInto('relations')
        .values({
          id: randomUUID(),
          workspace_id: workspaceId,
          case_id: c.id,
          from_company_id: input.from_company_id ?? null,
          from_individual_id: input.from_individual_id ?? null,
          to_company_id: target,
          voting_rights_percentage: input.voting_rights_percentage ?? null,
          ownership_percentage: input.ownership_percentage ?? null,
          roles: input.roles ?? [],
          position: input.position ?? null,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      const touched = await touchCase(trx, c.id);
      const relation = presentRelation(row);
      await recordEvents(trx, workspaceId, [
        {
          type: 'Case.Updated',
          sub_event: 'Case.RelationsUpdated',
          case_id: c.id,
          payload: { case: presentCase(touched), case_relation: relation },
        },
      ]);
      // a new role (legal representative, shareholder...) may make the source a template target
      await ctx.hooks.afterCaseEntitiesChanged?.(trx, workspaceId, c.id, {
        added: (input.from_individual_id ?? input.from_company_id) as string,
      });
      return relation;
    });
  } catch (err) {
    if (isUniqueViolation(err)) {
      throw badRequest(
        'This relation already exists: a source relates to a company at most once',
        'to_company_id',
      );
    }
    throw err;
  }
}
