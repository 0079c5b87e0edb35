import { Type } from 'typebox';
import { DateTime, Uuid } from '../../http/common-schemas.ts';

/**
 * Registry providers whose raw answers a company may carry: the reference's list, then this
 * service's own registries (src/company-data/vendors.ts) not already in it.
 */
export const VENDOR_NAMES = [
  'pappers',
  'kompany',
  'creditsafe',
  'kyckr',
  'companies_house',
  'inpi',
  'info_camere',
  'transparenzregister',
  'topograph',
  'charity_commission',
  'mod_finance',
  'sandbox',
  'gleif',
  'recherche_entreprises',
  'brreg',
] as const;

export const CompanyVendorData = Type.Object({
  id: Uuid,
  company_id: Uuid,
  name: Type.Enum(VENDOR_NAMES),
  raw: Type.Record(Type.String(), Type.Unknown(), {
    description: "The registry's answer as it was received, unmodified",
  }),
  fetched_at: DateTime,
});
