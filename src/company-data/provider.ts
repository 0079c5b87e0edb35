import { ApiError } from '../http/errors.ts';
import type { AvailableDocument, CompanyProfile, CompanySearchResult } from './schemas.ts';
import type { RegistryVendor } from './vendors.ts';

/**
 * One company registry behind one interface. Adapters (`providers/<vendor>/`) translate a registry's
 * own API into these shapes; the service layer (search refs, caching, limits, orders) never sees a
 * registry's format. Each adapter call must honour `signal` (the caller's timeout) and throw a
 * `RegistryError` for anything the registry did wrong.
 */
export interface CompanyRegistryProvider {
  readonly vendor: RegistryVendor;
  /** Candidates for a name and/or registration number in one country; several are normal. */
  search(query: RegistryQuery, call: RegistryCall): Promise<RegistryCandidate[]>;
  /** The full profile of one candidate, by the provider's own id (`vendor_ref`). */
  fetch(ref: RegistryRecordRef, call: RegistryCall): Promise<RegistryRecord>;
  /** Documents that can be ordered for a company of this registry. */
  availableDocuments(ref: RegistryRecordRef, call: RegistryCall): Promise<ProviderDocument[]>;
  /** Produces an ordered document (e.g. the registry extract as a PDF). */
  orderDocument(ref: RegistryRecordRef, productRef: string, call: RegistryCall): Promise<OrderedDocument>;
}

export interface RegistryQuery {
  country: string;
  name?: string;
  registrationNumber?: string;
}

/** Identifies one record in one registry. */
export interface RegistryRecordRef {
  country: string;
  /** The provider's own identifier of the company (SIREN, LEI, company number, organisation number...). */
  vendorRef: string;
}

export interface RegistryCall {
  signal: AbortSignal;
}

/** A search result before the service gives it a `search_ref`. */
export type RegistryCandidate = Omit<CompanySearchResult, 'search_ref'> & { vendorRef: string };

export interface RegistryRecord {
  profile: CompanyProfile;
  /** The registry's raw answer, kept as the company's vendor data (`GET /v1/companies/{id}/vendor-data`). */
  raw: unknown;
}

export type ProviderDocument = Omit<AvailableDocument, 'vendor'>;

export interface OrderedDocument {
  filename: string;
  contentType: string;
  bytes: Buffer;
}

/**
 * The registry failed: `unavailable` (timeout, connection refused, 5xx after retries) → 503,
 * `bad_answer` (an answer we cannot read) → 502, `not_found` (the record vanished) → 404 from fetch,
 * `refused` (the registry refused our request, e.g. a bad key) → 502, `bad_query` (the caller's
 * query is one this registry cannot take, e.g. too short: the adapter knows the registry's rule and
 * says so before asking) → 400 naming `field`.
 */
export class RegistryError extends Error {
  readonly vendor: RegistryVendor;
  readonly kind: 'unavailable' | 'bad_answer' | 'not_found' | 'refused' | 'bad_query';
  /** The query parameter at fault, for `bad_query`. */
  readonly field: string | undefined;
  constructor(vendor: RegistryVendor, kind: RegistryError['kind'], message: string, field?: string) {
    super(message);
    this.vendor = vendor;
    this.kind = kind;
    this.field = field;
  }
}

/** The API answer for a registry failure: never a 500. */
export function registryApiError(err: RegistryError): ApiError {
  if (err.kind === 'unavailable')
    return new ApiError(503, `The company registry (${err.vendor}) is unavailable: ${err.message}`);
  if (err.kind === 'bad_query') {
    const message = `The company registry (${err.vendor}) cannot search this: ${err.message}`;
    return new ApiError(400, message, [{ path: err.field ?? 'query', message }]);
  }
  if (err.kind === 'not_found')
    return new ApiError(404, `The company registry (${err.vendor}) no longer has this company`);
  return new ApiError(502, `The company registry (${err.vendor}) gave an unusable answer: ${err.message}`);
}
