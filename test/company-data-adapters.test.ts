import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import {
  type CompanyRegistryProvider,
  type RegistryCall,
  RegistryError,
} from '../src/company-data/provider.ts';
import type { RegistryAdapterOptions } from '../src/company-data/providers/adapter-options.ts';
import { createBrregProvider } from '../src/company-data/providers/brreg/index.ts';
import { createCompaniesHouseProvider } from '../src/company-data/providers/companies-house/index.ts';
import { createGleifProvider } from '../src/company-data/providers/gleif/index.ts';
import { createRechercheEntreprisesProvider } from '../src/company-data/providers/recherche-entreprises/index.ts';
import { CompanyProfile, CompanySearchResult } from '../src/company-data/schemas.ts';
import type { Config } from '../src/config.ts';
import { buildApp } from '../src/http/app.ts';
import { customFormats } from '../src/http/schema-formats.ts';
import {
  FAKE_CH_KEY,
  type FakeRegistry,
  type FakeRegistryKind,
  startFakeRegistry,
} from './helpers/fake-registries.ts';
import { CH_BIG_NUMBER, FAKE_PDF } from './helpers/fake-registry-payloads.ts';
import { clientFor, getHarness, newWorkspace } from './helpers/harness.ts';

/**
 * The real registry adapters against local fakes that answer in each registry's documented format:
 * parsing (search by name and number, fetch with officers and owners, closed companies), and the HTTP
 * client's failure handling (retry after a 500, timeout, no retry on 4xx, unreadable JSON).
 */
const ajv = new Ajv({ allErrors: true, strict: false });
(addFormats as unknown as (a: Ajv) => void)(ajv);
for (const [name, fn] of Object.entries(customFormats)) ajv.addFormat(name, fn);
const validProfile = ajv.compile(CompanyProfile);
const validCandidate = ajv.compile({
  ...CompanySearchResult,
  required: CompanySearchResult.required.filter((k) => k !== 'search_ref'),
});

const TIMEOUT_MS = 300;
const call = (): RegistryCall => ({ signal: AbortSignal.timeout(20_000) });

const fakes = {} as Record<FakeRegistryKind, FakeRegistry>;
const providers = {} as Record<FakeRegistryKind, CompanyRegistryProvider>;
const FACTORIES: Record<FakeRegistryKind, (o: RegistryAdapterOptions) => CompanyRegistryProvider> = {
  gleif: createGleifProvider,
  recherche_entreprises: createRechercheEntreprisesProvider,
  companies_house: createCompaniesHouseProvider,
  brreg: createBrregProvider,
};

before(async () => {
  for (const kind of Object.keys(FACTORIES) as FakeRegistryKind[]) {
    fakes[kind] = await startFakeRegistry(kind);
    providers[kind] = FACTORIES[kind]({
      baseUrl: fakes[kind].baseUrl,
      apiKey: FAKE_CH_KEY,
      timeoutMs: TIMEOUT_MS,
      retries: 1,
    });
  }
});
after(async () => {
  for (const f of Object.values(fakes)) await f.stop();
});

function assertValid(profile: unknown) {
  assert.ok(validProfile(profile), JSON.stringify(validProfile.errors));
}
function assertCandidates(list: unknown[]) {
  for (const c of list) assert.ok(validCandidate(c), JSON.stringify(validCandidate.errors));
}
async function registryError(p: Promise<unknown>): Promise<RegistryError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof RegistryError, `expected a RegistryError, got ${err}`);
    return err;
  }
  assert.fail('expected the call to fail');
}

