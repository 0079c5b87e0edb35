import { randomUUID } from 'node:crypto';
import type { Static } from 'typebox';
import type { CheckEnvelopeOut } from '../checks/envelope-schema.ts';
import { companyInsertRow } from '../companies/to-row.ts';
import type { Db } from '../db/connect.ts';
import type { NewRelation } from '../db/schema.ts';
import { recordEvents } from '../events/record-event.ts';
import { ApiError, conflict, type ErrorDetail } from '../http/errors.ts';
import { birthDateProblem } from '../individuals/birth-date.ts';
import { individualInsertRow } from '../individuals/to-row.ts';
import { ascendingIds } from '../shared/ascending-ids.ts';
import { isUniqueViolation } from '../shared/pg-errors.ts';
import { noteCreatedResource } from '../shared/request-scope.ts';
import { caseTagLabels } from '../tags/case-tag-labels.ts';
import { nestedUserById } from '../users/nested-user.ts';
import { checkAssignee } from './assignee.ts';
import { assertNotAnotherCaseId, assertPathUsableExternalId } from './external-id.ts';
import { insertGraph } from './insert-graph.ts';
import { presentCase } from './present.ts';
import { presentDetailedCase } from './present-detailed.ts';
import type { CaseCreate } from './schemas.ts';

export type CaseCreateInput = Static<typeof CaseCreate>;

/**
 * Hook for template-created checks, plugged in by the templates module (runs in the same
 * transaction). It sets the case's template; `createChecks` runs after the case's creation events
 * are recorded (so `Case.Created` precedes the checks' events) and returns the check envelopes by
 * entity for the response.
 */
export type AfterCaseCreated = (
  trx: Db,
  ctx: {
    workspaceId: string;
    caseId: string;
    input: CaseCreateInput;
    /** Ids of the input's companies and individuals, in input order. */
    companyIds: string[];
    individualIds: string[];
  },
) => Promise<{
  templateId: string | null;
  createChecks?: () => Promise<Map<string, CheckEnvelopeOut[]>>;
}>;

/**
 * Validates the graph (refs, one main company, relation ends) before anything is written:
 * every problem is reported with the path of the offending field.
 */
function planGraph(input: CaseCreateInput) {
  const details: ErrorDetail[] = [];
  const companies = input.companies ?? [];
  const individuals = input.individuals ?? [];
  const companyIdByRef = new Map<string, string>();
  const refSeen = new Set<string>();
  // the graph's rows share one created_at: GET /v1/cases/{id} and the lists give them in the
  // order they were sent (as the 201 answer does)
  const companyIds = ascendingIds(companies.length);
  const individualIds = ascendingIds(individuals.length);

  companies.forEach((c, i) => {
    if (c.ref === undefined) return;
    if (refSeen.has(c.ref))
      details.push({ path: `companies[${i}].ref`, message: `ref "${c.ref}" is used twice` });
    refSeen.add(c.ref);
    companyIdByRef.set(c.ref, companyIds[i]);
  });
  individuals.forEach((p, i) => {
    if (p.ref === undefined) return;
    if (refSeen.has(p.ref))
      details.push({ path: `individuals[${i}].ref`, message: `ref "${p.ref}" is used twice` });
    refSeen.add(p.ref);
  });

  const mainIdx = companies.map((c, i) => ((c.type ?? 'main') === 'main' ? i : -1)).filter((i) => i >= 0);
  if (mainIdx.length > 1) {
    details.push({
      path: `companies[${mainIdx[1]}].type`,
      message: `companies[${mainIdx[1]}].type: a case has one main company; companies[${mainIdx[0]}] is already main (type defaults to main)`,
    });
  }
  const mainId = mainIdx.length ? companyIds[mainIdx[0]] : undefined;
  if (!mainId && (companies.length || individuals.length)) {
    details.push({
      path: companies.length ? 'companies' : 'individuals',
      message: 'A case with companies or individuals needs a main company (a company with type "main")',
    });
  }

  const relations: NewRelation[] = [];
  const relationIds = ascendingIds(
    [...companies, ...individuals].reduce((n, e) => n + (e.relations?.length ?? 0), 0),
  );
  const pairs = new Set<string>();
  const resolve = (
    owner: 'companies' | 'individuals',
    ownerIdx: number,
    sourceId: string,
    rels: NonNullable<(typeof companies)[number]['relations']>,
  ) => {
    rels.forEach((r, j) => {
      const path = `${owner}[${ownerIdx}].relations[${j}].source_company_ref`;
      let target: string | undefined;
      if (r.source_company_ref !== undefined) {
        target = companyIdByRef.get(r.source_company_ref);
        if (!target) {
          details.push({ path, message: `${path}: no company has ref "${r.source_company_ref}"` });
          return;
        }
      } else {
        target = mainId;
        if (!target) return; // reported above
      }
      if (target === sourceId) {
        details.push({ path, message: `${path}: a company cannot be related to itself` });
        return;
      }
      const pair = `${sourceId}>${target}`;
      if (pairs.has(pair)) {
        details.push({ path, message: `${path}: duplicate relation to the same company` });
        return;
      }
      pairs.add(pair);
      relations.push({
        id: relationIds[relations.length],
        workspace_id: '',
        case_id: '',
        from_company_id: owner === 'companies' ? sourceId : null,
        from_individual_id: owner === 'individuals' ? sourceId : null,
        to_company_id: target,
        voting_rights_percentage: r.voting_rights_percentage ?? null,
        ownership_percentage: r.ownership_percentage ?? null,
        roles: r.roles ?? [],
        position: r.position ?? null,
      });
    });
  };
  companies.forEach((c, i) => {
    resolve('companies', i, companyIds[i], c.relations ?? []);
  });
  individuals.forEach((p, i) => {
    resolve('individuals', i, individualIds[i], p.relations ?? []);
    const born = birthDateProblem(p.birth_date, `individuals[${i}].birth_date`);
    if (born) details.push(born);
  });

  if (details.length) throw new ApiError(400, details[0].message, details);
  return { companyIds, individualIds, relations, mainId };
}

