import { Type } from 'typebox';
import type { App, AppContext } from '../app-context.ts';
import { Country, errors } from '../http/common-schemas.ts';
import { fetchProfileByRef } from './fetch-profile.ts';
import { registerReferenceDataRoutes } from './reference-routes.ts';
import { CompanyProfile, CompanySearchResult } from './schemas.ts';
import { searchCompanies } from './search-companies.ts';

const SearchQuery = Type.Object({
  country: { ...Country, description: 'ISO 3166-1 alpha-2 code of the registry to search (e.g. FR)' },
  name: Type.Optional(Type.String({ maxLength: 300, description: 'Company name, or part of it' })),
  registration_number: Type.Optional(
    Type.String({ maxLength: 100, description: 'Registration number in that registry (e.g. a SIREN)' }),
  ),
});
const SearchRefParam = Type.Object({
  search_ref: Type.String({ minLength: 1, maxLength: 200, description: 'A search_ref of a search result' }),
});

export function registerCompanyDataRoutes(app: App, ctx: AppContext): void {
  registerReferenceDataRoutes(app, ctx);
  const tags = ['Company data'];
  app.get(
    '/company-data/search',
    {
      // No automatic HEAD (as for fetch below): it would ask the registry, within its rate limits,
      // and store search_refs, for a body nobody reads.
      exposeHeadRoute: false,
      schema: {
        tags,
        summary: 'Search companies in a registry',
        description:
          'Candidates for a name and/or registration number in one country, each with a `search_ref` to fetch its data (valid 24 hours, this workspace only). Several candidates are normal: none is chosen for you.',
        querystring: SearchQuery,
        response: { 200: Type.Object({ data: Type.Array(CompanySearchResult) }), ...errors(400, 502, 503) },
      },
    },
    (req) => searchCompanies(ctx, req.principal.workspaceId, req.query),
  );
  app.get(
    '/company-data/fetch/:search_ref',
    {
      // No automatic HEAD: it would run the fetch (a registry call, one of the month's counted
      // fetches) for a body nobody reads. HEAD is a safe method; a probe must cost nothing.
      exposeHeadRoute: false,
      schema: {
        tags,
        summary: 'Fetch company data',
        description:
          "The registry profile of a search result: identity, legal form, address, officers and owners. Each fetch counts against the workspace's monthly `company_data.fetch_limit` (400 `COMPANY_DATA_LIMIT_REACHED` past it). An unknown, another workspace's or expired `search_ref` is a 400.",
        params: SearchRefParam,
        response: { 200: CompanyProfile, ...errors(400, 404, 502, 503) },
      },
    },
    async (req) => (await fetchProfileByRef(ctx, req.principal.workspaceId, req.params.search_ref)).profile,
  );
}
