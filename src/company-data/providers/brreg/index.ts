import type { CompanyRegistryProvider, RegistryCandidate } from '../../provider.ts';
import {
  compactNumber,
  isObject,
  noDocuments,
  type RegistryAdapterOptions,
  unexpectedShape,
  withElfLabel,
} from '../adapter-options.ts';
import { createHttpClient } from '../http-client.ts';
import { type BrregEnhet, type BrregRoller, brregCandidate, brregProfile } from './parse.ts';

const PAGE_SIZE = 20;
const NO_DOCUMENTS =
  'Enhetsregisteret open data has no documents; certificates of registration (firmaattest) are ordered from Brønnøysund';
/** A deleted unit answers 410 Gone with what the register still says about it. */
const GONE = [410] as const;

/**
 * Norway through Brønnøysund's Enhetsregisteret open data API (`https://data.brreg.no/enhetsregisteret/api`,
 * no key). The vendor_ref is the organisation number; roles come from `/enheter/{orgnr}/roller`.
 */
export function createBrregProvider(opts: RegistryAdapterOptions): CompanyRegistryProvider {
  const http = createHttpClient({
    vendor: 'brreg',
    baseUrl: opts.baseUrl,
    timeoutMs: opts.timeoutMs,
    retries: opts.retries,
  });
  const unitPath = (n: string) => `/enheter/${encodeURIComponent(n)}`;

  return {
    vendor: 'brreg',
    async search(query, call) {
      const typed = compactNumber(query.registrationNumber);
      // a typed number, even one of separators only ("..."), is a number lookup: never a search
      // by an empty name, which would list unrelated units
      if (query.registrationNumber?.trim()) {
        if (!typed || !/^\d{9}$/.test(typed)) return [];
        const answer = await http.getJson(unitPath(typed), {
          signal: call.signal,
          on404: 'null',
          passStatuses: GONE,
        });
        const candidate = isObject(answer?.body) ? brregCandidate(answer.body as BrregEnhet) : null;
        return candidate ? [candidate] : [];
      }
      const answer = await http.getJson('/enheter', {
        signal: call.signal,
        query: { navn: query.name?.trim() ?? '', size: PAGE_SIZE },
      });
      if (!isObject(answer?.body)) throw unexpectedShape('brreg', 'search answer is not an object');
      // HAL: a search without hits has no `_embedded` at all.
      const embedded = answer.body._embedded;
      if (!isObject(embedded) && !isObject(answer.body.page))
        throw unexpectedShape('brreg', 'neither hits nor page');
      const list = isObject(embedded) ? embedded.enheter : [];
      if (!Array.isArray(list)) throw unexpectedShape('brreg', 'no enheter list');
      return list
        .map((e) => brregCandidate(e as BrregEnhet))
        .filter((c): c is RegistryCandidate => c !== null);
    },
    async fetch(ref, call) {
      const path = unitPath(ref.vendorRef);
      const unit = await http.getJson(path, { signal: call.signal, on404: 'not_found', passStatuses: GONE });
      if (!isObject(unit?.body)) throw unexpectedShape('brreg', 'unit is not an object');
      // A deleted unit has no roles left to read.
      const roles =
        unit.status === 410
          ? null
          : await http.getJson(`${path}/roller`, { signal: call.signal, on404: 'null' });
      const roller = isObject(roles?.body) ? (roles.body as BrregRoller) : null;
      const profile = brregProfile(unit.body as BrregEnhet, roller);
      if (!profile) throw unexpectedShape('brreg', 'unit without organisation number or name');
      return { profile: await withElfLabel(profile, opts.legalForms), raw: { enhet: unit.body, roller } };
    },
    async availableDocuments() {
      return [];
    },
    async orderDocument() {
      throw noDocuments('brreg', NO_DOCUMENTS);
    },
  };
}
