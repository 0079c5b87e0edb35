import { Type } from 'typebox';
import type { App, AppContext } from '../../app-context.ts';
import { Country, errors } from '../../http/common-schemas.ts';
import { vendorFor } from '../provider-registry.ts';
import { CountryEntry } from '../schemas.ts';
import { COMPANY_DATA_VENDORS } from '../vendors.ts';
import { countryNames } from './country-names.ts';

/**
 * The reference product's vendor names. Accepted as a filter so its clients work unchanged; no
 * country is served by them here, so they match nothing (except the shared `companies_house`, `none`).
 */
const REFERENCE_VENDORS = [
  'pappers',
  'kompany',
  'creditsafe',
  'kyckr',
  'inpi',
  'info_camere',
  'transparenzregister',
  'topograph',
  'charity_commission',
  'mod_finance',
];
const VENDOR_FILTER = [...new Set([...COMPANY_DATA_VENDORS, ...REFERENCE_VENDORS])];

const Query = Type.Object({
  code: Type.Optional(Country),
  vendor: Type.Optional(
    Type.Enum(VENDOR_FILTER, {
      description: 'Only the countries this provider serves (`none`: the countries no provider serves)',
    }),
  ),
  include_none: Type.Optional(
    Type.Boolean({ default: false, description: 'Include the countries no provider serves (`vendor` none)' }),
  ),
});

/** GET /v1/company-data/countries */
export function registerCountryRoutes(app: App, ctx: AppContext): void {
  app.get(
    '/company-data/countries',
    {
      schema: {
        tags: ['Company data'],
        summary: 'List countries and the registry provider serving each',
        description:
          'Every ISO 3166-1 country with its English and local names, its flag and the provider that serves it (configuration: VERICASE_COMPANY_DATA_PROVIDERS). Countries no provider serves (`none`) are left out unless `include_none=true` or `vendor=none`.',
        querystring: Query,
        response: { 200: Type.Object({ data: Type.Array(CountryEntry) }), ...errors(400) },
      },
    },
    async (req) => {
      const { code, vendor, include_none: includeNone } = req.query;
      const showNone = includeNone === true || vendor === 'none';
      const data: CountryEntry[] = [];
      for (const names of countryNames().values()) {
        if (code && names.code !== code) continue;
        const served = vendorFor(ctx.config, names.code);
        if (served === 'none' && !showNone) continue;
        if (vendor && served !== vendor) continue;
        data.push({ ...names, vendor: served });
      }
      return { data };
    },
  );
}
