import assert from 'node:assert/strict';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { describe, test } from 'node:test';
import { sandboxFetchCount } from '../src/company-data/providers/sandbox/index.ts';
import { loadConfig } from '../src/config.ts';
import { COUNTRY_CODES } from '../src/shared/countries.ts';
import { type Client, getHarness, newWorkspace } from './helpers/harness.ts';

/** A name no other test uses, so the shared profile cache starts empty for it. */
const unique = (word: string) => `${word} ${Math.random().toString(36).slice(2, 8)}`;

async function search(api: Client, query: string) {
  return api.get(`/v1/company-data/search?${query}`);
}

async function firstRef(api: Client, name: string, country = 'FR'): Promise<string> {
  const res = await search(api, `country=${country}&name=${encodeURIComponent(name)}`);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.data[0].search_ref;
}

async function vendorRefOf(searchRef: string): Promise<string> {
  const { ctx } = await getHarness();
  const row = await ctx.db
    .selectFrom('company_data_search_refs')
    .select('vendor_ref')
    .where('ref', '=', searchRef)
    .executeTakeFirstOrThrow();
  return row.vendor_ref;
}

function assertBadRequest(res: { status: number; body: any }, field: string) {
  assert.equal(res.status, 400, JSON.stringify(res.body));
  assert.ok(
    res.body.details?.some((d: any) => d.path === field),
    `400 naming ${field}: ${JSON.stringify(res.body)}`,
  );
}

describe('company data: sandbox search', () => {
  test('a name finds at least one candidate containing it (case-insensitive), with a search_ref', async () => {
    const api = await newWorkspace();
    const res = await search(api, 'country=FR&name=acme');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.ok(res.body.data.length >= 1);
    for (const c of res.body.data) {
      assert.match(c.name, /acme/i);
      assert.equal(c.country, 'FR');
      assert.equal(c.address.country, 'FR');
      assert.equal(c.status, 'live');
      assert.equal(c.disclosable, true);
      assert.match(c.registration_number, /^\d{9}$/);
      assert.equal(typeof c.search_ref, 'string');
    }
    // deterministic: the same search shows the same companies (new refs)
    const again = await search(api, 'country=FR&name=acme');
    assert.deepEqual(
      again.body.data.map((c: any) => c.registration_number),
      res.body.data.map((c: any) => c.registration_number),
    );
    assert.notEqual(again.body.data[0].search_ref, res.body.data[0].search_ref);
  });

  test('`several` gives at least three candidates, `nomatch` none, `closed` a closed company', async () => {
    const api = await newWorkspace();
    const several = await search(api, 'country=GB&name=Several%20Widgets');
    assert.equal(several.status, 200);
    assert.ok(several.body.data.length >= 3, JSON.stringify(several.body));
    for (const c of several.body.data) assert.match(c.name, /several widgets/i);
    assert.equal(new Set(several.body.data.map((c: any) => c.search_ref)).size, several.body.data.length);
    const none = await search(api, 'country=DE&name=nomatch%20gmbh');
    assert.deepEqual(none.body, { data: [] });
    const closed = await search(api, 'country=NO&name=Closed%20Fisk');
    assert.equal(closed.body.data[0].status, 'closed');
  });

  test('a registration number finds one company with that number', async () => {
    const api = await newWorkspace();
    const res = await search(api, 'country=FR&registration_number=552100554');
    assert.equal(res.status, 200);
    assert.equal(res.body.data.length, 1);
    assert.equal(res.body.data[0].registration_number, '552100554');
    const both = await search(api, 'country=FR&name=Acme&registration_number=552100554');
    assert.equal(both.body.data.length, 1);
    assert.equal(both.body.data[0].registration_number, '552100554');
    assert.match(both.body.data[0].name, /acme/i);
  });

  test('400s: missing or unknown country, neither name nor number, a country no provider serves', async () => {
    const api = await newWorkspace();
    const { ctx } = await getHarness();
    assertBadRequest(await search(api, 'name=acme'), 'country');
    assertBadRequest(await search(api, 'country=XX&name=acme'), 'country');
    assertBadRequest(await search(api, 'country=FR'), 'name');
    assertBadRequest(await search(api, 'country=FR&name=%20%20'), 'name');
    // invisible characters only (zero-width space, word joiner, BOM, soft hyphen): blank as well; the
    // zero-width space found a company named by it
    for (const invisible of ['\u200b', '\u200b \u2060', '\ufeff\u00ad', '\u200e\u200f']) {
      assertBadRequest(await search(api, `country=FR&name=${encodeURIComponent(invisible)}`), 'name');
      assertBadRequest(
        await search(api, `country=FR&registration_number=${encodeURIComponent(invisible)}`),
        'name',
      );
    }
    // Antarctica switched off for this test process (`AQ=none`)
    ctx.config.companyData.providers.AQ = 'none';
    assertBadRequest(await search(api, 'country=AQ&name=acme'), 'country');
    // the API key is needed like on every /v1 route
    const { app } = await getHarness();
    const anonymous = await app.inject({
      method: 'GET',
      url: '/v1/company-data/search?country=FR&name=acme',
    });
    assert.equal(anonymous.statusCode, 401);
  });

  test('a registry outage is a 503, never a 500', async () => {
    const api = await newWorkspace();
    const res = await search(api, 'country=FR&name=unavailable%20registry');
    assert.equal(res.status, 503, JSON.stringify(res.body));
    assert.equal(res.body.code, 'SERVICE_UNAVAILABLE');
    assert.match(res.body.message, /sandbox/);
  });
});