describe('GLEIF adapter', () => {
  test('search by name and by registration number, within the country', async () => {
    const byName = await providers.gleif.search({ country: 'FR', name: 'acme' }, call());
    assertCandidates(byName);
    assert.deepEqual(
      byName.map((c) => [c.vendorRef, c.registration_number, c.status]),
      [
        ['969500ACMEFR00000012', '552100554', 'live'],
        // no local number: the LEI identifies it; INACTIVE entity → closed
        ['969500ACMEFUND000077', '969500ACMEFUND000077', 'closed'],
      ],
    );
    const byNumber = await providers.gleif.search({ country: 'FR', registrationNumber: '552100554' }, call());
    assert.deepEqual(
      byNumber.map((c) => c.name),
      ['ACME SAS'],
    );
    assert.deepEqual(await providers.gleif.search({ country: 'DE', name: 'acme' }, call()), []);
    const sent = fakes.gleif.requests.at(-2)!.path;
    assert.match(decodeURIComponent(sent), /filter\[entity\.registeredAs\]=552100554/);
    assert.match(decodeURIComponent(sent), /filter\[entity\.legalAddress\.country\]=FR/);
  });

  test('fetch by LEI: ELF code, address, no parties', async () => {
    const { profile, raw } = await providers.gleif.fetch(
      { country: 'FR', vendorRef: '969500ACMEFR00000012' },
      call(),
    );
    assertValid(profile);
    assert.equal(profile.entity_legal_form, '6CHY');
    assert.equal(profile.commercial_name, 'Acme');
    assert.equal(profile.registration_date, '1955-03-01');
    assert.deepEqual(profile.address, {
      street_address: '12 RUE DE LA PAIX',
      street_address_2: null,
      postal_code: '75002',
      city: 'PARIS',
      state: null,
      region: 'FR-75',
      country: 'FR',
    });
    assert.deepEqual(
      [profile.legal_representatives, profile.beneficial_owners, profile.shareholders],
      [[], [], []],
    );
    assert.equal((raw as { data: { id: string } }).data.id, '969500ACMEFR00000012');

    const fund = (await providers.gleif.fetch({ country: 'FR', vendorRef: '969500ACMEFUND000077' }, call()))
      .profile;
    assertValid(fund);
    // 8888 is "other", not a form: the name the LOU gave is the legal form
    assert.deepEqual(
      [fund.status, fund.entity_legal_form, fund.legal_form],
      ['closed', null, 'Fonds commun de placement'],
    );
    assert.equal(fund.address.street_address_2, 'BATIMENT B');
  });

  test('with the ELF list, the ELF code of a profile is labelled', async () => {
    const labelled = createGleifProvider({
      baseUrl: fakes.gleif.baseUrl,
      timeoutMs: TIMEOUT_MS,
      retries: 0,
      legalForms: async () => ({
        label: (code) => (code === '6CHY' ? 'société par actions simplifiée' : null),
      }),
    });
    const { profile } = await labelled.fetch({ country: 'FR', vendorRef: '969500ACMEFR00000012' }, call());
    assert.deepEqual(
      [profile.entity_legal_form, profile.entity_legal_form_label, profile.legal_form],
      ['6CHY', 'société par actions simplifiée', 'société par actions simplifiée'],
    );
  });

  test('an unknown LEI is not_found; GLEIF has no documents', async () => {
    const err = await registryError(
      providers.gleif.fetch({ country: 'FR', vendorRef: '000000000000000000XX' }, call()),
    );
    assert.equal(err.kind, 'not_found');
    assert.deepEqual(
      await providers.gleif.availableDocuments({ country: 'FR', vendorRef: '969500ACMEFR00000012' }, call()),
      [],
    );
    const refused = await registryError(
      providers.gleif.orderDocument({ country: 'FR', vendorRef: 'x' }, 'any', call()),
    );
    assert.equal(refused.kind, 'refused');
  });
});

