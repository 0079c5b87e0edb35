import { type CompanyRegistryProvider, type RegistryCandidate, RegistryError } from '../../provider.ts';
import {
  compactNumber,
  isObject,
  noDocuments,
  type RegistryAdapterOptions,
  unexpectedShape,
  withElfLabel,
} from '../adapter-options.ts';
import { createHttpClient } from '../http-client.ts';
import { type RechercheResult, rechercheCandidate, rechercheProfile } from './parse.ts';

/** The API's maximum page size. */
const PER_PAGE = 25;
const NO_DOCUMENTS =
  'the open search API has no documents; Kbis extracts and filed acts come from the RNE (INPI) or Infogreffe';

/**
 * France through the government's open company search, "API Recherche d'entreprises"
 * (`https://recherche-entreprises.api.gouv.fr`, no key, 7 requests/s per IP). One endpoint serves
 * both: `q` with 9 digits is a direct SIREN lookup, anything else a full-text search. The vendor_ref
 * is the SIREN; a fetch is a SIREN lookup, since the API has no record endpoint of its own.
 */
export function createRechercheEntreprisesProvider(opts: RegistryAdapterOptions): CompanyRegistryProvider {
  const http = createHttpClient({
    vendor: 'recherche_entreprises',
    baseUrl: opts.baseUrl,
    timeoutMs: opts.timeoutMs,
    retries: opts.retries,
  });

  async function results(q: string, perPage: number, signal: AbortSignal): Promise<RechercheResult[]> {
    const answer = await http.getJson('/search', { signal, query: { q, per_page: perPage, page: 1 } });
    const list = isObject(answer?.body) ? answer.body.results : undefined;
    if (!Array.isArray(list)) throw unexpectedShape('recherche_entreprises', 'no results list');
    return list as RechercheResult[];
  }

  return {
    vendor: 'recherche_entreprises',
    async search(query, call) {
      // A SIRET (14 digits) starts with its company's SIREN; spaces are common in typed numbers.
      const number = compactNumber(query.registrationNumber);
      const siren = number && /^\d{9}(\d{5})?$/.test(number) ? number.slice(0, 9) : null;
      // a typed number that is no SIREN (separators only, "..." too) finds nothing: never a name search
      if (query.registrationNumber?.trim() && !siren) return [];
      // the API answers 400 to a text under 3 characters: say it as the caller's mistake
      if (!siren && (query.name?.trim().length ?? 0) < 3) {
        throw new RegistryError(
          'recherche_entreprises',
          'bad_query',
          'a name needs at least 3 characters',
          'name',
        );
      }
      const found = await results(siren ?? query.name?.trim() ?? '', siren ? 1 : PER_PAGE, call.signal);
      return found.map(rechercheCandidate).filter((c): c is RegistryCandidate => c !== null);
    },
    async fetch(ref, call) {
      const found = await results(ref.vendorRef, 1, call.signal);
      const record = found.find((r) => r.siren === ref.vendorRef);
      if (!record) {
        throw new RegistryError(
          'recherche_entreprises',
          'not_found',
          `no legal unit with SIREN ${ref.vendorRef}`,
        );
      }
      const profile = rechercheProfile(record);
      if (!profile) throw unexpectedShape('recherche_entreprises', 'a result without SIREN or name');
      return { profile: await withElfLabel(profile, opts.legalForms), raw: record };
    },
    async availableDocuments() {
      return [];
    },
    async orderDocument() {
      throw noDocuments('recherche_entreprises', NO_DOCUMENTS);
    },
  };
}