describe('company data: fetch', () => {
  test('a fetched profile: officers, owners, legal form with its ELF code, address in the country', async () => {
    const api = await newWorkspace();
    const found = await api.get(
      `/v1/company-data/search?country=FR&name=${encodeURIComponent(unique('Acme'))}`,
    );
    const candidate = found.body.data[0];
    const res = await api.get(`/v1/company-data/fetch/${candidate.search_ref}`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const p = res.body;
    // the company the user picked: same name, number and address as its search result
    assert.deepEqual(
      [p.name, p.registration_number, p.address],
      [candidate.name, candidate.registration_number, candidate.address],
    );
    assert.match(p.name, /acme/i);
    assert.equal(p.country, 'FR');
    assert.equal(p.address.country, 'FR');
    assert.equal(p.status, 'live');
    assert.equal(p.entity_legal_form, '6CHY');
    assert.match(p.entity_legal_form_label, /société par actions simplifiée/);
    assert.match(p.registration_date, /^\d{4}-\d{2}-\d{2}$/);
    assert.ok(p.share_capital);
    assert.ok(p.classifications.length >= 1);
    assert.ok(p.legal_representatives.length >= 1);
    const ubo = p.beneficial_owners.find((o: any) => o.entity_type === 'individual');
    assert.ok(ubo, 'an individual beneficial owner');
    assert.match(ubo.birth_date, /^\d{4}-\d{2}-\d{2}$/);
    assert.equal(typeof ubo.ownership_percentage, 'number');
    assert.ok(
      p.shareholders.some((s: any) => s.entity_type === 'company'),
      'a corporate shareholder',
    );
    assert.ok(p.merged_individuals.some((i: any) => i.is_beneficial_owner));
    assert.equal(p.merged_companies[0].type, 'affiliated');
  });

  test("legal forms: each country's usual private limited company (the US: a Delaware corporation)", async () => {
    const api = await newWorkspace();
    const expected: Record<string, string> = {
      GB: 'H0PO',
      DE: '2HBR',
      NO: 'YI42',
      US: 'XTIQ',
      IT: 'OV32',
      ES: 'DP3Q',
      NL: '54M6',
      BE: '3W7E',
      LU: 'DVXS',
      CH: '3EKS',
      AT: 'AXSB',
      IE: 'MNQ7',
      PL: 'O7XB',
      SE: 'XJHM',
      DK: 'H8VP',
      FI: 'DKUW',
    };
    for (const [country, code] of Object.entries(expected)) {
      const ref = await firstRef(api, unique('Globex'), country);
      const p = (await api.get(`/v1/company-data/fetch/${ref}`)).body;
      assert.equal(p.entity_legal_form, code, country);
      assert.ok(p.entity_legal_form_label, country);
      assert.equal(p.address.country, country);
    }
  });

  test('share capital in the country’s own currency, the finance officer titled in the country’s language (English elsewhere)', async () => {
    const api = await newWorkspace();
    // the euro area (Bulgaria from 2026, Croatia from 2023), the states that use the euro by
    // agreement, and the French and Finnish territories that are part of it
    const euro = new Set(
      'AT BE BG CY DE EE ES FI FR GR HR IE IT LT LU LV MT NL PT SI SK AD MC SM VA ME AX BL GF GP MF MQ PM RE TF YT'.split(
        ' ',
      ),
    );
    const expected: Record<string, string> = {
      CH: 'CHF',
      LI: 'CHF',
      SE: 'SEK',
      DK: 'DKK',
      GL: 'DKK',
      PL: 'PLN',
      CZ: 'CZK',
      HU: 'HUF',
      RO: 'RON',
      GB: 'GBP',
      JE: 'GBP',
      NO: 'NOK',
      US: 'USD',
      PR: 'USD',
      JP: 'JPY',
      CW: 'XCG',
      NC: 'XPF',
      SN: 'XOF',
      FR: 'EUR',
      BG: 'EUR',
    };
    const known = new Set(Intl.supportedValuesOf('currency'));
    const cfo: Record<string, string> = {
      FR: 'Directeur financier',
      DE: 'Kaufmännischer Geschäftsführer',
      NO: 'Økonomidirektør',
    };
    // every country on the sandbox, Antarctica too (another test of this process switches it off)
    const { ctx } = await getHarness();
    const providers = ctx.config.companyData.providers;
    const before = { ...providers };
    for (const country of COUNTRY_CODES) providers[country] = 'sandbox';
    try {
      for (const country of COUNTRY_CODES) {
        const found = await search(api, `country=${country}&registration_number=12345678`);
        assert.equal(found.status, 200, `${country} ${JSON.stringify(found.body)}`);
        const res = await api.get(`/v1/company-data/fetch/${found.body.data[0].search_ref}`);
        assert.equal(res.status, 200, `${country} ${JSON.stringify(res.body)}`);
        const m = /^\d+000 ([A-Z]{3})$/.exec(res.body.share_capital);
        assert.ok(m, `${country}: ${res.body.share_capital}`);
        const currency = m[1];
        assert.ok(known.has(currency), `${country}: ${currency} is an ISO 4217 code`);
        assert.equal(currency === 'EUR', euro.has(country), `${country}: ${currency}`);
        if (expected[country]) assert.equal(currency, expected[country], country);
        const [, second] = res.body.legal_representatives;
        assert.equal(second.position, cfo[country] ?? 'Chief Financial Officer', country);
        // merged_individuals: the director, then the finance officer (the names may coincide)
        assert.equal(res.body.merged_individuals[1].relations[0].position, second.position, country);
      }
    } finally {
      for (const country of COUNTRY_CODES) delete providers[country];
      Object.assign(providers, before);
    }
  });

  test('a closed company fetches as closed; a number-only search fetches that number', async () => {
    const api = await newWorkspace();
    const closed = await api.get(`/v1/company-data/fetch/${await firstRef(api, unique('closed shop'))}`);
    assert.equal(closed.body.status, 'closed');
    const byNumber = await search(api, 'country=GB&registration_number=01234567');
    const p = (await api.get(`/v1/company-data/fetch/${byNumber.body.data[0].search_ref}`)).body;
    assert.equal(p.registration_number, '01234567');
  });

  test('400 naming search_ref: tampered, another workspace’s, expired', async () => {
    const api = await newWorkspace();
    const other = await newWorkspace();
    const { ctx } = await getHarness();
    const ref = await firstRef(api, unique('Acme'));
    assertBadRequest(await api.get(`/v1/company-data/fetch/${ref}x`), 'search_ref');
    // one character changed (a different one: a ref ending in A stays itself with A)
    const swapped = ref.endsWith('A') ? 'B' : 'A';
    assertBadRequest(await api.get(`/v1/company-data/fetch/${ref.slice(0, -1)}${swapped}`), 'search_ref');
    assertBadRequest(await other.get(`/v1/company-data/fetch/${ref}`), 'search_ref');
    assert.equal((await api.get(`/v1/company-data/fetch/${ref}`)).status, 200);
    await ctx.db
      .updateTable('company_data_search_refs')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('ref', '=', ref)
      .execute();
    const expired = await api.get(`/v1/company-data/fetch/${ref}`);
    assertBadRequest(expired, 'search_ref');
    assert.match(expired.body.message, /expired/);
  });

  test('the profile is cached: a second fetch does not ask the registry again', async () => {
    const api = await newWorkspace();
    const ref = await firstRef(api, unique('Cached'));
    const vendorRef = await vendorRefOf(ref);
    assert.equal(sandboxFetchCount(vendorRef), 0);
    const first = await api.get(`/v1/company-data/fetch/${ref}`);
    assert.equal(sandboxFetchCount(vendorRef), 1);
    // another workspace finding the same company reads the same cache entry
    const other = await newWorkspace();
    const second = await other.get(`/v1/company-data/fetch/${await firstRef(other, first.body.name)}`);
    assert.equal(sandboxFetchCount(vendorRef), 1);
    assert.deepEqual(second.body, first.body);
    const { ctx } = await getHarness();
    const cached = await ctx.db
      .selectFrom('company_data_profiles')
      .select(['profile', 'raw'])
      .where('vendor', '=', 'sandbox')
      .where('vendor_ref', '=', vendorRef)
      .executeTakeFirstOrThrow();
    assert.equal((cached.raw as any).source, 'sandbox', 'the raw answer is kept');
  });

  test('a registry failing at fetch is a 503 and does not use up the limit', async () => {
    const api = await newWorkspace();
    assert.equal(
      (await api.patch('/v1/workspace/settings', { company_data: { fetch_limit: 1 } })).status,
      200,
    );
    const failing = await firstRef(api, unique('fetchfail'));
    const res = await api.get(`/v1/company-data/fetch/${failing}`);
    assert.equal(res.status, 503, JSON.stringify(res.body));
    const ok = await api.get(`/v1/company-data/fetch/${await firstRef(api, unique('Fine'))}`);
    assert.equal(ok.status, 200, 'the failed fetch was given back');
  });
});

describe('company data: monthly fetch limit', () => {
  test('fetch_limit 2: the third fetch is a 400 COMPANY_DATA_LIMIT_REACHED', async () => {
    const api = await newWorkspace();
    const settings = await api.get('/v1/workspace/settings');
    assert.deepEqual(settings.body.company_data, { fetch_limit: null });
    const patched = await api.patch('/v1/workspace/settings', { company_data: { fetch_limit: 2 } });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    assert.equal(patched.body.company_data.fetch_limit, 2);
    assertBadRequest(
      await api.patch('/v1/workspace/settings', { company_data: { fetch_limit: -1 } }),
      'company_data.fetch_limit',
    );
    const ref = await firstRef(api, unique('Limited'));
    assert.equal((await api.get(`/v1/company-data/fetch/${ref}`)).status, 200);
    assert.equal((await api.get(`/v1/company-data/fetch/${ref}`)).status, 200);
    const third = await api.get(`/v1/company-data/fetch/${ref}`);
    assert.equal(third.status, 400);
    assert.equal(third.body.code, 'COMPANY_DATA_LIMIT_REACHED');
    // other workspaces are not affected; lifting the limit (null) lets the workspace fetch again
    const other = await newWorkspace();
    assert.equal((await other.get(`/v1/company-data/fetch/${await firstRef(other, 'Limited')}`)).status, 200);
    await api.patch('/v1/workspace/settings', { company_data: { fetch_limit: null } });
    assert.equal((await api.get(`/v1/company-data/fetch/${ref}`)).status, 200);
  });

  test('concurrent fetches never exceed the limit', async () => {
    const api = await newWorkspace();
    await api.patch('/v1/workspace/settings', { company_data: { fetch_limit: 3 } });
    const ref = await firstRef(api, unique('Race'));
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => api.get(`/v1/company-data/fetch/${ref}`)),
    );
    const statuses = answers.map((a) => a.status).sort();
    assert.deepEqual(statuses, [200, 200, 200, ...Array(9).fill(400)]);
    for (const a of answers.filter((x) => x.status === 400)) {
      assert.equal(a.body.code, 'COMPANY_DATA_LIMIT_REACHED');
    }
    const { ctx } = await getHarness();
    const counts = await ctx.db
      .selectFrom('company_data_fetch_counts')
      .select('count')
      .where('workspace_id', '=', api.workspaceId)
      .execute();
    assert.deepEqual(
      counts.map((c) => c.count),
      [3],
    );
  });

  test('a HEAD of a fetch or a search costs nothing: not a route (405, Allow GET), the month keeps its fetch', async () => {
    // HEAD is a safe method (RFC 9110): a link checker or a proxy probing the URL must not use up
    // the workspace's paid registry fetches, nor ask the registry for a body nobody reads
    const api = await newWorkspace();
    await api.patch('/v1/workspace/settings', { company_data: { fetch_limit: 1 } });
    const name = unique('Probe');
    const ref = await firstRef(api, name);
    const { app, ctx } = await getHarness();
    const head = (url: string) =>
      app.inject({ method: 'HEAD', url, headers: { 'x-service-api-key': api.key } });
    const probed = await head(`/v1/company-data/fetch/${ref}`);
    assert.equal(probed.statusCode, 405);
    assert.equal(probed.headers.allow, 'GET');
    const refsBefore = await ctx.db
      .selectFrom('company_data_search_refs')
      .select('ref')
      .where('workspace_id', '=', api.workspaceId)
      .execute();
    const searched = await head(`/v1/company-data/search?country=FR&name=${encodeURIComponent(name)}`);
    assert.equal(searched.statusCode, 405);
    assert.equal(searched.headers.allow, 'GET');
    const refsAfter = await ctx.db
      .selectFrom('company_data_search_refs')
      .select('ref')
      .where('workspace_id', '=', api.workspaceId)
      .execute();
    assert.equal(refsAfter.length, refsBefore.length, 'a HEAD search stores no search_ref');
    const res = await api.get(`/v1/company-data/fetch/${ref}`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal((await api.get(`/v1/company-data/fetch/${ref}`)).body.code, 'COMPANY_DATA_LIMIT_REACHED');
  });

  test('fetch_limit 0 refuses every fetch', async () => {
    const api = await newWorkspace();
    await api.patch('/v1/workspace/settings', { company_data: { fetch_limit: 0 } });
    const res = await api.get(`/v1/company-data/fetch/${await firstRef(api, 'Zero')}`);
    assert.equal(res.body.code, 'COMPANY_DATA_LIMIT_REACHED');
  });
});