describe('API Recherche d’entreprises adapter (FR)', () => {
  test('search by name and by SIREN (or SIRET)', async () => {
    const byName = await providers.recherche_entreprises.search({ country: 'FR', name: 'acme' }, call());
    assertCandidates(byName);
    assert.deepEqual(
      byName.map((c) => [c.registration_number, c.status]),
      [
        ['552100554', 'live'],
        ['812345678', 'closed'],
      ],
    );
    const bySiret = await providers.recherche_entreprises.search(
      { country: 'FR', registrationNumber: '552 100 554 00013' },
      call(),
    );
    assert.deepEqual(
      bySiret.map((c) => c.name),
      ['ACME'],
    );
    assert.match(fakes.recherche_entreprises.requests.at(-1)!.path, /q=552100554/);
    assert.deepEqual(
      await providers.recherche_entreprises.search({ country: 'FR', registrationNumber: 'abc' }, call()),
      [],
    );
  });

  test('a registration number typed with dots, hyphens or no-break spaces finds the company, in every registry', async () => {
    for (const [kind, country, typed, found] of [
      ['recherche_entreprises', 'FR', '552.100.554', '552100554'],
      ['recherche_entreprises', 'FR', '552-100-554-00013', '552100554'],
      ['recherche_entreprises', 'FR', '552\u00a0100\u00a0554', '552100554'],
      ['brreg', 'NO', '912.345.678', '912345678'],
      ['brreg', 'NO', '912-345-678', '912345678'],
      ['companies_house', 'GB', '0123-4567', '01234567'],
      ['companies_house', 'GB', '1234.567', '01234567'],
    ] as const) {
      const hits = await providers[kind].search({ country, registrationNumber: typed }, call());
      assert.deepEqual(
        hits.map((c) => c.registration_number),
        [found],
        `${kind} ${typed}`,
      );
    }
  });

  test('fetch: INSEE legal form with its ELF code, NAF, officers with roles and birth months', async () => {
    const { profile } = await providers.recherche_entreprises.fetch(
      { country: 'FR', vendorRef: '552100554' },
      call(),
    );
    assertValid(profile);
    assert.deepEqual(
      [profile.legal_form, profile.entity_legal_form],
      ['SAS, société par actions simplifiée', '6CHY'],
    );
    assert.deepEqual(profile.classifications, [{ type: 'NAF', code: '62.01Z', description: null }]);
    assert.equal(profile.tax_identification_number, 'FR44552100554');
    assert.equal(profile.commercial_name, 'ACME PARIS');
    assert.deepEqual(
      [
        profile.address.street_address,
        profile.address.street_address_2,
        profile.address.postal_code,
        profile.address.city,
      ],
      ['12 RUE DE LA PAIX', 'ESCALIER B', '75002', 'PARIS'],
    );
    const reps = profile.legal_representatives.map((r) =>
      r.entity_type === 'individual'
        ? [r.first_name, r.middle_name, r.last_name, r.position, r.birth_date]
        : [r.name, r.registration_number, r.position],
    );
    assert.deepEqual(reps, [
      ['Marie', 'Claire', 'DUPONT', 'Président de SAS', '1971-04-01'],
      // a year alone is not made into a date
      ['Jean', null, 'MARTIN', 'Directeur général', null],
      // the statutory auditor ("Commissaire aux comptes titulaire") certifies the accounts: no representative
    ]);
    assert.deepEqual(profile.merged_companies, []);
    assert.deepEqual(
      profile.merged_individuals.map((m) => [m.last_name, m.roles, m.position]),
      [
        ['DUPONT', ['legal_representative'], 'Président de SAS'],
        ['MARTIN', ['legal_representative'], 'Directeur général'],
      ],
    );
    assert.deepEqual([profile.beneficial_owners, profile.shareholders], [[], []]);
  });

  test('withheld values ([NON-DIFFUSIBLE]) are no values: no street, postal code or officer name', async () => {
    const [candidate] = await providers.recherche_entreprises.search(
      { country: 'FR', registrationNumber: '901234567' },
      call(),
    );
    assert.deepEqual([candidate?.disclosable, candidate?.address.postal_code], [false, null]);
    const { profile } = await providers.recherche_entreprises.fetch(
      { country: 'FR', vendorRef: '901234567' },
      call(),
    );
    assertValid(profile);
    assert.equal(
      profile.name,
      '[NON-DIFFUSIBLE]',
      'a withheld name still names the company as the registry words it',
    );
    assert.deepEqual(profile.address, {
      street_address: null,
      street_address_2: null,
      postal_code: null,
      city: 'NANTES',
      state: null,
      region: null,
      country: 'FR',
    });
    assert.equal(profile.commercial_name, null);
    assert.deepEqual(profile.legal_representatives, []);
    assert.doesNotMatch(JSON.stringify(profile), /DIFFUSIBLE.*DIFFUSIBLE/);
  });

  test('a ceased company is closed; an unknown SIREN is not_found', async () => {
    const { profile } = await providers.recherche_entreprises.fetch(
      { country: 'FR', vendorRef: '812345678' },
      call(),
    );
    assertValid(profile);
    assert.deepEqual([profile.status, profile.entity_legal_form], ['closed', 'V9QP']);
    const err = await registryError(
      providers.recherche_entreprises.fetch({ country: 'FR', vendorRef: '999999999' }, call()),
    );
    assert.equal(err.kind, 'not_found');
  });
});

