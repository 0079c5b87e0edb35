import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import {
  BRREG_DELETED,
  BRREG_ROLES,
  BRREG_UNITS,
  brregSearch,
  CH_BIG_NUMBER,
  CH_BIG_OFFICERS,
  CH_BIG_PSCS,
  CH_COMPANIES,
  CH_FILINGS,
  CH_OFFICERS,
  CH_PSCS,
  CH_SEARCH_ITEMS,
  chPage,
  FAKE_PDF,
  GLEIF_RECORDS,
  gleifList,
  RECHERCHE_RESULTS,
  rechercheList,
} from './fake-registry-payloads.ts';

export type FakeRegistryKind = 'gleif' | 'recherche_entreprises' | 'companies_house' | 'brreg';

/**
 * How the fake answers: `ok` as the registry would; `hang` never answers; `fail-once` answers 500 to
 * the next request, then goes back to `ok`; `fail` always 500; `malformed` 200 with broken JSON;
 * `shapeless` 200 with JSON that is not the registry's; `unauthorized` 401; `rate-limited-once` 429
 * with a Retry-After of 0 s to the next request.
 */
export type FakeMode =
  | 'ok'
  | 'hang'
  | 'fail-once'
  | 'fail'
  | 'malformed'
  | 'shapeless'
  | 'unauthorized'
  | 'rate-limited-once';

type Answer = {
  status: number;
  json?: unknown;
  body?: Buffer;
  type?: string;
  location?: string;
  retryAfter?: string;
};

/** Where each real API lives below its host: base URLs given to the adapters keep the same prefix. */
const PREFIX: Record<FakeRegistryKind, string> = {
  gleif: '/api/v1',
  recherche_entreprises: '',
  companies_house: '',
  brreg: '/enhetsregisteret/api',
};

/** The API key the fake Companies House accepts (as the basic-auth user, empty password). */
export const FAKE_CH_KEY = 'test-key-0123';

/**
 * A local stand-in for one registry on 127.0.0.1:<free port>, answering in the registry's documented
 * format from recorded-style payloads, and counting the requests it received.
 */
export class FakeRegistry {
  mode: FakeMode = 'ok';
  readonly requests: { path: string; headers: http.IncomingHttpHeaders }[] = [];
  #server: http.Server | undefined;
  #sockets = new Set<Socket>();

  readonly kind: FakeRegistryKind;

  constructor(kind: FakeRegistryKind) {
    this.kind = kind;
  }

  get baseUrl(): string {
    const { port } = this.#server!.address() as AddressInfo;
    return `http://127.0.0.1:${port}${PREFIX[this.kind]}`;
  }

  async start(): Promise<this> {
    this.#server = http.createServer((req, res) => this.#handle(req, res));
    this.#server.on('connection', (s) => {
      this.#sockets.add(s);
      s.on('close', () => this.#sockets.delete(s));
    });
    await new Promise<void>((resolve) => this.#server!.listen(0, '127.0.0.1', resolve));
    return this;
  }

