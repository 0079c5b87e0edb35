import { type CompanyRegistryProvider, RegistryError } from '../../provider.ts';
import {
  compactNumber,
  isObject,
  type RegistryAdapterOptions,
  unexpectedShape,
  withElfLabel,
} from '../adapter-options.ts';
import { createHttpClient, type HttpClient } from '../http-client.ts';
import { type ChFiling, documentApiUrl, documentIdOf, filingDocuments, transactionOf } from './filings.ts';
import { type ChCompany, type ChOfficer, type ChPsc, chCandidate, chProfile } from './parse.ts';

const SEARCH_SIZE = 20;
/** The API's largest page of officers or PSCs. */
const LIST_SIZE = 100;
/** Officers and PSCs read per company at most (50 pages of 100). */
const MAX_LIST_PAGES = 50;
const FILINGS_SIZE = 25;

/**
 * The United Kingdom through the Companies House public data API
 * (`https://api.company-information.service.gov.uk`, the API key as the HTTP basic user). The
 * vendor_ref is the company number. Documents: the filing history, downloaded as PDFs through the
 * Document API with the same key.
 */
export function createCompaniesHouseProvider(opts: RegistryAdapterOptions): CompanyRegistryProvider {
  const headers = opts.apiKey
    ? { authorization: `Basic ${Buffer.from(`${opts.apiKey}:`).toString('base64')}` }
    : undefined;
  const client = (baseUrl: string) =>
    createHttpClient({
      vendor: 'companies_house',
      baseUrl,
      timeoutMs: opts.timeoutMs,
      retries: opts.retries,
      headers,
    });
  const api = client(opts.baseUrl);
  const documents = client(documentApiUrl(opts.baseUrl));

  const keyed = (): HttpClient => {
    if (!opts.apiKey) throw new RegistryError('companies_house', 'refused', 'no API key is configured');
    return api;
  };
  const companyPath = (n: string) => `/company/${encodeURIComponent(n)}`;

  async function items<T>(path: string, signal: AbortSignal, size: number): Promise<T[]> {
    // Companies House answers 404 for a list that has no entry yet (e.g. no PSC notified).
    const answer = await keyed().getJson(path, { signal, on404: 'null', query: { items_per_page: size } });
    if (!answer) return [];
    return pageItems<T>(answer.body, path);
  }

  /**
   * Every entry of a paged list (officers, PSCs): the API gives at most 100 a page with
   * `total_results`, and a company with a long history has hundreds of officers, resigned ones
   * included, its current directors anywhere among them. Pages are read with `start_index` until
   * `total_results` (or a short page) is reached, at most MAX_LIST_PAGES.
   */
  async function allItems<T>(path: string, signal: AbortSignal): Promise<T[]> {
    const out: T[] = [];
    for (let page = 0; page < MAX_LIST_PAGES; page++) {
      const answer = await keyed().getJson(path, {
        signal,
        on404: 'null',
        query: { items_per_page: LIST_SIZE, start_index: out.length },
      });
      if (!answer) return out;
      const list = pageItems<T>(answer.body, path);
      out.push(...list);
      const total = isObject(answer.body) ? answer.body.total_results : undefined;
      const more = typeof total === 'number' ? out.length < total : list.length >= LIST_SIZE;
      if (!list.length || !more) return out;
    }
    throw new RegistryError(
      'companies_house',
      'bad_answer',
      `${path} lists more than ${MAX_LIST_PAGES * LIST_SIZE} entries`,
    );
  }

  return {
    vendor: 'companies_house',
    async search(query, call) {
      const number = companyNumber(query.registrationNumber);
      if (number) {
        const answer = await keyed().getJson(companyPath(number), { signal: call.signal, on404: 'null' });
        const candidate = isObject(answer?.body) ? chCandidate(answer.body as ChCompany) : null;
        return candidate ? [candidate] : [];
      }
      if (query.registrationNumber?.trim()) return [];
      const answer = await keyed().getJson('/search/companies', {
        signal: call.signal,
        query: { q: query.name?.trim() ?? '', items_per_page: SEARCH_SIZE },
      });
      // Without hits the search may leave `items` out, but it always says how many it found.
      const body = isObject(answer?.body) ? answer.body : {};
      const list = body.items ?? (typeof body.total_results === 'number' ? [] : undefined);
      if (!Array.isArray(list)) throw unexpectedShape('companies_house', 'no items list');
      return list.map((c) => chCandidate(c as ChCompany)).filter((c) => c !== null);
    },
    async fetch(ref, call) {
      const path = companyPath(ref.vendorRef);
      const answer = await keyed().getJson(path, { signal: call.signal, on404: 'not_found' });
      if (!isObject(answer?.body))
        throw unexpectedShape('companies_house', 'company profile is not an object');
      const [officers, pscs] = await Promise.all([
        allItems<ChOfficer>(`${path}/officers`, call.signal),
        allItems<ChPsc>(`${path}/persons-with-significant-control`, call.signal),
      ]);
      const profile = chProfile(answer.body as ChCompany, officers, pscs);
      if (!profile) throw unexpectedShape('companies_house', 'company without number or name');
      return {
        profile: await withElfLabel(profile, opts.legalForms),
        raw: { company: answer.body, officers, persons_with_significant_control: pscs },
      };
    },
    async availableDocuments(ref, call) {
      const filings = await items<ChFiling>(
        `${companyPath(ref.vendorRef)}/filing-history`,
        call.signal,
        FILINGS_SIZE,
      );
      return filingDocuments(filings);
    },
    async orderDocument(ref, productRef, call) {
      const transaction = transactionOf(productRef);
      if (!transaction) {
        throw new RegistryError('companies_house', 'refused', `unknown product_ref ${productRef}`);
      }
      const answer = await keyed().getJson(`${companyPath(ref.vendorRef)}/filing-history/${transaction}`, {
        signal: call.signal,
        on404: 'not_found',
      });
      const filing = (isObject(answer?.body) ? answer.body : {}) as ChFiling;
      const documentId = documentIdOf(filing.links?.document_metadata);
      if (!documentId) {
        throw new RegistryError(
          'companies_house',
          'not_found',
          `filing ${transaction} has no document image`,
        );
      }
      const pdf = await documents.getBinary(`/document/${documentId}/content`, {
        signal: call.signal,
        accept: 'application/pdf',
        on404: 'not_found',
      });
      const name = [ref.vendorRef, filing.type, filing.date]
        .filter(Boolean)
        .join('-')
        .replace(/[^A-Za-z0-9-]+/g, '-');
      return { filename: `${name}.pdf`, contentType: pdf.contentType, bytes: pdf.bytes };
    },
  };
}

function pageItems<T>(body: unknown, path: string): T[] {
  const list = isObject(body) ? body.items : undefined;
  if (list === undefined) return [];
  if (!Array.isArray(list)) throw unexpectedShape('companies_house', `no items list at ${path}`);
  return list as T[];
}

/**
 * A typed company number in the register's form: 8 characters, upper case, numeric ones padded with
 * zeros ("1234567" → "01234567"), prefixed ones (SC, NI, OC...) as given.
 */
function companyNumber(input: string | undefined): string | null {
  const n = compactNumber(input)?.toUpperCase();
  if (!n) return null;
  if (/^\d{1,8}$/.test(n)) return n.padStart(8, '0');
  return /^[A-Z]{2}\d{6}$/.test(n) ? n : null;
}