describe('Companies House adapter (GB)', () => {
  test('search by name and by company number (padded), with the key as basic auth', async () => {
    const byName = await providers.companies_house.search({ country: 'GB', name: 'acme' }, call());
    assertCandidates(byName);
    assert.deepEqual(
      byName.map((c) => [c.registration_number, c.status]),
      [
        ['01234567', 'live'],
        ['07654321', 'closed'],
      ],
    );
    const byNumber = await providers.companies_house.search(
      { country: 'GB', registrationNumber: '1234567' },
      call(),
    );
    assert.deepEqual(
      byNumber.map((c) => c.name),
      ['ACME WIDGETS LIMITED'],
    );
    assert.equal(
      fakes.companies_house.requests.at(-1)!.headers.authorization,
      `Basic ${Buffer.from(`${FAKE_CH_KEY}:`).toString('base64')}`,
    );
    assert.deepEqual(
      await providers.companies_house.search({ country: 'GB', registrationNumber: '99999999' }, call()),
      [],
    );
  });

  test('fetch: directors as representatives, PSCs as owners with banded percentages', async () => {
    const { profile, raw } = await providers.companies_house.fetch(
      { country: 'GB', vendorRef: '01234567' },
      call(),
    );
    assertValid(profile);
    assert.deepEqual([profile.legal_form, profile.entity_legal_form], ['Private limited company', 'H0PO']);
    assert.deepEqual(profile.classifications, [
      { type: 'SIC', code: '62012', description: null },
      { type: 'SIC', code: '62020', description: null },
    ]);
    assert.deepEqual(
      [
        profile.address.street_address,
        profile.address.street_address_2,
        profile.address.city,
        profile.address.country,
      ],
      ['1 High Street', 'Clerkenwell', 'London', 'GB'],
    );
    // secretary and resigned director left out; the corporate director is a company
    assert.deepEqual(
      profile.legal_representatives.map((r) => [
        r.entity_type,
        r.name,
        r.position,
        r.entity_type === 'individual' ? r.birth_date : null,
      ]),
      [
        ['individual', 'John David Smith', 'director', '1975-06-01'],
        ['individual', "Siobhan O'Brien", 'director', '1982-11-01'],
        ['company', 'ACME NOMINEES LIMITED', 'corporate director', null],
      ],
    );
    // ceased PSC left out; 50-to-75 % → 50 (the band's floor)
    assert.deepEqual(
      profile.beneficial_owners.map((o) => [
        o.name,
        o.ownership_percentage,
        o.entity_type === 'individual' ? o.voting_rights_percentage : null,
      ]),
      [['John David Smith', 50, 50]],
    );
    assert.deepEqual(
      profile.shareholders.map((s) => [
        s.entity_type,
        s.name,
        s.ownership_percentage,
        s.entity_type === 'company' ? s.registration_number : null,
      ]),
      [['company', 'ACME HOLDINGS LIMITED', 25, '05555555']],
    );
    const smith = profile.merged_individuals.find((m) => m.last_name === 'Smith')!;
    assert.deepEqual(
      [smith.roles, smith.is_beneficial_owner, smith.ownership_percentage, smith.position],
      [['legal_representative'], true, 50, 'director'],
    );
    assert.deepEqual(
      profile.merged_companies.map((c) => [
        c.name,
        c.relations[0].roles,
        c.relations[0].ownership_percentage,
      ]),
      [
        ['ACME NOMINEES LIMITED', ['legal_representative'], null],
        ['ACME HOLDINGS LIMITED', ['shareholder'], 25],
      ],
    );
    assert.ok((raw as { officers: unknown[] }).officers.length === 5);
  });

  test('a company with hundreds of officers and PSCs: every page is read, current named ones kept', async () => {
    const before = fakes.companies_house.requests.length;
    const { profile, raw } = await providers.companies_house.fetch(
      { country: 'GB', vendorRef: CH_BIG_NUMBER },
      call(),
    );
    assertValid(profile);
    // the 50 current directors come after 180 resigned ones (pages 2 and 3 of the API)
    assert.equal(profile.legal_representatives.length, 50);
    assert.equal(profile.legal_representatives[0].name, 'Person Director180');
    assert.equal(profile.legal_representatives.at(-1)!.name, 'Person Director229');
    // the 10 current corporate PSCs come after 120 ceased ones
    assert.deepEqual(
      profile.shareholders.map((s) => s.name),
      Array.from({ length: 10 }, (_, i) => `OWNER ${120 + i} LIMITED`),
    );
    const lists = raw as { officers: unknown[]; persons_with_significant_control: unknown[] };
    assert.deepEqual([lists.officers.length, lists.persons_with_significant_control.length], [231, 131]);
    // the director and the PSC the answer gives no name are left out, not imported as nameless people
    assert.deepEqual(profile.beneficial_owners, []);
    assert.ok(profile.merged_individuals.every((p) => p.name.trim() && p.last_name));
    const pages = fakes.companies_house.requests
      .slice(before)
      .map((r) => new URL(r.path, 'http://x'))
      .filter((u) => u.pathname.endsWith('/officers'))
      .map((u) => [u.searchParams.get('items_per_page'), u.searchParams.get('start_index')]);
    assert.deepEqual(pages, [
      ['100', '0'],
      ['100', '100'],
      ['100', '200'],
    ]);
  });

  test('a dissolved company is closed, its missing lists (404) are empty', async () => {
    const { profile } = await providers.companies_house.fetch(
      { country: 'GB', vendorRef: '07654321' },
      call(),
    );
    assertValid(profile);
    assert.equal(profile.status, 'closed');
    assert.deepEqual([profile.legal_representatives, profile.beneficial_owners], [[], []]);
  });

  test('filing history documents, downloaded through the Document API', async () => {
    const ref = { country: 'GB', vendorRef: '01234567' };
    const docs = await providers.companies_house.availableDocuments(ref, call());
    assert.deepEqual(
      docs.map((d) => [d.product_ref, d.name, d.price_tier, d.delivery]),
      [
        ['filing:MzQyMDAwMDAwMQ', 'Confirmation statement (CS01) filed 2024-05-10', 'tier_0', 'instant'],
        ['filing:MzQxOTk5OTk5OQ', 'Accounts (AA) filed 2024-01-20', 'tier_0', 'instant'],
      ],
    );
    const pdf = await providers.companies_house.orderDocument(ref, 'filing:MzQyMDAwMDAwMQ', call());
    assert.deepEqual([pdf.filename, pdf.contentType], ['01234567-CS01-2024-05-10.pdf', 'application/pdf']);
    assert.deepEqual(pdf.bytes, FAKE_PDF);
    // the redirect went to another origin (the storage): the key did not follow it
    const storage = fakes.companies_house.requests.at(-1)!;
    assert.match(storage.path, /^\/storage\//);
    assert.equal(storage.headers.host?.startsWith('localhost:'), true);
    assert.equal(storage.headers.authorization, undefined);
    assert.equal(
      (await registryError(providers.companies_house.orderDocument(ref, 'filing:MzAwMDAwMDAwMA', call())))
        .kind,
      'not_found',
    );
    assert.equal(
      (await registryError(providers.companies_house.orderDocument(ref, '../etc', call()))).kind,
      'refused',
    );
  });

  test('a wrong key is refused (401, not retried); no key at all is refused before any call', async () => {
    const wrongKey = createCompaniesHouseProvider({
      baseUrl: fakes.companies_house.baseUrl,
      apiKey: 'nope',
      timeoutMs: TIMEOUT_MS,
      retries: 2,
    });
    const before = fakes.companies_house.requests.length;
    const err = await registryError(wrongKey.search({ country: 'GB', name: 'acme' }, call()));
    assert.equal(err.kind, 'refused');
    assert.equal(fakes.companies_house.requests.length, before + 1);
    const noKey = createCompaniesHouseProvider({
      baseUrl: fakes.companies_house.baseUrl,
      apiKey: null,
      timeoutMs: TIMEOUT_MS,
      retries: 2,
    });
    assert.equal(
      (await registryError(noKey.search({ country: 'GB', name: 'acme' }, call()))).kind,
      'refused',
    );
    assert.equal(fakes.companies_house.requests.length, before + 1);
  });
});

describe('Brønnøysund adapter (NO)', () => {
  test('search by name and by organisation number; no hits is an empty list', async () => {
    const byName = await providers.brreg.search({ country: 'NO', name: 'acme' }, call());
    assertCandidates(byName);
    assert.deepEqual(
      byName.map((c) => [c.registration_number, c.status]),
      [
        ['912345678', 'live'],
        ['987654321', 'live'],
        ['998877665', 'closed'], // konkurs
      ],
    );
    assert.deepEqual(await providers.brreg.search({ country: 'NO', name: 'zzz' }, call()), []);
    const byNumber = await providers.brreg.search(
      { country: 'NO', registrationNumber: '912 345 678' },
      call(),
    );
    assert.deepEqual(
      byNumber.map((c) => c.name),
      ['ACME NORGE AS'],
    );
    // a deleted unit (410 Gone) is still found, as closed
    const deleted = await providers.brreg.search({ country: 'NO', registrationNumber: '911111111' }, call());
    assert.deepEqual(
      deleted.map((c) => [c.name, c.status]),
      [['ACME GAMMEL AS', 'closed']],
    );
  });

  test('fetch: roles with birth dates, board and general manager merged, ELF code, VAT number', async () => {
    const { profile } = await providers.brreg.fetch({ country: 'NO', vendorRef: '912345678' }, call());
    assertValid(profile);
    assert.deepEqual(
      [profile.legal_form, profile.entity_legal_form, profile.entity_legal_form_label],
      ['Aksjeselskap', 'YI42', 'Aksjeselskap'],
    );
    assert.deepEqual(
      [
        profile.share_capital,
        profile.website_url,
        profile.tax_identification_number,
        profile.registration_date,
      ],
      ['30000 NOK', 'https://www.acme.no', 'NO912345678MVA', '2015-03-12'],
    );
    assert.deepEqual(profile.classifications, [
      { type: 'NACE', code: '62.010', description: 'Programmeringstjenester' },
    ]);
    assert.deepEqual(
      [profile.address.street_address, profile.address.street_address_2, profile.address.postal_code],
      ['Karl Johans gate 1', '3. etasje', '0154'],
    );
    // resigned member and deputy left out; the auditor does not represent the company
    assert.deepEqual(
      profile.legal_representatives.map((r) => [
        r.name,
        r.position,
        r.entity_type === 'individual' ? r.birth_date : null,
      ]),
      [
        ['Kari Nordmann', 'Daglig leder/ adm.direktør', '1980-02-14'],
        ['Per Olav Hansen', 'Styrets leder', '1968-09-30'],
        ['Kari Nordmann', 'Styremedlem', '1980-02-14'],
      ],
    );
    assert.deepEqual(
      profile.merged_individuals.map((m) => [m.name, m.roles, m.position]),
      [
        ['Kari Nordmann', ['legal_representative'], 'Daglig leder/ adm.direktør'],
        ['Per Olav Hansen', ['legal_representative'], 'Styrets leder'],
      ],
    );
  });

  test('the sole proprietor of an ENK owns it; a deleted unit is closed without roles', async () => {
    const enk = (await providers.brreg.fetch({ country: 'NO', vendorRef: '987654321' }, call())).profile;
    assertValid(enk);
    assert.deepEqual(
      enk.beneficial_owners.map((o) => [o.name, o.ownership_percentage]),
      [['Ola Nordmann', 100]],
    );
    assert.deepEqual(
      enk.merged_individuals.map((m) => [m.is_beneficial_owner, m.ownership_percentage, m.roles]),
      [[true, 100, ['legal_representative']]],
    );
    const requests = fakes.brreg.requests.length;
    const gone = (await providers.brreg.fetch({ country: 'NO', vendorRef: '911111111' }, call())).profile;
    assertValid(gone);
    assert.deepEqual([gone.status, gone.legal_representatives], ['closed', []]);
    assert.equal(fakes.brreg.requests.length, requests + 1, 'no roles asked for a deleted unit');
    assert.equal(
      (await registryError(providers.brreg.fetch({ country: 'NO', vendorRef: '900000000' }, call()))).kind,
      'not_found',
    );
  });
});

describe('registry failures', () => {
  const withMode = async <T>(kind: FakeRegistryKind, mode: FakeRegistry['mode'], fn: () => Promise<T>) => {
    fakes[kind].mode = mode;
    try {
      return await fn();
    } finally {
      fakes[kind].mode = 'ok';
    }
  };

  test('a 500 then a 200: the retry succeeds, the registry was asked twice', async () => {
    for (const kind of Object.keys(FACTORIES) as FakeRegistryKind[]) {
      const before = fakes[kind].requests.length;
      const found = await withMode(kind, 'fail-once', () =>
        providers[kind].search({ country: kind === 'gleif' ? 'FR' : countryOf(kind), name: 'acme' }, call()),
      );
      assert.ok(found.length > 0, kind);
      assert.equal(fakes[kind].requests.length, before + 2, kind);
    }
  });

  test('a 429 is retried like a 5xx', async () => {
    const before = fakes.brreg.requests.length;
    const found = await withMode('brreg', 'rate-limited-once', () =>
      providers.brreg.search({ country: 'NO', name: 'acme' }, call()),
    );
    assert.equal(found.length, 3);
    assert.equal(fakes.brreg.requests.length, before + 2);
  });

  test('JSON without the documented shape is a bad answer, for every adapter', async () => {
    for (const kind of Object.keys(FACTORIES) as FakeRegistryKind[]) {
      const err = await withMode(kind, 'shapeless', () =>
        registryError(providers[kind].search({ country: countryOf(kind), name: 'acme' }, call())),
      );
      assert.equal(err.kind, 'bad_answer', kind);
      const fetched = await withMode(kind, 'shapeless', () =>
        registryError(
          providers[kind].fetch({ country: countryOf(kind), vendorRef: VENDOR_REFS[kind] }, call()),
        ),
      );
      assert.equal(fetched.kind, 'bad_answer', kind);
    }
  });

  test('always 500: unavailable after the configured retries', async () => {
    const provider = createBrregProvider({ baseUrl: fakes.brreg.baseUrl, timeoutMs: TIMEOUT_MS, retries: 2 });
    const before = fakes.brreg.requests.length;
    const err = await withMode('brreg', 'fail', () =>
      registryError(provider.search({ country: 'NO', name: 'acme' }, call())),
    );
    assert.equal(err.kind, 'unavailable');
    assert.match(err.message, /500.*3 attempts/);
    assert.equal(fakes.brreg.requests.length, before + 3);
  });

  test('a registry that never answers: unavailable once every attempt timed out', async () => {
    const provider = createGleifProvider({ baseUrl: fakes.gleif.baseUrl, timeoutMs: TIMEOUT_MS, retries: 1 });
    const before = fakes.gleif.requests.length;
    const err = await withMode('gleif', 'hang', () =>
      registryError(provider.search({ country: 'FR', name: 'acme' }, call())),
    );
    assert.equal(err.kind, 'unavailable');
    assert.match(err.message, new RegExp(`within ${TIMEOUT_MS} ms`));
    assert.equal(fakes.gleif.requests.length, before + 2);
  });

  test('the caller aborting stops at once, without a retry', async () => {
    const provider = createGleifProvider({ baseUrl: fakes.gleif.baseUrl, timeoutMs: 60_000, retries: 3 });
    const before = fakes.gleif.requests.length;
    const controller = new AbortController();
    const err = await withMode('gleif', 'hang', async () => {
      const pending = registryError(
        provider.search({ country: 'FR', name: 'acme' }, { signal: controller.signal }),
      );
      while (fakes.gleif.requests.length === before) await new Promise((r) => setTimeout(r, 5));
      controller.abort(new Error('client gone'));
      return pending;
    });
    assert.equal(err.kind, 'unavailable');
    assert.match(err.message, /cancelled/);
    assert.equal(fakes.gleif.requests.length, before + 1);
  });

  test('a 4xx is not retried; a query the registry cannot take is refused before asking it', async () => {
    const before = fakes.recherche_entreprises.requests.length;
    // the API refuses texts shorter than 3 characters: the adapter says so itself (a 400 naming name)
    const err = await registryError(
      providers.recherche_entreprises.search({ country: 'FR', name: 'ab' }, call()),
    );
    assert.equal(err.kind, 'bad_query');
    assert.equal(err.field, 'name');
    assert.equal(fakes.recherche_entreprises.requests.length, before);
    const brregBefore = fakes.brreg.requests.length;
    const unauthorized = await withMode('brreg', 'unauthorized', () =>
      registryError(providers.brreg.search({ country: 'NO', name: 'acme' }, call())),
    );
    assert.equal(unauthorized.kind, 'refused');
    assert.equal(fakes.brreg.requests.length, brregBefore + 1);
  });

  test('unreadable JSON is a bad answer, for every adapter', async () => {
    for (const kind of Object.keys(FACTORIES) as FakeRegistryKind[]) {
      const err = await withMode(kind, 'malformed', () =>
        registryError(providers[kind].search({ country: countryOf(kind), name: 'acme' }, call())),
      );
      assert.equal(err.kind, 'bad_answer', kind);
    }
  });

  test('a registry that cannot be reached is unavailable', async () => {
    const closed = await startFakeRegistry('brreg');
    const baseUrl = closed.baseUrl;
    await closed.stop();
    const provider = createBrregProvider({ baseUrl, timeoutMs: TIMEOUT_MS, retries: 1 });
    const err = await registryError(provider.search({ country: 'NO', name: 'acme' }, call()));
    assert.equal(err.kind, 'unavailable');
    assert.match(err.message, /could not be reached/);
  });
});

const VENDOR_REFS: Record<FakeRegistryKind, string> = {
  gleif: '969500ACMEFR00000012',
  recherche_entreprises: '552100554',
  companies_house: '01234567',
  brreg: '912345678',
};

function countryOf(kind: FakeRegistryKind): string {
  return { gleif: 'FR', recherche_entreprises: 'FR', companies_house: 'GB', brreg: 'NO' }[kind];
}

describe('company data over HTTP with real adapters', () => {
  /** A second app on the shared database whose countries are served by adapters pointing at fakes. */
  async function appWith(companyData: Partial<Config['companyData']>) {
    const { ctx } = await getHarness();
    const config = { ...ctx.config, companyData: { ...ctx.config.companyData, ...companyData } };
    const app = await buildApp({ ...ctx, config });
    await app.ready();
    const ws = await newWorkspace();
    return { app, api: clientFor(app, ws.key, ws.workspaceId) };
  }

  test('FR on API Recherche d’entreprises: search then fetch give the mapped profile', async () => {
    const { app, api } = await appWith({
      providers: { FR: 'recherche_entreprises', '*': 'sandbox' },
      rechercheEntreprises: { baseUrl: fakes.recherche_entreprises.baseUrl },
    });
    try {
      const found = await api.get('/v1/company-data/search?country=FR&name=acme');
      assert.equal(found.status, 200, JSON.stringify(found.body));
      assert.deepEqual(
        found.body.data.map((c: any) => [c.name, c.registration_number, c.status]),
        [
          ['ACME', '552100554', 'live'],
          ['ACME CONSEIL', '812345678', 'closed'],
        ],
      );
      const fetched = await api.get(`/v1/company-data/fetch/${found.body.data[0].search_ref}`);
      assert.equal(fetched.status, 200, JSON.stringify(fetched.body));
      assert.equal(fetched.body.entity_legal_form, '6CHY');
      assert.deepEqual(
        fetched.body.legal_representatives.map((r: any) => r.name),
        ['Marie Claire DUPONT', 'Jean MARTIN'],
        'the statutory auditor is no legal representative',
      );
      // the API refuses texts under 3 characters: the caller's 400, naming the field, not a 502
      const short = await api.get('/v1/company-data/search?country=FR&name=ac');
      assert.equal(short.status, 400, JSON.stringify(short.body));
      assert.equal(short.body.details[0].path, 'name');
      assert.match(short.body.message, /at least 3 characters/);
    } finally {
      await app.close();
    }
  });

  test('a registration number of separators only (no digit) finds nothing, without asking the registry', async () => {
    // "...", " - " are typed numbers that no company has: an empty answer, as for any number that
    // cannot be one. Not a search by an empty name (Norway would list unrelated units) nor a 400
    // about a `name` the caller never gave (France).
    const { app, api } = await appWith({
      providers: { FR: 'recherche_entreprises', NO: 'brreg', GB: 'companies_house', '*': 'sandbox' },
      rechercheEntreprises: { baseUrl: fakes.recherche_entreprises.baseUrl },
      brreg: { baseUrl: fakes.brreg.baseUrl },
      companiesHouse: { baseUrl: fakes.companies_house.baseUrl, apiKey: FAKE_CH_KEY },
    });
    try {
      for (const country of ['FR', 'NO', 'GB']) {
        for (const typed of ['...', ' - ', '/']) {
          const asked = Object.values(fakes).reduce((n, f) => n + f.requests.length, 0);
          const res = await api.get(
            `/v1/company-data/search?country=${country}&registration_number=${encodeURIComponent(typed)}`,
          );
          assert.equal(res.status, 200, `${country} ${JSON.stringify(typed)}: ${JSON.stringify(res.body)}`);
          assert.deepEqual(res.body.data, [], `${country} ${JSON.stringify(typed)}`);
          const after = Object.values(fakes).reduce((n, f) => n + f.requests.length, 0);
          assert.equal(after, asked, `${country} ${JSON.stringify(typed)}: no registry request`);
        }
      }
    } finally {
      await app.close();
    }
  });

  test('FR on GLEIF: the ELF code of the profile is labelled from the ISO 20275 list', async () => {
    const { app, api } = await appWith({
      providers: { FR: 'gleif', '*': 'sandbox' },
      gleif: { baseUrl: fakes.gleif.baseUrl },
    });
    try {
      const found = await api.get('/v1/company-data/search?country=FR&registration_number=552100554');
      assert.deepEqual(
        found.body.data.map((c: any) => c.name),
        ['ACME SAS'],
      );
      const fetched = await api.get(`/v1/company-data/fetch/${found.body.data[0].search_ref}`);
      assert.equal(fetched.status, 200, JSON.stringify(fetched.body));
      assert.deepEqual(
        [fetched.body.entity_legal_form, fetched.body.entity_legal_form_label],
        ['6CHY', 'société par actions simplifiée'],
      );
    } finally {
      await app.close();
    }
  });

  test('GB on Companies House: the fetched label is the ISO 20275 list’s, as on the company created from it', async () => {
    const { app, api } = await appWith({
      providers: { GB: 'companies_house', '*': 'sandbox' },
      companiesHouse: { baseUrl: fakes.companies_house.baseUrl, apiKey: FAKE_CH_KEY },
    });
    try {
      const found = await api.get('/v1/company-data/search?country=GB&registration_number=01234567');
      assert.deepEqual(
        found.body.data.map((c: any) => c.name),
        ['ACME WIDGETS LIMITED'],
      );
      const fetched = await api.get(`/v1/company-data/fetch/${found.body.data[0].search_ref}`);
      assert.equal(fetched.status, 200, JSON.stringify(fetched.body));
      // the adapter's own English name ("Private Limited Company") was the fetched label, while the
      // company showed the list's (H0PO is named in English and Welsh)
      assert.deepEqual(
        [fetched.body.entity_legal_form, fetched.body.entity_legal_form_label],
        ['H0PO', 'Private Limited Company, cyfyngedig'],
      );
      const kase = await api.post('/v1/cases', {
        name: 'Acme Widgets',
        companies: [{ search_ref: found.body.data[0].search_ref }],
      });
      assert.equal(kase.status, 201, JSON.stringify(kase.body));
      assert.equal(kase.body.companies[0].entity_legal_form_label, fetched.body.entity_legal_form_label);
      // a cached profile is labelled the same
      const again = await api.get('/v1/company-data/search?country=GB&registration_number=01234567');
      const cached = await api.get(`/v1/company-data/fetch/${again.body.data[0].search_ref}`);
      assert.equal(cached.body.entity_legal_form_label, 'Private Limited Company, cyfyngedig');
    } finally {
      await app.close();
    }
  });

  test('GB on a Companies House that never answers: 503 with the error body, within the timeout', async () => {
    const hanging = await startFakeRegistry('companies_house');
    hanging.mode = 'hang';
    const { app, api } = await appWith({
      providers: { GB: 'companies_house', '*': 'sandbox' },
      companiesHouse: { baseUrl: hanging.baseUrl, apiKey: FAKE_CH_KEY },
      timeoutMs: 200,
      retries: 1,
    });
    try {
      const res = await api.get('/v1/company-data/search?country=GB&name=acme');
      assert.equal(res.status, 503, JSON.stringify(res.body));
      assert.equal(res.body.code, 'SERVICE_UNAVAILABLE');
      assert.match(res.body.message, /companies_house.*unavailable/);
      assert.equal(hanging.requests.length, 2, 'one attempt and one retry');
    } finally {
      await app.close();
      await hanging.stop();
    }
  });
});
