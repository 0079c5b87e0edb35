import type { AppContext } from '../app-context.ts';
import { ApiError, badRequest } from '../http/errors.ts';
import { getSettings } from '../settings/repository.ts';
import { callRegistry } from './call-registry.ts';
import { getLegalForms } from './legal-forms/index.ts';
import { providerForVendor } from './provider-registry.ts';
import { withElfLabel } from './providers/adapter-options.ts';
import { countFetch, findCachedProfile, findSearchRef, storeProfile, uncountFetch } from './repository.ts';
import type { CompanyProfile } from './schemas.ts';
import { COMPANY_DATA_VENDORS, type RegistryVendor } from './vendors.ts';

export interface FetchedProfile {
  profile: CompanyProfile;
  /** The registry's raw answer, to keep as the company's vendor data. */
  raw: unknown;
  vendor: RegistryVendor;
  country: string;
  vendorRef: string;
}

/** A fetch counted against the workspace's limit, which its caller gives back if what it was for fails. */
export interface CountedFetch extends FetchedProfile {
  /** Uncounts the fetch (a case or company creation refused after the fetch wrote nothing). */
  giveBack(): Promise<void>;
}

export const LIMIT_REACHED = 'COMPANY_DATA_LIMIT_REACHED';

/**
 * The profile behind a search_ref of this workspace (`GET /v1/company-data/fetch/{search_ref}`,
 * and case or company creation from a search_ref). An unknown, foreign or expired ref is a 400
 * naming `search_ref`; each fetch counts against the workspace's monthly limit (400
 * COMPANY_DATA_LIMIT_REACHED past it), given back when the registry fails, or by the caller
 * (`giveBack`) when what the fetch was for is refused. Registry failures throw `RegistryError`
 * (see `registryApiError`).
 */
export async function fetchProfileByRef(
  ctx: AppContext,
  workspaceId: string,
  searchRef: string,
): Promise<CountedFetch> {
  const row = await findSearchRef(ctx.db, workspaceId, searchRef);
  if (!row) throw badRequest('search_ref is unknown in this workspace: use one from a search', 'search_ref');
  if (!row.valid) throw badRequest('search_ref has expired (valid 24 hours): search again', 'search_ref');
  if (!(COMPANY_DATA_VENDORS as readonly string[]).includes(row.vendor) || row.vendor === 'none') {
    throw badRequest('search_ref names a registry this service no longer knows: search again', 'search_ref');
  }
  const limit = (await getSettings(ctx.db, workspaceId)).company_data.fetch_limit;
  const month = await countFetch(ctx.db, workspaceId, limit);
  if (!month) {
    const message = `The workspace reached its company data fetch limit (${limit} per month)`;
    throw new ApiError(400, message, [{ path: 'search_ref', message }], LIMIT_REACHED);
  }
  try {
    const vendor = row.vendor as RegistryVendor;
    const fetched = await fetchProfileByRecord(ctx, vendor, row.country, row.vendor_ref, {
      bypassCache: false,
    });
    let givenBack = false;
    const giveBack = async () => {
      if (givenBack) return;
      givenBack = true;
      await uncountFetch(ctx.db, workspaceId, month);
    };
    return { ...fetched, giveBack };
  } catch (err) {
    await uncountFetch(ctx.db, workspaceId, month);
    throw err;
  }
}

/**
 * The profile of one registry record, from the cache when fetched within
 * `VERICASE_COMPANY_DATA_CACHE_SECONDS` unless `bypassCache` (monitoring wants the registry's
 * current answer); a fresh answer refreshes the cache. Counts nothing.
 */
export async function fetchProfileByRecord(
  ctx: AppContext,
  vendor: RegistryVendor,
  country: string,
  vendorRef: string,
  opts: { bypassCache: boolean },
): Promise<FetchedProfile> {
  const key = { vendor, country, vendorRef };
  const seconds = ctx.config.companyData.cacheSeconds;
  if (!opts.bypassCache && seconds > 0) {
    const hit = await findCachedProfile(ctx.db, key, seconds);
    // labelled as the list is now: the profile may have been cached before a new edition of it
    if (hit) return { ...hit, profile: await withElfLabel(hit.profile, () => getLegalForms(ctx)), ...key };
  }
  const provider = providerForVendor(ctx, vendor);
  const record = await callRegistry(ctx, provider, (call) => provider.fetch({ country, vendorRef }, call));
  await storeProfile(ctx.db, key, record);
  return { profile: record.profile, raw: record.raw, ...key };
}
