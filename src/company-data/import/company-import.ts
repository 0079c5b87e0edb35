import type { Static } from 'typebox';
import type { AppContext } from '../../app-context.ts';
import { findCaseById } from '../../cases/repository.ts';
import { createCompany } from '../../companies/create-company.ts';
import { legalFormChecker, throwIfRefused } from '../../companies/legal-form-check.ts';
import type { CompanyCreate } from '../../companies/schemas.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import { createMonitoringCheck } from '../monitoring/monitoring-check.ts';
import { fetchForImport } from './fetch-for-import.ts';
import { importRelatedIntoCase } from './import-into-case.ts';
import { writeRegistryLinks } from './link-writes.ts';
import { companyFromProfile } from './profile-to-company.ts';
import type { CompanyCreateBody } from './schemas.ts';

/**
 * POST /v1/companies: a company typed in full, or from a `search_ref` (profile fetched before the
 * transaction; body fields win), linked to its registry record, optionally with its officers and
 * owners (`import_related`), all in one transaction.
 */
export async function createCompanyFromBody(
  ctx: AppContext,
  workspaceId: string,
  body: Static<typeof CompanyCreateBody>,
) {
  const { search_ref: searchRef, import_related: importRelated, ...fields } = body;
  if (importRelated && !searchRef)
    throw badRequest('import_related: only allowed with search_ref', 'import_related');
  // a code the caller types is checked (one from the registry profile is the registry's own);
  // first against the country given, before any fetch is spent
  const code = fields.entity_legal_form;
  const checkLegalForm = code !== undefined && code !== null ? await legalFormChecker(ctx) : null;
  throwIfRefused([checkLegalForm?.(code, fields.country, 'entity_legal_form') ?? null]);
  if (!searchRef) {
    if (fields.name === undefined) throw badRequest('name is required (or give search_ref)', 'name');
    return createCompany(ctx, workspaceId, fields as Static<typeof CompanyCreate>);
  }
  // an unknown case costs no fetch (the transaction checks it again, locked)
  if (!(await findCaseById(ctx.db, workspaceId, fields.case_id))) throw notFound('Case', 'case_id');
  const imp = await fetchForImport(ctx, workspaceId, searchRef, 'search_ref');
  const { company, origin } = companyFromProfile(fields, imp.profile);
  const refused = checkLegalForm?.(code, company.country, 'entity_legal_form');
  if (refused) {
    await imp.giveBack(); // the country came from the profile: the fetch gave nothing
    throwIfRefused([refused]);
  }
  const created = createCompany(ctx, workspaceId, company, async (trx, row) => {
    // as in a case body: a registry company is one company of the case (two requests made two linked
    // copies of one record). Under the case's lock that createCompany holds: two at once, one wins
    const twin = await trx
      .selectFrom('companies')
      .select('id')
      .where('case_id', '=', row.case_id)
      .where('id', '<>', row.id)
      .where('registry_vendor', '=', imp.vendor)
      .where('registry_country', '=', imp.country)
      .where('registry_vendor_ref', '=', imp.vendorRef)
      .executeTakeFirst();
    if (twin) {
      throw badRequest(
        `search_ref: this registry company is already company ${twin.id} of the case; a registry company is one company of the case`,
        'search_ref',
      );
    }
    const monitored = await writeRegistryLinks(trx, workspaceId, {
      links: [{ companyId: row.id, imp, origin }],
      monitoringIntervalSeconds: ctx.config.companyMonitoringIntervalSeconds,
    });
    if (importRelated) {
      await importRelatedIntoCase(trx, { workspaceId, caseId: row.case_id, companyId: row.id }, imp.profile);
    }
    if (monitored) await createMonitoringCheck(ctx, trx, workspaceId, row.id);
    return monitored;
  });
  return created.catch(async (err) => {
    await imp.giveBack(); // refused after the fetch (the check limit, a case deleted meanwhile...)
    throw err;
  });
}