export async function createCase(
  db: Db,
  workspaceId: string,
  input: CaseCreateInput,
  afterCreated?: AfterCaseCreated,
) {
  assertPathUsableExternalId(input.external_id);
  await assertNotAnotherCaseId(db, workspaceId, input.external_id);
  const plan = planGraph(input);
  const caseId = randomUUID();
  noteCreatedResource(caseId);
  const companies = input.companies ?? [];
  const individuals = input.individuals ?? [];
  try {
    return await db.transaction().execute(async (trx) => {
      // tags are stored by label, spelled as the workspace's existing tags are
      const assigneeId = await checkAssignee(trx, workspaceId, input.assignee_id);
      const tags = input.tags?.length ? await caseTagLabels(trx, workspaceId, input.tags) : [];
      const toMain = new Map(
        plan.relations.filter((r) => r.to_company_id === plan.mainId).map((r) => [r.from_individual_id, r]),
      );
      const stored = await insertGraph(trx, {
        case: {
          id: caseId,
          workspace_id: workspaceId,
          external_id: input.external_id ?? null,
          name: input.name,
          status: input.status ?? 'open',
          assignee_id: assigneeId ?? null,
          space_slug: input.space_slug ?? null,
          tags,
          metadata: input.metadata ? JSON.stringify(input.metadata) : null,
          custom_properties: JSON.stringify(input.custom_properties ?? {}),
        },
        companies: companies.map((c, i) =>
          companyInsertRow(c, { id: plan.companyIds[i], workspaceId, caseId, type: c.type ?? 'main' }),
        ),
        individuals: individuals.map((p, i) => {
          const rel = toMain.get(plan.individualIds[i]);
          return individualInsertRow(
            p,
            { id: plan.individualIds[i], workspaceId, caseId },
            rel
              ? {
                  roles: rel.roles as string[],
                  position: rel.position,
                  ownership_percentage: rel.ownership_percentage,
                  voting_rights_percentage: rel.voting_rights_percentage,
                }
              : {},
          );
        }),
        relations: plan.relations.map((r) => ({ ...r, workspace_id: workspaceId, case_id: caseId })),
      });
      const caseRow = stored.case;

      const templated = afterCreated
        ? await afterCreated(trx, {
            workspaceId,
            caseId,
            input,
            companyIds: plan.companyIds,
            individualIds: plan.individualIds,
          })
        : null;
      const finalCase = templated?.templateId
        ? await trx.selectFrom('cases').selectAll().where('id', '=', caseId).executeTakeFirstOrThrow()
        : caseRow;

      const graph = {
        companies: stored.companies,
        individuals: stored.individuals,
        relations: stored.relations,
      };
      const assignee = await nestedUserById(trx, workspaceId, finalCase.assignee_id);
      const detailed = presentDetailedCase(finalCase, graph, new Map(), assignee);
      await recordEvents(trx, workspaceId, [
        { type: 'Case.Created', case_id: caseId, payload: { case: presentCase(finalCase) } },
        ...detailed.companies.map((c) => ({
          type: 'Company.Created',
          case_id: caseId,
          payload: { company: c },
        })),
        ...detailed.individuals.map((p) => ({
          type: 'Individual.Created',
          case_id: caseId,
          payload: { individual: p },
        })),
      ]);
      if (!templated?.createChecks) return detailed;
      const checks = await templated.createChecks();
      const afterChecks = await trx
        .selectFrom('cases')
        .selectAll()
        .where('id', '=', caseId)
        .executeTakeFirstOrThrow();
      return presentDetailedCase(afterChecks, graph, checks, assignee);
    });
  } catch (err) {
    if (isUniqueViolation(err, 'cases_external_id')) {
      throw conflict(`A case with external_id "${input.external_id}" already exists`, 'external_id');
    }
    throw err;
  }
}