describe('company data: configuration', () => {
  const env = (providers: string, extra: Record<string, string> = {}) => ({
    VERICASE_COMPANY_DATA_PROVIDERS: providers,
    ...extra,
  });

  test('defaults: the sandbox serves every country', () => {
    const c = loadConfig({}).companyData;
    assert.deepEqual(c.providers, { '*': 'sandbox' });
    assert.equal(c.timeoutMs, 10_000);
    assert.equal(c.retries, 2);
    assert.equal(c.cacheSeconds, 86_400);
    assert.equal(c.gleif.baseUrl, 'https://api.gleif.org/api/v1');
  });

  test('providers per country; unknown vendor, unknown country or a misplaced registry stop start-up', () => {
    // a setting, read in any case (deployments wrote `de=gleif`)
    const c = loadConfig(env('FR=recherche_entreprises, NO=brreg, de=Gleif, *=none')).companyData;
    assert.deepEqual(c.providers, { FR: 'recherche_entreprises', NO: 'brreg', DE: 'gleif', '*': 'none' });
    assert.throws(() => loadConfig(env('FR=pappers')), /unknown vendor "pappers"/);
    assert.throws(() => loadConfig(env('XX=sandbox')), /"XX" is not an ISO 3166-1/);
    assert.throws(() => loadConfig(env('DE=brreg')), /brreg serves NO only/);
    assert.throws(() => loadConfig(env('FR')), /not COUNTRY=vendor/);
    assert.throws(() => loadConfig(env('GB=companies_house')), /VERICASE_COMPANIES_HOUSE_API_KEY/);
    const gb = loadConfig(env('GB=companies_house', { VERICASE_COMPANIES_HOUSE_API_KEY: 'k' }));
    assert.equal(gb.companyData.companiesHouse.apiKey, 'k');
    assert.throws(() => loadConfig({ VERICASE_GLEIF_URL: 'ftp://x' }), /VERICASE_GLEIF_URL/);
  });
});

