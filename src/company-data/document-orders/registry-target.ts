import type { AppContext } from '../../app-context.ts';
import type { CompanyRow } from '../../db/schema.ts';
import { badRequest } from '../../http/errors.ts';
import type { CompanyRegistryProvider, RegistryRecordRef } from '../provider.ts';
import { providerFor } from '../provider-registry.ts';

/** The provider serving a country; a country no provider serves is a 400 naming `field`. */
export function providerOrRefuse(ctx: AppContext, country: string, field: string): CompanyRegistryProvider {
  const provider = providerFor(ctx, country);
  if (!provider) throw badRequest(`No company registry provider serves country ${country}`, field);
  return provider;
}

/**
 * The provider and registry record of a company of the workspace: the record it is linked to when
 * that registry still serves its country, else its country and registration number (the
 * provider's own identifier of the company for the national registries and the sandbox).
 */
export function companyRegistryTarget(
  ctx: AppContext,
  company: CompanyRow,
  field: string,
): { provider: CompanyRegistryProvider; ref: RegistryRecordRef } {
  // the registry link (migration 0013) of a company created from a search_ref
  const {
    registry_vendor: vendor,
    registry_country: linkedCountry,
    registry_vendor_ref: vendorRef,
  } = company;
  if (vendor && linkedCountry && vendorRef) {
    const provider = providerFor(ctx, linkedCountry);
    if (provider?.vendor === vendor) return { provider, ref: { country: linkedCountry, vendorRef } };
  }
  if (!company.country) throw badRequest('The company has no country: set it to find its registry', field);
  if (!company.registration_number?.trim()) {
    throw badRequest('The company has no registration number: set it to find its registry record', field);
  }
  const country = company.country.toUpperCase();
  return {
    provider: providerOrRefuse(ctx, country, field),
    ref: { country, vendorRef: company.registration_number.trim() },
  };
}
