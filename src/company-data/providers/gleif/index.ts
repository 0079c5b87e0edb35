import type { CompanyRegistryProvider, RegistryCandidate } from '../../provider.ts';
import {
  isObject,
  noDocuments,
  type RegistryAdapterOptions,
  unexpectedShape,
  withElfLabel,
} from '../adapter-options.ts';
import { createHttpClient } from '../http-client.ts';
import { type GleifRecord, gleifCandidate, gleifProfile } from './parse.ts';

const PAGE_SIZE = 20;
const NO_DOCUMENTS =
  'GLEIF publishes LEI reference data only; registry extracts come from the national register';

/**
 * GLEIF's LEI records API (`https://api.gleif.org/api/v1`, no key): any country, companies that hold an
 * LEI only. Search filters on the legal name and/or the local registration number (`registeredAs`)
 * within the country of the legal address; the vendor_ref is the LEI.
 */
export function createGleifProvider(opts: RegistryAdapterOptions): CompanyRegistryProvider {
  const http = createHttpClient({
    vendor: 'gleif',
    baseUrl: opts.baseUrl,
    timeoutMs: opts.timeoutMs,
    retries: opts.retries,
  });
  return {
    vendor: 'gleif',
    async search(query, call) {
      const answer = await http.getJson('/lei-records', {
        signal: call.signal,
        accept: 'application/vnd.api+json',
        query: {
          'filter[entity.legalAddress.country]': query.country,
          'filter[entity.legalName]': query.name?.trim() || undefined,
          'filter[entity.registeredAs]': query.registrationNumber?.trim() || undefined,
          'page[size]': PAGE_SIZE,
        },
      });
      const data = isObject(answer?.body) ? answer.body.data : undefined;
      if (!Array.isArray(data)) throw unexpectedShape('gleif', 'no data list');
      return data
        .map((r) => gleifCandidate(r as GleifRecord, query.country))
        .filter((c): c is RegistryCandidate => c !== null);
    },
    async fetch(ref, call) {
      const answer = await http.getJson(`/lei-records/${encodeURIComponent(ref.vendorRef)}`, {
        signal: call.signal,
        accept: 'application/vnd.api+json',
        on404: 'not_found',
      });
      const body = answer?.body;
      const profile = isObject(body) ? gleifProfile(body.data as GleifRecord, ref.country) : null;
      if (!profile) throw unexpectedShape('gleif', 'no LEI record in data');
      return { profile: await withElfLabel(profile, opts.legalForms), raw: body };
    },
    async availableDocuments() {
      return [];
    },
    async orderDocument() {
      throw noDocuments('gleif', NO_DOCUMENTS);
    },
  };
}