/** A registry that is down: answers 500, never answers, or answers 200 with broken JSON. */
async function brokenRegistry(mode: 'fail' | 'hang' | 'malformed') {
  const sockets = new Set<Socket>();
  let requests = 0;
  const server = http.createServer((_req, res) => {
    requests++;
    if (mode === 'hang') return;
    if (mode === 'fail') res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"down"}');
    else res.writeHead(200, { 'content-type': 'application/json' }).end('{"_embedded": [');
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/enhetsregisteret/api`,
    requests: () => requests,
    close: async () => {
      for (const s of sockets) s.destroy();
      server.close();
      await once(server, 'close');
    },
  };
}

describe('company data: a real registry that is down', () => {
  /** Norway switched to Brønnøysund at `url` for one test, with short timeouts. */
  async function withBrreg<T>(url: string, fn: () => Promise<T>): Promise<T> {
    const { ctx } = await getHarness();
    const c = ctx.config.companyData;
    const saved = {
      providers: { ...c.providers },
      brreg: c.brreg,
      timeoutMs: c.timeoutMs,
      retries: c.retries,
    };
    Object.assign(c, { brreg: { baseUrl: url }, timeoutMs: 300, retries: 1 });
    c.providers.NO = 'brreg';
    try {
      return await fn();
    } finally {
      Object.assign(c, saved);
    }
  }

  for (const [mode, status] of [
    ['fail', 503],
    ['hang', 503],
    ['malformed', 502],
  ] as const) {
    test(`a registry that ${mode === 'fail' ? 'answers 500' : mode === 'hang' ? 'hangs' : 'answers broken JSON'}: ${status}, never 500`, async () => {
      const api = await newWorkspace();
      const registry = await brokenRegistry(mode);
      try {
        await withBrreg(registry.url, async () => {
          const res = await search(api, 'country=NO&name=Equinor');
          assert.equal(res.status, status, JSON.stringify(res.body));
          assert.match(res.body.message, /brreg/);
          // bounded retries: the first attempt and one retry, none for an answer that was read
          assert.equal(registry.requests(), mode === 'malformed' ? 1 : 2);
        });
      } finally {
        await registry.close();
      }
    });
  }

  test('a fetch whose registry went down since the search: 503, the fetch is not counted', async () => {
    const api = await newWorkspace();
    const { ctx } = await getHarness();
    await api.patch('/v1/workspace/settings', { company_data: { fetch_limit: 1 } });
    const ref = await firstRef(api, unique('Nordic'), 'NO');
    // the candidate came from Brønnøysund (as if NO had been configured so at search time)
    await ctx.db
      .updateTable('company_data_search_refs')
      .set({ vendor: 'brreg', vendor_ref: '923609016' })
      .where('ref', '=', ref)
      .execute();
    const registry = await brokenRegistry('fail');
    try {
      await withBrreg(registry.url, async () => {
        const res = await api.get(`/v1/company-data/fetch/${ref}`);
        assert.equal(res.status, 503, JSON.stringify(res.body));
      });
    } finally {
      await registry.close();
    }
    const counts = await ctx.db
      .selectFrom('company_data_fetch_counts')
      .select('count')
      .where('workspace_id', '=', api.workspaceId)
      .execute();
    assert.deepEqual(
      counts.map((c) => c.count),
      [0],
    );
  });
});
