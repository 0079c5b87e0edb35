import type { Static } from 'typebox';
import type { AppContext } from '../../app-context.ts';
import { findCompany } from '../../companies/repository.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import { callRegistry } from '../call-registry.ts';
import type { CompanyRegistryProvider, RegistryRecordRef } from '../provider.ts';
import type { AvailableDocument } from '../schemas.ts';
import { companyRegistryTarget, providerOrRefuse } from './registry-target.ts';
import type { AvailableDocumentsQuery } from './schemas.ts';

/**
 * `GET /company-data/available-documents`: the documents the company's registry can deliver, for a
 * company of the workspace (`company_id`) or a registry record (`country` + `registration_number`).
 */
export async function listAvailableDocuments(
  ctx: AppContext,
  workspaceId: string,
  query: AvailableDocumentsQuery,
): Promise<{ data: Static<typeof AvailableDocument>[] }> {
  const byRecord = query.country !== undefined || query.registration_number !== undefined;
  if (query.company_id !== undefined && byRecord) {
    const field = query.country !== undefined ? 'country' : 'registration_number';
    throw badRequest('Give either company_id, or country with registration_number, not both', field);
  }
  let target: { provider: CompanyRegistryProvider; ref: RegistryRecordRef };
  if (query.company_id !== undefined) {
    const company = await findCompany(ctx.db, workspaceId, query.company_id);
    if (!company) throw notFound('Company', 'company_id');
    target = companyRegistryTarget(ctx, company, 'company_id');
  } else {
    if (query.country === undefined) {
      throw byRecord
        ? badRequest('country is required with registration_number', 'country')
        : badRequest('Give company_id, or country with registration_number', 'company_id');
    }
    if (!query.registration_number?.trim())
      throw badRequest('registration_number is required with country', 'registration_number');
    const country = query.country.toUpperCase();
    target = {
      provider: providerOrRefuse(ctx, country, 'country'),
      ref: { country, vendorRef: query.registration_number.trim() },
    };
  }
  const { provider, ref } = target;
  const docs = await callRegistry(ctx, provider, (call) => provider.availableDocuments(ref, call));
  return { data: docs.map((d) => ({ ...d, vendor: provider.vendor })) };
}