  async stop(): Promise<void> {
    for (const s of this.#sockets) s.destroy();
    await new Promise<void>((resolve) => this.#server?.close(() => resolve()) ?? resolve());
  }

  #handle(req: http.IncomingMessage, res: http.ServerResponse) {
    this.requests.push({ path: req.url ?? '/', headers: req.headers });
    const mode = this.mode;
    if (mode === 'hang') return; // the socket stays open until stop()
    if (mode === 'fail-once' || mode === 'rate-limited-once') this.mode = 'ok';
    if (mode === 'rate-limited-once')
      return send(res, { status: 429, json: { message: 'Too Many Requests' }, retryAfter: '0' });
    if (mode === 'shapeless') return send(res, { status: 200, json: { message: 'maintenance' } });
    if (mode === 'fail' || mode === 'fail-once')
      return send(res, { status: 500, json: { error: 'Internal Server Error' } });
    if (mode === 'unauthorized')
      return send(res, { status: 401, json: { error: 'Invalid Authorization', type: 'ch:service' } });
    if (mode === 'malformed') {
      return send(res, {
        status: 200,
        body: Buffer.from('{"data": [{"type": "lei-rec'),
        type: 'application/json',
      });
    }
    const url = new URL(req.url ?? '/', 'http://fake');
    const path = url.pathname.slice(PREFIX[this.kind].length);
    send(
      res,
      ROUTES[this.kind](path, url.searchParams, req.headers) ?? { status: 404, json: notFound(this.kind) },
    );
  }
}

export async function startFakeRegistry(kind: FakeRegistryKind): Promise<FakeRegistry> {
  return new FakeRegistry(kind).start();
}

function send(res: http.ServerResponse, a: Answer) {
  const body = a.body ?? Buffer.from(JSON.stringify(a.json ?? {}));
  res.writeHead(a.status, {
    'content-type': a.type ?? 'application/json',
    'content-length': body.length,
    ...(a.location ? { location: a.location } : {}),
    ...(a.retryAfter ? { 'retry-after': a.retryAfter } : {}),
  });
  res.end(body);
}

/** Each registry's own 404 body. */
function notFound(kind: FakeRegistryKind): unknown {
  if (kind === 'gleif') return { errors: [{ status: '404', title: 'Not Found' }] };
  if (kind === 'companies_house')
    return { errors: [{ error: 'company-profile-not-found', type: 'ch:service' }] };
  if (kind === 'brreg')
    return { status: 404, error: 'Not Found', message: 'Ingen enhet med organisasjonsnummer' };
  return { erreur: 'Not Found' };
}

const has = (value: unknown, needle: string | null) =>
  !needle ||
  String(value ?? '')
    .toLowerCase()
    .includes(needle.trim().toLowerCase());

type Route = (path: string, q: URLSearchParams, headers: http.IncomingHttpHeaders) => Answer | null;

const ROUTES: Record<FakeRegistryKind, Route> = {
  gleif(path, q) {
    if (path === '/lei-records') {
      const country = q.get('filter[entity.legalAddress.country]');
      const number = q.get('filter[entity.registeredAs]');
      const found = GLEIF_RECORDS.filter((r) => {
        const e = r.attributes.entity;
        return (
          (!country || e.legalAddress.country === country) &&
          (!number || e.registeredAs === number) &&
          has(e.legalName.name, q.get('filter[entity.legalName]'))
        );
      });
      return { status: 200, json: gleifList(found), type: 'application/vnd.api+json' };
    }
    const record = GLEIF_RECORDS.find((r) => path === `/lei-records/${r.id}`);
    return record
      ? { status: 200, json: { meta: {}, data: record }, type: 'application/vnd.api+json' }
      : null;
  },

  recherche_entreprises(path, q) {
    if (path !== '/search') return null;
    const query = q.get('q') ?? '';
    if (query.trim().length < 3)
      return { status: 400, json: { erreur: 'Veuillez indiquer au moins 3 caractères.' } };
    const found = /^\d{9}$/.test(query)
      ? RECHERCHE_RESULTS.filter((r) => r.siren === query)
      : RECHERCHE_RESULTS.filter((r) => has(r.nom_complet, query));
    return { status: 200, json: rechercheList(found) };
  },

  companies_house(path, q, headers) {
    // The storage a document redirects to is another origin with a signed URL: no key needed there.
    if (/^\/storage\/[A-Za-z0-9]+\.pdf$/.test(path))
      return { status: 200, body: FAKE_PDF, type: 'application/pdf' };
    const expected = `Basic ${Buffer.from(`${FAKE_CH_KEY}:`).toString('base64')}`;
    if (headers.authorization !== expected)
      return { status: 401, json: { error: 'Invalid Authorization header' } };
    if (path === '/search/companies') {
      const items = CH_SEARCH_ITEMS.filter((i) => has(i.title, q.get('q')));
      return {
        status: 200,
        json: { kind: 'search#companies', items, total_results: items.length, page_number: 1 },
      };
    }
    const m = /^\/company\/([A-Z0-9]{8})(\/.*)?$/.exec(path);
    const doc = /^\/document\/([A-Za-z0-9]+)(\/content)?$/.exec(path);
    if (doc && CH_FILINGS.items.some((f) => f.links.document_metadata?.endsWith(`/${doc[1]}`))) {
      // The Document API redirects to a short-lived storage URL, as the real one does (to S3).
      if (doc[2]) {
        const storage = `http://${headers.host?.replace('127.0.0.1', 'localhost')}/storage/${doc[1]}.pdf`;
        return { status: 302, json: {}, location: storage };
      }
      return {
        status: 200,
        json: { links: { document: `/document/${doc[1]}/content` }, resources: { 'application/pdf': {} } },
      };
    }
    const company = m && CH_COMPANIES[m[1]];
    if (!company) return null;
    const rest = m[2] ?? '';
    if (rest === '') return { status: 200, json: company };
    if (m[1] === CH_BIG_NUMBER && rest === '/officers')
      return { status: 200, json: { kind: 'officer-list', ...chPage(CH_BIG_OFFICERS, q) } };
    if (m[1] === CH_BIG_NUMBER && rest === '/persons-with-significant-control')
      return { status: 200, json: chPage(CH_BIG_PSCS, q) };
    // The fake knows the lists of its first company; the others have none (404, like the real API).
    const first = m[1] === '01234567';
    if (rest === '/officers' && first) return { status: 200, json: CH_OFFICERS };
    if (rest === '/persons-with-significant-control' && first) return { status: 200, json: CH_PSCS };
    if (rest === '/filing-history' && first) return { status: 200, json: CH_FILINGS };
    const filing = first && CH_FILINGS.items.find((f) => rest === `/filing-history/${f.transaction_id}`);
    return filing ? { status: 200, json: filing } : null;
  },

  brreg(path, q) {
    if (path === '/enheter') {
      const name = q.get('navn');
      return { status: 200, json: brregSearch(Object.values(BRREG_UNITS).filter((u) => has(u.navn, name))) };
    }
    const m = /^\/enheter\/(\d{9})(\/roller)?$/.exec(path);
    if (!m) return null;
    if (m[1] === BRREG_DELETED.organisasjonsnummer && !m[2]) return { status: 410, json: BRREG_DELETED };
    const unit = BRREG_UNITS[m[1]];
    if (!unit) return null;
    if (!m[2]) return { status: 200, json: unit };
    return { status: 200, json: BRREG_ROLES[m[1]] ?? { rollegrupper: [] } };
  },
};
