import type { AppContext } from '../app-context.ts';
import type { Config } from '../config.ts';
import { getLegalForms } from './legal-forms/index.ts';
import type { CompanyRegistryProvider } from './provider.ts';
import { createBrregProvider } from './providers/brreg/index.ts';
import { createCompaniesHouseProvider } from './providers/companies-house/index.ts';
import { createGleifProvider } from './providers/gleif/index.ts';
import { createRechercheEntreprisesProvider } from './providers/recherche-entreprises/index.ts';
import { createSandboxProvider } from './providers/sandbox/index.ts';
import type { CompanyDataVendor, RegistryVendor } from './vendors.ts';

/** The vendor configured for a country (`VERICASE_COMPANY_DATA_PROVIDERS`): its own entry, else `*`. */
export function vendorFor(config: Config, country: string): CompanyDataVendor {
  const { providers } = config.companyData;
  return providers[country.toUpperCase()] ?? providers['*'] ?? 'none';
}

/** The provider serving a country, or null where none does (`none`). */
export function providerFor(ctx: AppContext, country: string): CompanyRegistryProvider | null {
  const vendor = vendorFor(ctx.config, country);
  return vendor === 'none' ? null : providerForVendor(ctx, vendor);
}

/**
 * The provider of one vendor, built from the current configuration (adapters are a few closures:
 * building one per call keeps a configuration change, e.g. in tests, effective at once). Used by
 * fetches of records found earlier, whose vendor may no longer be the country's current one.
 */
export function providerForVendor(ctx: AppContext, vendor: RegistryVendor): CompanyRegistryProvider {
  const c = ctx.config.companyData;
  const legalForms = () => getLegalForms(ctx);
  // The ELF list labels the codes of every registry's profile (GLEIF gives them without a name).
  const http = { timeoutMs: c.timeoutMs, retries: c.retries, legalForms };
  switch (vendor) {
    case 'sandbox':
      return createSandboxProvider({
        legalForms,
        orderDelayMs: ctx.config.sandboxDelayMs,
      });
    case 'gleif':
      return createGleifProvider({ ...http, baseUrl: c.gleif.baseUrl });
    case 'recherche_entreprises':
      return createRechercheEntreprisesProvider({ ...http, baseUrl: c.rechercheEntreprises.baseUrl });
    case 'companies_house':
      return createCompaniesHouseProvider({ ...http, ...c.companiesHouse });
    case 'brreg':
      return createBrregProvider({ ...http, baseUrl: c.brreg.baseUrl });
  }
}
