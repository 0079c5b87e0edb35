import { randomUUID } from 'node:crypto';
import type { Static } from 'typebox';
import type { AppContext } from '../../app-context.ts';
import type { AfterCaseCreated, CaseCreateInput } from '../../cases/create-case.ts';
import type { CheckEnvelopeOut } from '../../checks/envelope-schema.ts';
import { presentCheckEnvelope } from '../../checks/present.ts';
import { checkEnvelopesByEntity } from '../../checks/repository.ts';
import type { Db } from '../../db/connect.ts';
import type { PropertyOrigin } from '../../db/schema.ts';
import { badRequest } from '../../http/errors.ts';
import { createMonitoringCheck } from '../monitoring/monitoring-check.ts';
import { fetchForImport, type RegistryImport } from './fetch-for-import.ts';
import { writeRegistryLinks } from './link-writes.ts';
import { assertOneCompanyPerRecord } from './one-company-per-record.ts';
import { companyFromProfile } from './profile-to-company.ts';
import { relatedFromProfile } from './related.ts';
import type { CaseCreateBody } from './schemas.ts';

type Body = Static<typeof CaseCreateBody>;
type Company = NonNullable<CaseCreateInput['companies']>[number];
type Individual = NonNullable<CaseCreateInput['individuals']>[number];

interface PlannedLink {
  /** Index of the linked company in the expanded input. */
  index: number;
  imp: RegistryImport;
  origin: PropertyOrigin;
}

/** A case body with its registry companies resolved, and the writes that complete the import. */
export interface PreparedCaseImport {
  input: CaseCreateInput;
  /** Wraps the templates hook: registry links and origins first, monitoring checks with the template's. */
  wrap(base: AfterCaseCreated | undefined): AfterCaseCreated | undefined;
  /** Uncounts the registry fetches: the case was refused, so they gave the workspace nothing. */
  giveBack(): Promise<void>;
}

/** Rules that need no registry: checked before anything is fetched (a fetch counts against the limit). */
function validate(body: Body) {
  const refs = new Map<string, number>();
  (body.companies ?? []).forEach((c, i) => {
    // one registry record is one company of the case: twice, it and its related people and companies
    // were imported twice (and fetched, and counted, twice)
    if (c.search_ref !== undefined) {
      const first = refs.get(c.search_ref);
      if (first !== undefined)
        throw badRequest(
          `companies[${i}].search_ref: the same as companies[${first}].search_ref; a registry company is one company of the case`,
          `companies[${i}].search_ref`,
        );
      refs.set(c.search_ref, i);
    }
    if (c.import_related && !c.search_ref)
      throw badRequest(
        `companies[${i}].import_related: only allowed with search_ref`,
        `companies[${i}].import_related`,
      );
    if (!c.search_ref && c.name === undefined)
      throw badRequest(`companies[${i}].name is required (or give search_ref)`, `companies[${i}].name`);
  });
}

/**
 * Resolves the `search_ref` companies of a case body (network, before the case's transaction):
 * each is filled from its registry profile, and with `import_related` its officers and owners are
 * appended as individuals and affiliated companies related to it, so the case's own creation path
 * (graph checks, events, templates) handles them like typed ones.
 */
export async function prepareCaseImport(
  ctx: AppContext,
  workspaceId: string,
  body: Body,
): Promise<PreparedCaseImport> {
  validate(body);
  const companiesIn = body.companies ?? [];
  if (!companiesIn.some((c) => c.search_ref))
    return { input: body as CaseCreateInput, wrap: (b) => b, giveBack: async () => {} };
  await assertOneCompanyPerRecord(ctx.db, workspaceId, companiesIn);

  const imports: (RegistryImport | null)[] = [];
  const giveBack = async () => {
    for (const imp of imports) await imp?.giveBack();
  };
  try {
    for (const [i, c] of companiesIn.entries()) {
      imports.push(
        c.search_ref
          ? await fetchForImport(ctx, workspaceId, c.search_ref, `companies[${i}].search_ref`)
          : null,
      );
    }
  } catch (err) {
    await giveBack(); // a later company's ref or registry failed: the case is not created
    throw err;
  }
  const companies: Company[] = [];
  const links: PlannedLink[] = [];
  const importedCompanies: { company: Company; origin: PropertyOrigin }[] = [];
  const importedIndividuals: { individual: Individual; origin: PropertyOrigin }[] = [];
  companiesIn.forEach((c, i) => {
    const imp = imports[i];
    const { search_ref: _ref, import_related: importRelated, ...fields } = c;
    if (!imp) {
      companies.push(fields as Company);
      return;
    }
    const { company, origin } = companyFromProfile(fields, imp.profile);
    // imported entities relate to it by ref: one no caller's ref can be
    const ref = company.ref ?? (importRelated ? `registry-import-${randomUUID()}` : undefined);
    companies.push({ ...company, ref } as Company);
    links.push({ index: i, imp, origin });
    if (!importRelated) return;
    const related = relatedFromProfile(imp.profile);
    for (const rc of related.companies) {
      importedCompanies.push({
        company: {
          ...rc.fields,
          type: 'affiliated',
          relations: [{ ...rc.relation, source_company_ref: ref }],
        } as Company,
        origin: rc.origin,
      });
    }
    for (const ri of related.individuals) {
      importedIndividuals.push({
        individual: { ...ri.fields, relations: [{ ...ri.relation, source_company_ref: ref }] } as Individual,
        origin: ri.origin,
      });
    }
  });
  const input: CaseCreateInput = {
    ...(body as CaseCreateInput),
    companies: [...companies, ...importedCompanies.map((x) => x.company)],
    individuals: [...(body.individuals ?? []), ...importedIndividuals.map((x) => x.individual)],
  };
  const firstImportedCompany = companies.length;
  const firstImportedIndividual = body.individuals?.length ?? 0;

  const wrap =
    (base: AfterCaseCreated | undefined): AfterCaseCreated =>
    async (trx, c) => {
      const linkedIds = links.map((l) => c.companyIds[l.index]);
      const monitored = await writeRegistryLinks(trx, workspaceId, {
        links: links.map((l, n) => ({ companyId: linkedIds[n], imp: l.imp, origin: l.origin })),
        companyOrigins: new Map(
          importedCompanies.map((x, k) => [c.companyIds[firstImportedCompany + k], x.origin]),
        ),
        individualOrigins: new Map(
          importedIndividuals.map((x, k) => [c.individualIds[firstImportedIndividual + k], x.origin]),
        ),
        monitoringIntervalSeconds: ctx.config.companyMonitoringIntervalSeconds,
      });
      const templated = base ? await base(trx, c) : { templateId: null };
      if (!monitored) return templated;
      // the monitoring checks follow the template's, and the response shows them all
      return {
        templateId: templated.templateId,
        createChecks: async () => {
          await templated.createChecks?.();
          for (const id of linkedIds) await createMonitoringCheck(ctx, trx, workspaceId, id);
          return caseCheckEnvelopes(trx, c.caseId);
        },
      };
    };
  return { input, wrap, giveBack };
}

async function caseCheckEnvelopes(trx: Db, caseId: string) {
  const map = new Map<string, CheckEnvelopeOut[]>();
  for (const r of await checkEnvelopesByEntity(trx, caseId, false)) {
    const key = (r.company_id ?? r.individual_id) as string;
    map.set(key, [...(map.get(key) ?? []), presentCheckEnvelope(r)]);
  }
  return map;
}
