import { isCountryCode } from '../shared/countries.ts';
import { COMPANY_DATA_VENDORS, type CompanyDataVendor } from './vendors.ts';

/** Company-data configuration (`config.companyData`), read from the environment at start-up. */
export interface CompanyDataConfig {
  /** Vendor per country (ISO alpha-2) and `*` for every other country. */
  providers: Record<string, CompanyDataVendor>;
  /** Timeout of one registry HTTP call, in ms. */
  timeoutMs: number;
  /** Retries of a registry call after a 5xx or a timeout. */
  retries: number;
  /** How long a fetched profile is served from the cache, in seconds (0: never cached). */
  cacheSeconds: number;
  /** How long a search_ref can be fetched, in seconds. */
  searchRefSeconds: number;
  gleif: { baseUrl: string };
  rechercheEntreprises: { baseUrl: string };
  companiesHouse: { baseUrl: string; apiKey: string | null };
  brreg: { baseUrl: string };
}

/** National registries serve their own country only; gleif and sandbox serve any. */
const ONLY_COUNTRY: Partial<Record<CompanyDataVendor, string>> = {
  recherche_entreprises: 'FR',
  companies_house: 'GB',
  brreg: 'NO',
};

const NAME = 'VERICASE_COMPANY_DATA_PROVIDERS';

/** `FR=recherche_entreprises,GB=companies_house,*=sandbox` → vendor per country; errors name the entry. */
export function parseProviders(value: string | undefined): Record<string, CompanyDataVendor> {
  const out: Record<string, CompanyDataVendor> = {};
  for (const entry of (value?.trim() || '*=sandbox').split(',')) {
    if (!entry.trim()) continue;
    const [rawCountry, rawVendor, ...rest] = entry.split('=');
    const country = rawCountry?.trim().toUpperCase() ?? '';
    const vendor = rawVendor?.trim().toLowerCase() ?? '';
    if (rest.length || !vendor) throw new Error(`${NAME}: "${entry}" is not COUNTRY=vendor`);
    if (country !== '*' && !isCountryCode(country)) {
      throw new Error(`${NAME}: "${rawCountry}" is not an ISO 3166-1 alpha-2 country code (or *)`);
    }
    if (!(COMPANY_DATA_VENDORS as readonly string[]).includes(vendor)) {
      throw new Error(
        `${NAME}: unknown vendor "${rawVendor}" for ${country}; one of ${COMPANY_DATA_VENDORS.join(', ')}`,
      );
    }
    const only = ONLY_COUNTRY[vendor as CompanyDataVendor];
    if (only && country !== only) {
      throw new Error(`${NAME}: ${vendor} serves ${only} only, not ${country}`);
    }
    if (country in out) throw new Error(`${NAME}: ${country} is given twice`);
    out[country] = vendor as CompanyDataVendor;
  }
  return out;
}

type IntReader = (name: string, value: string | undefined, fallback: number) => number;

export function loadCompanyDataConfig(env: NodeJS.ProcessEnv, int: IntReader): CompanyDataConfig {
  const providers = parseProviders(env.VERICASE_COMPANY_DATA_PROVIDERS);
  const apiKey = env.VERICASE_COMPANIES_HOUSE_API_KEY || null;
  if (Object.values(providers).includes('companies_house') && !apiKey) {
    throw new Error(`${NAME}: companies_house needs VERICASE_COMPANIES_HOUSE_API_KEY`);
  }
  const url = (name: string, fallback: string) => {
    const v = env[name]?.trim() || fallback;
    if (!/^https?:\/\//.test(v)) throw new Error(`${name} must be an http(s) URL, got "${v}"`);
    return v.replace(/\/+$/, '');
  };
  return {
    providers,
    timeoutMs: int('VERICASE_COMPANY_DATA_TIMEOUT_MS', env.VERICASE_COMPANY_DATA_TIMEOUT_MS, 10_000),
    retries: int('VERICASE_COMPANY_DATA_RETRIES', env.VERICASE_COMPANY_DATA_RETRIES, 2),
    cacheSeconds: int('VERICASE_COMPANY_DATA_CACHE_SECONDS', env.VERICASE_COMPANY_DATA_CACHE_SECONDS, 86_400),
    searchRefSeconds: 86_400,
    gleif: { baseUrl: url('VERICASE_GLEIF_URL', 'https://api.gleif.org/api/v1') },
    rechercheEntreprises: {
      baseUrl: url('VERICASE_RECHERCHE_ENTREPRISES_URL', 'https://recherche-entreprises.api.gouv.fr'),
    },
    companiesHouse: {
      baseUrl: url('VERICASE_COMPANIES_HOUSE_URL', 'https://api.company-information.service.gov.uk'),
      apiKey,
    },
    brreg: { baseUrl: url('VERICASE_BRREG_URL', 'https://data.brreg.no/enhetsregisteret/api') },
  };
}
