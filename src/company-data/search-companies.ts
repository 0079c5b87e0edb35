import type { AppContext } from '../app-context.ts';
import { badRequest } from '../http/errors.ts';
import { hasVisibleText } from '../shared/visible-text.ts';
import { callRegistry } from './call-registry.ts';
import { providerFor } from './provider-registry.ts';
import { insertSearchRefs } from './repository.ts';
import type { CompanySearchResult } from './schemas.ts';

/** More candidates than this are not a search result a person reads: the first ones are shown. */
const MAX_CANDIDATES = 50;

export interface SearchQuery {
  country: string;
  name?: string;
  registration_number?: string;
}

/**
 * Candidates of the country's registry, each with a search_ref of this workspace valid 24 hours.
 * Every candidate is shown (none is picked for the caller). Registry failures throw `RegistryError`.
 */
export async function searchCompanies(
  ctx: AppContext,
  workspaceId: string,
  q: SearchQuery,
): Promise<{ data: CompanySearchResult[] }> {
  // blank counts as absent, invisible characters too: a zero-width space found a company named by it
  const name = hasVisibleText(q.name) ? q.name.trim() : undefined;
  const registrationNumber = hasVisibleText(q.registration_number) ? q.registration_number.trim() : undefined;
  if (!name && !registrationNumber) {
    throw badRequest('name or registration_number is required (besides country)', 'name');
  }
  const provider = providerFor(ctx, q.country);
  if (!provider) throw badRequest(`No company registry serves country ${q.country}`, 'country');
  const found = await callRegistry(ctx, provider, (call) =>
    provider.search({ country: q.country, name, registrationNumber }, call),
  );
  const candidates = found.slice(0, MAX_CANDIDATES).map(({ vendorRef, ...shown }) => ({ vendorRef, shown }));
  const refs = await insertSearchRefs(
    ctx.db,
    workspaceId,
    candidates.map((c) => ({
      vendor: provider.vendor,
      country: q.country,
      vendorRef: c.vendorRef,
      candidate: c.shown,
    })),
    ctx.config.companyData.searchRefSeconds,
  );
  return { data: candidates.map((c, i) => ({ search_ref: refs[i] as string, ...c.shown })) };
}
