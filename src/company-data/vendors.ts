import { Type } from 'typebox';

/**
 * Company-data provider identifiers. `none` marks a country no provider serves. `sandbox` is the
 * deterministic built-in registry; the others are real registries reached over HTTP (adapters in
 * `providers/`). Which provider serves a country is configuration (`VERICASE_COMPANY_DATA_PROVIDERS`).
 */
export const COMPANY_DATA_VENDORS = [
  'sandbox',
  'gleif',
  'recherche_entreprises',
  'companies_house',
  'brreg',
  'none',
] as const;
export type CompanyDataVendor = (typeof COMPANY_DATA_VENDORS)[number];
export type RegistryVendor = Exclude<CompanyDataVendor, 'none'>;

export const CompanyDataVendorSchema = Type.Enum(COMPANY_DATA_VENDORS);
