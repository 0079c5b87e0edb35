import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sql } from 'kysely';
import { luhnValid } from '../src/checks/types/document/analysis/normalize.ts';
import { createConsoleUser, signInHeaders } from './helpers/console-session.ts';
import { FakeRegistry } from './helpers/fake-registries.ts';
import { BRREG_UNITS } from './helpers/fake-registry-payloads.ts';
import { type Client, getHarness, newWorkspace } from './helpers/harness.ts';

/**
 * Registry data into the case (issue 11): companies created from a sandbox search_ref, with their
 * officers and owners; property origin; company_monitoring. Over HTTP, on both databases.
 */

/** A search_ref of the sandbox registry: the first candidate for the name. */
async function searchRef(api: Client, name = 'Acme', country = 'FR'): Promise<string> {
  const res = await api.get(`/v1/company-data/search?country=${country}&name=${encodeURIComponent(name)}`);
  if (res.status === 404) {
    // the search route not mounted yet: the same use case, called directly
    const { searchCompanies } = await import('../src/company-data/search-companies.ts');
    const { ctx } = await getHarness();
    return (await searchCompanies(ctx, api.workspaceId, { country, name })).data[0].search_ref;
  }
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.data[0].search_ref;
}

async function countRows(workspaceId: string) {
  const { ctx } = await getHarness();
  const { rows } = await sql<Record<string, string>>`
    select (select count(*) from cases where workspace_id = ${workspaceId}) as cases,
      (select count(*) from companies where workspace_id = ${workspaceId}) as companies,
      (select count(*) from individuals where workspace_id = ${workspaceId}) as individuals,
      (select count(*) from company_vendor_data where workspace_id = ${workspaceId}) as vendor_data,
      (select count(*) from events where workspace_id = ${workspaceId}) as events
  `.execute(ctx.db);
  return Object.fromEntries(Object.entries(rows[0]).map(([k, v]) => [k, Number(v)]));
}

async function events(workspaceId: string, prefix: string) {
  const { ctx } = await getHarness();
  return ctx.db
    .selectFrom('events')
    .select(['type', 'sub_event', 'payload', 'actor_type'])
    .where('workspace_id', '=', workspaceId)
    .where('type', 'like', `${prefix}%`)
    .orderBy('seq')
    .execute();
}

async function createFromRegistry(
  api: Client,
  company: Record<string, unknown>,
  extra: Record<string, unknown> = {},
) {
  return api.post('/v1/cases', { name: 'Registry case', companies: [company], ...extra });
}

describe('case creation from a search_ref', () => {
  test('import_related brings officers and owners with roles, percentages, birth dates and relations', async () => {
    const api = await newWorkspace();
    const ref = await searchRef(api, 'Acme');
    const profile = await api.get(`/v1/company-data/fetch/${encodeURIComponent(ref)}`);
    const res = await createFromRegistry(api, { search_ref: ref, import_related: true });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const kase = (await api.get(`/v1/cases/${res.body.id}`)).body;
    const main = kase.companies.find((c: any) => c.type === 'main');
    assert.match(main.name, /acme/i);
    assert.equal(main.country, 'FR');
    assert.ok(main.registration_number);
    assert.ok(main.legal_form);
    assert.ok(main.entity_legal_form, 'ELF code from the profile');
    assert.equal(main.address.country, 'FR');
    assert.ok(main.classifications.length >= 1);
    if (profile.status === 200) {
      assert.equal(main.name, profile.body.name);
      assert.equal(main.registration_number, profile.body.registration_number);
      assert.equal(main.share_capital, profile.body.share_capital);
    }

    // the sandbox profile: a director owning 60 % (beneficial owner), a second legal representative,
    // and a holding company owning 40 %; the director appears in three lists but is one individual
    assert.equal(kase.individuals.length, 2);
    const owner = kase.individuals.find((p: any) => p.is_beneficial_owner);
    const second = kase.individuals.find((p: any) => !p.is_beneficial_owner);
    assert.deepEqual([...owner.roles].sort(), ['legal_representative', 'shareholder']);
    assert.equal(owner.ownership_percentage, 60);
    assert.match(owner.birth_date, /^\d{4}-\d{2}-\d{2}$/);
    assert.ok(owner.position);
    assert.equal(owner.relations.length, 1);
    assert.equal(owner.relations[0].to_company_id, main.id);
    assert.deepEqual([...owner.relations[0].roles].sort(), ['legal_representative', 'shareholder']);
    assert.equal(owner.relations[0].ownership_percentage, 60);
    assert.deepEqual(second.roles, ['legal_representative']);
    assert.equal(second.ownership_percentage, null);
    assert.match(second.birth_date, /^\d{4}-\d{2}-\d{2}$/);
    assert.equal(second.relations[0].to_company_id, main.id);

    const holding = kase.companies.find((c: any) => c.type === 'affiliated');
    assert.match(holding.name, /holding/i);
    assert.ok(holding.registration_number);
    // a number of its own, both valid SIRENs: the holding's was `<parent's>-H`, the parent's SIREN
    // once normalised, so a fraud report or a Kbis of one matched the other
    assert.match(main.registration_number, /^\d{9}$/);
    assert.match(holding.registration_number, /^\d{9}$/);
    assert.notEqual(holding.registration_number, main.registration_number);
    for (const n of [main.registration_number, holding.registration_number]) assert.ok(luhnValid(n), n);
    assert.equal(holding.relations[0].to_company_id, main.id);
    assert.deepEqual(holding.relations[0].roles, ['shareholder']);
    assert.equal(holding.relations[0].ownership_percentage, 40);

    // the raw answer is the company's vendor data
    const vendorData = await api.get(`/v1/companies/${main.id}/vendor-data`);
    assert.equal(vendorData.status, 200);
    assert.equal(vendorData.body.data.length, 1);
    assert.equal(vendorData.body.data[0].name, 'sandbox');

    // every entity has its Created event, in the case's transaction
    const created = await events(api.workspaceId, 'Company.Created');
    assert.equal(created.length, 2);
    assert.equal((await events(api.workspaceId, 'Individual.Created')).length, 2);
  });

  test('fields given in the body win over the profile; without import_related nothing else is created', async () => {
    const api = await newWorkspace();
    const ref = await searchRef(api, 'Acme');
    const res = await createFromRegistry(api, {
      search_ref: ref,
      name: 'My Own Name',
      website_url: 'https://mine.example',
      address: { city: 'Lyon' },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const main = res.body.companies[0];
    assert.equal(main.name, 'My Own Name');
    assert.equal(main.website_url, 'https://mine.example');
    assert.equal(main.address.city, 'Lyon');
    assert.ok(main.address.street_address, 'other address keys from the profile');
    assert.ok(main.registration_number);
    assert.equal(res.body.companies.length, 1);
    assert.equal(res.body.individuals.length, 0);
  });

  test('property_origin=true says which fields came from the registry; without it there is no lineage', async () => {
    const api = await newWorkspace();
    const ref = await searchRef(api, 'Acme');
    const res = await createFromRegistry(
      api,
      { search_ref: ref, import_related: true, name: 'Typed Name' },
      {
        individuals: [
          { first_name: 'Zelda', last_name: 'Typedname', relations: [{ roles: ['legal_representative'] }] },
        ],
      },
    );
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const plain = (await api.get(`/v1/cases/${res.body.id}`)).body;
    assert.equal(plain.companies[0].data_lineage, undefined);
    const kase = (await api.get(`/v1/cases/${res.body.id}?property_origin=true`)).body;
    const main = kase.companies.find((c: any) => c.type === 'main');
    const lineage = main.data_lineage;
    assert.equal(lineage.name.current_value, 'Typed Name');
    assert.equal(lineage.name.sources[0].origin.type, 'api');
    assert.equal(lineage.registration_number.sources[0].origin.type, 'vendor');
    assert.equal(lineage.registration_number.sources[0].origin.name, 'sandbox');
    assert.equal(lineage.registration_number.current_value, main.registration_number);
    assert.equal(lineage['address.city'].sources[0].origin.type, 'vendor');
    const ada = kase.individuals.find((p: any) => p.last_name === 'Typedname');
    assert.equal(ada.data_lineage.first_name.sources[0].origin.type, 'api');
    const imported = kase.individuals.find((p: any) => p.is_beneficial_owner);
    assert.equal(imported.data_lineage.birth_date.sources[0].origin.type, 'vendor');
    assert.equal(imported.data_lineage.ownership_percentage.current_value, 60);
    // a field changed over the API no longer comes from the registry
    const registryCity = main.address.city;
    const registryCapital = main.share_capital;
    const patchedAt = Date.now();
    const patched = await api.patch(`/v1/companies/${main.id}`, {
      share_capital: '1 EUR',
      address: { city: 'Nantes' },
    });
    assert.equal(patched.status, 200);
    const again = (await api.get(`/v1/cases/${res.body.id}?property_origin=true`)).body;
    const mainAgain = again.companies.find((c: any) => c.type === 'main').data_lineage;
    assert.equal(mainAgain.share_capital.sources[0].origin.type, 'api');
    assert.equal(mainAgain.share_capital.current_value, '1 EUR');
    assert.equal(mainAgain['address.city'].sources[0].origin.type, 'api');
    // the edit is dated when it was made, and the registry's value it replaced stays as a source
    const city = mainAgain['address.city'];
    assert.ok(Date.parse(city.sources[0].at) >= patchedAt - 1000, `${city.sources[0].at} is the edit's time`);
    assert.deepEqual(
      city.sources.map((x: any) => [x.value, x.origin.type, x.is_current]),
      [
        ['Nantes', 'api', true],
        [registryCity, 'vendor', false],
      ],
    );
    assert.equal(city.sources[1].origin.name, 'sandbox');
    assert.ok(Date.parse(city.sources[1].at) < Date.parse(city.sources[0].at));
    assert.deepEqual(
      mainAgain.share_capital.sources.map((x: any) => x.value),
      ['1 EUR', registryCapital],
    );
    // edited again: still the registry's first value behind the latest one
    await api.patch(`/v1/companies/${main.id}`, { address: { city: 'Rennes' } });
    const third = (await api.get(`/v1/companies/${main.id}?data_lineage=true`)).body.data_lineage;
    assert.deepEqual(
      third['address.city'].sources.map((x: any) => x.value),
      ['Rennes', registryCity],
    );
    assert.equal(mainAgain['address.postal_code'].sources[0].origin.type, 'vendor');
    assert.equal(mainAgain.registration_number.sources[0].origin.type, 'vendor');
    assert.equal((await api.patch(`/v1/individuals/${imported.id}`, { birth_place: 'Lyon' })).status, 200);
    const person = (await api.get(`/v1/cases/${res.body.id}?property_origin=true`)).body.individuals.find(
      (p: any) => p.id === imported.id,
    ).data_lineage;
    assert.equal(person.birth_place.sources[0].origin.type, 'api');
    assert.equal(person.birth_date.sources[0].origin.type, 'vendor');
    // the reference's spelling gives the same
    const ref2 = (await api.get(`/v1/cases/${res.body.id}?data_lineage=true`)).body;
    assert.deepEqual(ref2.companies[0].data_lineage.name, kase.companies[0].data_lineage.name);
  });

  test('lineage of an imported shareholder company names the registry; empty bank details have no source', async () => {
    const api = await newWorkspace();
    const ref = await searchRef(api, 'Lineage Holdco');
    const res = await createFromRegistry(api, { search_ref: ref, import_related: true });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const kase = (await api.get(`/v1/cases/${res.body.id}?property_origin=true`)).body;
    const main = kase.companies.find((c: any) => c.type === 'main');
    const holding = kase.companies.find((c: any) => c.type === 'affiliated');
    for (const path of ['name', 'registration_number', 'entity_legal_form', 'address.city']) {
      assert.deepEqual(
        holding.data_lineage[path].sources[0].origin,
        { type: 'vendor', name: 'sandbox' },
        path,
      );
    }
    const one = await api.get(`/v1/companies/${holding.id}?data_lineage=true`);
    assert.deepEqual(one.body.data_lineage, holding.data_lineage);
    // {iban: null, bic: null} is what every entity without bank details shows: nobody gave it
    const director = kase.individuals.find((p: any) => p.is_beneficial_owner);
    for (const entity of [main, holding, director]) {
      assert.deepEqual(entity.banking_information, { iban: null, bic: null });
      assert.equal(entity.data_lineage.banking_information, undefined);
    }
    // bank details given over the API are the API's
    const iban = 'FR7630006000011234567890189';
    assert.equal(
      (await api.patch(`/v1/companies/${main.id}`, { banking_information: { iban } })).status,
      200,
    );
    const lineage = (await api.get(`/v1/companies/${main.id}?data_lineage=true`)).body.data_lineage;
    assert.equal(lineage.banking_information.sources[0].origin.type, 'api');
    assert.equal(lineage.banking_information.current_value.iban, iban);
  });

  test('a company shows the ISO 20275 label of its entity_legal_form, imported or typed', async () => {
    const api = await newWorkspace();
    const ref = await searchRef(api, 'Label Test');
    const res = await api.post('/v1/cases', {
      name: 'Labels',
      companies: [
        { search_ref: ref, import_related: true },
        { name: 'Typed Ltd', type: 'affiliated', country: 'GB', entity_legal_form: 'H0PO' },
        { name: 'Typed None', type: 'affiliated', country: 'FR' },
      ],
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const SAS = 'société par actions simplifiée';
    const labels = (companies: any[]) =>
      Object.fromEntries(companies.map((c) => [c.name, [c.entity_legal_form, c.entity_legal_form_label]]));
    const expected = {
      'Label Test': ['6CHY', SAS],
      'Label Test Holding': ['6CHY', SAS],
      // a form named in two languages: both names, as the reference says
      'Typed Ltd': ['H0PO', 'Private Limited Company, cyfyngedig'],
      'Typed None': [null, null],
    };
    assert.deepEqual(labels(res.body.companies), expected);
    // a typed code that is not an active form of the company's country is refused
    // (test/company-legal-form.test.ts); only a registry's own code can be unknown to the list
    const unknown = await api.post('/v1/companies', {
      case_id: res.body.id,
      type: 'affiliated',
      name: 'Typed Other',
      country: 'FR',
      entity_legal_form: 'ZZZZ',
    });
    assert.equal(unknown.status, 400, JSON.stringify(unknown.body));
    assert.deepEqual(labels((await api.get(`/v1/cases/${res.body.id}`)).body.companies), expected);
    assert.deepEqual(labels((await api.get(`/v1/companies?limit=100`)).body.data), expected);
    const main = res.body.companies.find((c: any) => c.name === 'Label Test');
    assert.equal((await api.get(`/v1/companies/${main.id}`)).body.entity_legal_form_label, SAS);
    // the profile and the company say the same
    const profile = (await api.get(`/v1/company-data/fetch/${await searchRef(api, 'Label Test')}`)).body;
    assert.equal(profile.entity_legal_form_label, SAS);
    const patched = await api.patch(`/v1/companies/${main.id}`, { entity_legal_form: 'K65D' });
    assert.equal(patched.body.entity_legal_form_label, "SA à conseil d'administration (s.a.i.)");
  });

  test('imported entities get the template checks like typed ones', async () => {
    const api = await newWorkspace();
    const tpl = await api.post('/v1/templates', {
      key: 'kyb',
      name: 'KYB',
      checks: [
        { type: 'online_reputation', targets: ['main_company'] },
        { type: 'ekyc', targets: ['legal_representatives'] },
      ],
    });
    assert.equal(tpl.status, 201, JSON.stringify(tpl.body));
    const ref = await searchRef(api, 'Acme');
    const res = await createFromRegistry(
      api,
      { search_ref: ref, import_related: true },
      { template_key: 'kyb' },
    );
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const main = res.body.companies.find((c: any) => c.type === 'main');
    assert.deepEqual(
      main.checks.map((c: any) => c.type),
      ['online_reputation'],
    );
    for (const p of res.body.individuals)
      assert.deepEqual(
        p.checks.map((c: any) => c.type),
        ['ekyc'],
      );
  });

  test('POST /v1/companies with search_ref (and import_related) in an existing case', async () => {
    const api = await newWorkspace();
    const kase = await api.post('/v1/cases', { name: 'Empty' });
    const ref = await searchRef(api, 'Globex');
    const res = await api.post('/v1/companies', {
      case_id: kase.body.id,
      search_ref: ref,
      import_related: true,
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.match(res.body.name, /globex/i);
    assert.equal(res.body.type, 'main');
    const full = (await api.get(`/v1/cases/${kase.body.id}?property_origin=true`)).body;
    assert.equal(full.individuals.length, 2);
    assert.equal(full.companies.length, 2);
    const owner = full.individuals.find((p: any) => p.is_beneficial_owner);
    assert.equal(owner.relations[0].to_company_id, res.body.id);
    assert.equal(owner.data_lineage.last_name.sources[0].origin.type, 'vendor');
    const main = full.companies.find((c: any) => c.id === res.body.id);
    assert.equal(main.data_lineage.name.sources[0].origin.type, 'vendor');
    const person = await api.get(`/v1/individuals/${owner.id}?data_lineage=true`);
    assert.deepEqual(person.body.data_lineage, owner.data_lineage);
    const one = await api.get(`/v1/companies/${res.body.id}?data_lineage=true`);
    assert.deepEqual(one.body.data_lineage, main.data_lineage);
    assert.equal((await api.get(`/v1/companies/${res.body.id}`)).body.data_lineage, undefined);
  });

  test('name stays required without search_ref; import_related needs search_ref', async () => {
    const api = await newWorkspace();
    let res = await createFromRegistry(api, { country: 'FR' });
    assert.equal(res.status, 400);
    assert.equal(res.body.details[0].path, 'companies[0].name');
    res = await createFromRegistry(api, { name: 'Acme', import_related: true });
    assert.equal(res.status, 400);
    assert.equal(res.body.details[0].path, 'companies[0].import_related');
    const kase = await api.post('/v1/cases', { name: 'Empty' });
    res = await api.post('/v1/companies', { case_id: kase.body.id });
    assert.equal(res.status, 400);
    assert.equal(res.body.details[0].path, 'name');
    assert.equal((await countRows(api.workspaceId)).companies, 0);
  });

  test('the same search_ref twice in one case body is a 400 naming the second; nothing written', async () => {
    const api = await newWorkspace();
    const ref = await searchRef(api, 'Twice');
    const before = await countRows(api.workspaceId);
    const res = await api.post('/v1/cases', {
      name: 'twice',
      companies: [
        { type: 'main', search_ref: ref, import_related: true },
        { type: 'affiliated', search_ref: ref, import_related: true },
      ],
    });
    // it was a 201 with every company and person of the record twice, and two fetches counted
    assert.equal(res.status, 400, JSON.stringify(res.body));
    assert.equal(res.body.details[0].path, 'companies[1].search_ref');
    assert.match(res.body.message, /the same as companies\[0\]\.search_ref/);
    assert.deepEqual(await countRows(api.workspaceId), before);
  });

  test('two search_refs of one registry record in one case body: a 400 naming the second, no fetch counted', async () => {
    const api = await newWorkspace();
    // each search gives new refs for the same record: only the record tells they are one company
    const first = await searchRef(api, 'Betaco');
    const second = await searchRef(api, 'Betaco');
    assert.notEqual(first, second);
    const before = await countRows(api.workspaceId);
    const res = await api.post('/v1/cases', {
      name: 'dup2',
      companies: [{ search_ref: first }, { type: 'affiliated', search_ref: second }],
    });
    // it was a 201 with the company twice, both linked to the registry, and two fetches counted
    assert.equal(res.status, 400, JSON.stringify(res.body));
    assert.equal(res.body.details[0].path, 'companies[1].search_ref');
    assert.match(res.body.message, /same registry company as companies\[0\]\.search_ref/);
    assert.deepEqual(await countRows(api.workspaceId), before);
    const { ctx } = await getHarness();
    const counted = await ctx.db
      .selectFrom('company_data_fetch_counts')
      .select('count')
      .where('workspace_id', '=', api.workspaceId)
      .execute();
    assert.equal(
      counted.reduce((n, r) => n + Number(r.count), 0),
      0,
    );
    // either ref alone is still a case's company
    const once = await api.post('/v1/cases', { name: 'once', companies: [{ search_ref: second }] });
    assert.equal(once.status, 201, JSON.stringify(once.body));
  });

  test('a registry company already in the case is refused when added again through POST /v1/companies', async () => {
    const api = await newWorkspace();
    const kase = (await api.post('/v1/cases', { name: 'Once' })).body;
    const first = await api.post('/v1/companies', {
      case_id: kase.id,
      search_ref: await searchRef(api, 'Globex'),
    });
    assert.equal(first.status, 201, JSON.stringify(first.body));
    const before = await countRows(api.workspaceId);
    // another search, the same registry record: it made a second linked copy of the company
    const again = await api.post('/v1/companies', {
      case_id: kase.id,
      type: 'affiliated',
      search_ref: await searchRef(api, 'Globex'),
    });
    assert.equal(again.status, 400, JSON.stringify(again.body));
    assert.equal(again.body.details[0].path, 'search_ref');
    assert.match(again.body.message, new RegExp(`already company ${first.body.id} of the case`));
    assert.deepEqual(await countRows(api.workspaceId), before);
    // another case may hold it
    const other = (await api.post('/v1/cases', { name: 'Elsewhere' })).body;
    const elsewhere = await api.post('/v1/companies', {
      case_id: other.id,
      search_ref: await searchRef(api, 'Globex'),
    });
    assert.equal(elsewhere.status, 201, JSON.stringify(elsewhere.body));
  });

  test('a bad, foreign or expired search_ref is a 400 naming the field; nothing is written', async () => {
    const api = await newWorkspace();
    const other = await newWorkspace();
    const foreign = await searchRef(other, 'Acme');
    const mine = await searchRef(api, 'Acme');
    const { ctx } = await getHarness();
    await ctx.db
      .updateTable('company_data_search_refs')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('workspace_id', '=', api.workspaceId)
      .execute();
    const kase = await api.post('/v1/cases', { name: 'Empty' });
    const before = await countRows(api.workspaceId);
    for (const ref of ['not-a-ref', `${mine}x`, foreign, mine]) {
      const res = await createFromRegistry(api, { search_ref: ref, import_related: true });
      assert.equal(res.status, 400, `${ref}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.details[0].path, 'companies[0].search_ref');
      const viaCompany = await api.post('/v1/companies', {
        case_id: kase.body.id,
        search_ref: ref,
      });
      assert.equal(viaCompany.status, 400);
      assert.equal(viaCompany.body.details[0].path, 'search_ref');
    }
    // an unknown case is named as without a search_ref
    const noCase = await api.post('/v1/companies', {
      case_id: '00000000-0000-4000-8000-000000000000',
      search_ref: await searchRef(api, 'Acme'),
    });
    assert.equal(noCase.status, 404, JSON.stringify(noCase.body));
    assert.equal(noCase.body.details[0].path, 'case_id');
    assert.deepEqual(await countRows(api.workspaceId), before);
  });

  test('a registry failure is a 503 and no case is written', async () => {
    const api = await newWorkspace();
    // sandbox rule (docs/sandbox.md): a company whose name contains "fetchfail" cannot be fetched
    const ref = await searchRef(api, 'Acme fetchfail');
    const before = await countRows(api.workspaceId);
    const res = await createFromRegistry(
      api,
      { search_ref: ref, import_related: true },
      {
        individuals: [
          { first_name: 'Ada', last_name: 'Lovelace', relations: [{ roles: ['legal_representative'] }] },
        ],
      },
    );
    assert.equal(res.status, 503, JSON.stringify(res.body));
    assert.deepEqual(await countRows(api.workspaceId), before);
  });

  test('a real registry (Brønnøysund, fake server) that hangs at fetch time: 503, no case', async () => {
    const api = await newWorkspace();
    const { ctx } = await getHarness();
    const registry = await new FakeRegistry('brreg').start();
    const c = ctx.config.companyData;
    const saved = {
      providers: { ...c.providers },
      brreg: c.brreg,
      timeoutMs: c.timeoutMs,
      retries: c.retries,
    };
    Object.assign(c, { brreg: { baseUrl: registry.baseUrl }, timeoutMs: 300, retries: 1 });
    c.providers.NO = 'brreg';
    try {
      const found = await api.get('/v1/company-data/search?country=NO&name=Acme');
      assert.equal(found.status, 200, JSON.stringify(found.body));
      const ref = found.body.data[0].search_ref;
      // up: the company and its officers come from the adapter's parsing of the registry's answer
      const ok = await createFromRegistry(api, { search_ref: ref, import_related: true });
      assert.equal(ok.status, 201, JSON.stringify(ok.body));
      assert.equal(ok.body.companies[0].country, 'NO');
      // Kari Nordmann is daglig leder and board member: one individual
      const karis = ok.body.individuals.filter((p: any) => p.last_name === 'Nordmann');
      assert.equal(karis.length, 1, JSON.stringify(ok.body.individuals.map((p: any) => p.last_name)));
      assert.ok(karis[0].roles.includes('legal_representative'));
      assert.equal(karis[0].birth_date, '1980-02-14');
      assert.equal(karis[0].relations[0].to_company_id, ok.body.companies[0].id);
      const vendorData = await api.get(`/v1/companies/${ok.body.companies[0].id}/vendor-data`);
      assert.equal(vendorData.body.data[0].name, 'brreg');
      // down (the profile cache would hide it: it is emptied first)
      await ctx.db.deleteFrom('company_data_profiles').where('vendor', '=', 'brreg').execute();
      registry.mode = 'hang';
      const before = await countRows(api.workspaceId);
      const res = await createFromRegistry(api, { search_ref: ref, import_related: true });
      assert.equal(res.status, 503, JSON.stringify(res.body));
      assert.match(res.body.message, /brreg/);
      assert.deepEqual(await countRows(api.workspaceId), before);
    } finally {
      Object.assign(c, saved);
      await registry.stop();
    }
  });

  test('each creation from a search_ref counts one fetch against the limit', async () => {
    const api = await newWorkspace();
    const ref = await searchRef(api, 'Acme');
    assert.equal(
      (await api.patch('/v1/workspace/settings', { company_data: { fetch_limit: 1 } })).status,
      200,
    );
    assert.equal((await createFromRegistry(api, { search_ref: ref })).status, 201);
    const before = await countRows(api.workspaceId);
    const res = await createFromRegistry(api, { search_ref: ref });
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 'COMPANY_DATA_LIMIT_REACHED');
    assert.deepEqual(await countRows(api.workspaceId), before);
  });

  test('a creation refused after its fetch gives the fetch back (case and company)', async () => {
    const api = await newWorkspace();
    const ref = await searchRef(api, 'Acme');
    assert.equal(
      (await api.patch('/v1/workspace/settings', { company_data: { fetch_limit: 1 } })).status,
      200,
    );
    // a case whose external_id is taken: 409 after the registry was read
    assert.equal((await api.post('/v1/cases', { name: 'First', external_id: 'taken' })).status, 201);
    const refused = await createFromRegistry(api, { search_ref: ref }, { external_id: 'taken' });
    assert.equal(refused.status, 409, JSON.stringify(refused.body));
    // the refused case spent nothing: the next one, from the same ref, is the month's one fetch
    const created = await createFromRegistry(api, { search_ref: ref }, { external_id: 'second' });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const past = await createFromRegistry(api, { search_ref: ref }, { external_id: 'third' });
    assert.equal(past.body.code, 'COMPANY_DATA_LIMIT_REACHED');

    // POST /v1/companies from a search_ref into a case refused after the fetch
    const other = await newWorkspace();
    const otherRef = await searchRef(other, 'Acme');
    await other.patch('/v1/workspace/settings', {
      company_data: { fetch_limit: 1 },
      checks: { limit: 0, company_monitoring: { enabled: true } },
    });
    const kase = (await other.post('/v1/cases', { name: 'Empty' })).body;
    const company = await other.post('/v1/companies', { case_id: kase.id, search_ref: otherRef });
    assert.equal(company.status, 400, JSON.stringify(company.body));
    assert.equal(company.body.code, 'CHECK_LIMIT_REACHED');
    await other.patch('/v1/workspace/settings', { checks: { limit: null } });
    const again = await other.post('/v1/companies', { case_id: kase.id, search_ref: otherRef });
    assert.equal(again.status, 201, JSON.stringify(again.body));
  });
});

describe("import_related without the registry's merged lists", () => {
  test('our merge of legal representatives, shareholders and beneficial owners gives the same people', async () => {
    const api = await newWorkspace();
    const ref = await searchRef(api, 'Acme');
    const profile = (await api.get(`/v1/company-data/fetch/${encodeURIComponent(ref)}`)).body;
    const { relatedFromProfile } = await import('../src/company-data/import/related.ts');
    const merged = relatedFromProfile(profile);
    const ours = relatedFromProfile({ ...profile, merged_individuals: [], merged_companies: [] });
    const view = (r: typeof merged) => ({
      individuals: r.individuals
        .map((p) => ({
          name: `${p.fields.first_name} ${p.fields.last_name}`,
          birth_date: p.fields.birth_date,
          bo: p.fields.is_beneficial_owner,
          roles: [...p.relation.roles].sort(),
          pct: p.relation.ownership_percentage,
        }))
        .sort((a, b) => a.name.localeCompare(b.name)),
      companies: r.companies.map((c) => ({
        name: c.fields.name,
        roles: c.relation.roles,
        pct: c.relation.ownership_percentage,
      })),
    });
    assert.deepEqual(view(ours), view(merged));
    assert.equal(ours.individuals.length, 2);
  });
});

describe('company_monitoring', () => {
  async function monitoredCase(api: Client) {
    const s = await api.patch('/v1/workspace/settings', {
      checks: { company_monitoring: { enabled: true } },
    });
    assert.equal(s.status, 200, JSON.stringify(s.body));
    const ref = await searchRef(api, 'Initech');
    const res = await createFromRegistry(api, { search_ref: ref, import_related: true });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const main = res.body.companies.find((c: any) => c.type === 'main');
    return { caseId: res.body.id as string, company: main };
  }
  const run = async (api: Client) => {
    const { ctx } = await getHarness();
    const { runCompanyMonitoring } = await import('../src/company-data/monitoring/run-monitoring.ts');
    return runCompanyMonitoring(ctx, { workspaceId: api.workspaceId, ignoreSchedule: true });
  };
  /**
   * Edits the stored snapshot of the company's last registry read (docs/sandbox.md: tests make the
   * previous state differ, the registry side stays deterministic); gives back the snapshot before.
   */
  const editSnapshot = async (companyId: string, edit: (snap: any) => void) => {
    const { ctx } = await getHarness();
    const state = await ctx.db
      .selectFrom('company_monitoring_state')
      .selectAll()
      .where('company_id', '=', companyId)
      .executeTakeFirstOrThrow();
    const snap = structuredClone(state.snapshot as any);
    edit(snap);
    await ctx.db
      .updateTable('company_monitoring_state')
      .set({ snapshot: JSON.stringify(snap) })
      .where('company_id', '=', companyId)
      .execute();
    return state.snapshot as any;
  };

  test('a linked company gets a read-only approved check; typed companies do not', async () => {
    const api = await newWorkspace();
    const { company } = await monitoredCase(api);
    assert.deepEqual(
      company.checks.map((c: any) => [c.type, c.status]),
      [['company_monitoring', 'approved']],
    );
    const check = await api.get(`/v1/checks/company-monitoring/${company.checks[0].id}`);
    assert.equal(check.status, 200);
    assert.equal(check.body.data.vendor.name, 'sandbox');
    assert.equal(check.body.data.vendor.is_monitored, true);
    assert.equal(check.body.data.changes, null);
    const affiliated = (await api.get(`/v1/cases/${company.case_id}`)).body.companies.find(
      (c: any) => c.type === 'affiliated',
    );
    assert.deepEqual(affiliated.checks, []);
    assert.equal((await api.post('/v1/checks/company_monitoring', { company_id: company.id })).status, 400);
  });

  test('unchanged registry: nothing is emitted', async () => {
    const api = await newWorkspace();
    const { company } = await monitoredCase(api);
    const before = await countRows(api.workspaceId);
    const report = await run(api);
    assert.deepEqual(report, { checked: 1, changed: 0, failed: 0 });
    assert.deepEqual(await countRows(api.workspaceId), before);
    const check = await api.get(`/v1/checks/company_monitoring/${company.checks[0].id}`);
    assert.equal(check.body.status, 'approved');
  });

  test('a change of status, name, officers and owners moves the check to need_review with the diff', async () => {
    const api = await newWorkspace();
    const { caseId, company } = await monitoredCase(api);
    // the previous state differs from what the sandbox now answers
    let removedOfficer: any;
    const current = await editSnapshot(company.id, (snap) => {
      snap.status = 'closed';
      snap.name = 'Initech Old Name';
      removedOfficer = snap.officers.pop();
      snap.officers.push({
        key: 'individual|ghost director|1970-01-01',
        entity_type: 'individual',
        name: 'Ghost Director',
        birth_date: '1970-01-01',
        position: 'Director',
      });
      snap.owners[0].ownership_percentage = 10;
    });

    const checkEventsBefore = (await events(api.workspaceId, 'Check.')).length;
    assert.deepEqual(await run(api), { checked: 1, changed: 1, failed: 0 });
    const check = (await api.get(`/v1/checks/company-monitoring/${company.checks[0].id}`)).body;
    assert.equal(check.status, 'need_review');
    assert.equal(check.data.result, null);
    const changes = check.data.changes;
    assert.deepEqual(
      changes.fields.find((f: any) => f.field === 'status'),
      { field: 'status', old: 'closed', new: current.status },
    );
    assert.deepEqual(
      changes.fields.find((f: any) => f.field === 'name'),
      { field: 'name', old: 'Initech Old Name', new: current.name },
    );
    assert.deepEqual(
      changes.officers.added.map((o: any) => o.key),
      [removedOfficer.key],
    );
    assert.deepEqual(
      changes.officers.removed.map((o: any) => o.name),
      ['Ghost Director'],
    );
    assert.equal(changes.owners.changed[0].old.ownership_percentage, 10);
    assert.equal(changes.owners.changed[0].new.ownership_percentage, current.owners[0].ownership_percentage);
    assert.ok(changes.categories.includes('company_status'));
    assert.ok(changes.categories.includes('shareholder_changes'));
    // why a person must look: what changed, by category
    assert.equal(
      check.data.review.comment,
      `Needs a review: the company's registry data changed (${changes.categories.join(', ')}); confirm the changes`,
    );
    const after = await events(api.workspaceId, 'Check.');
    assert.equal(after.length, checkEventsBefore + 1);
    assert.equal(after.at(-1)?.type, 'Check.ReviewNeeded');
    assert.equal(after.at(-1)?.actor_type, 'system');
    const kase = (await api.get(`/v1/cases/${caseId}`)).body;
    assert.ok(kase.flags.includes('for_review'));

    // the snapshot is now the registry's answer: a second run finds nothing
    const countsAfter = await countRows(api.workspaceId);
    assert.deepEqual(await run(api), { checked: 1, changed: 0, failed: 0 });
    assert.deepEqual(await countRows(api.workspaceId), countsAfter);
  });

  test('a registry change is acknowledged by a console user; an API key cannot review the check', async () => {
    const api = await newWorkspace();
    const { caseId, company } = await monitoredCase(api);
    const { app, ctx } = await getHarness();
    await ctx.db
      .updateTable('company_monitoring_state')
      .set({ snapshot: sql`jsonb_set(snapshot, '{status}', '"closed"')` })
      .where('company_id', '=', company.id)
      .execute();
    assert.deepEqual(await run(api), { checked: 1, changed: 1, failed: 0 });
    const id = company.checks[0].id;
    assert.ok((await api.get(`/v1/cases/${caseId}`)).body.flags.includes('for_review'));
    const byKey = await api.patch(`/v1/checks/company_monitoring/${id}/review`, { action: 'approve' });
    assert.equal(byKey.status, 400);
    assert.match(byKey.body.message, /read-only over the API/);
    assert.deepEqual(
      byKey.body.details.map((d: { path: string }) => d.path),
      ['type'],
    );
    // nor delete it: the check stays, with its events untouched
    const eventsBeforeDelete = (await events(api.workspaceId, 'Check.')).length;
    const deleted = await api.delete(`/v1/checks/${id}`);
    assert.equal(deleted.status, 400, JSON.stringify(deleted.body));
    assert.match(deleted.body.message, /company_monitoring checks are read-only over the API/);
    assert.deepEqual(
      deleted.body.details.map((d: { path: string }) => d.path),
      ['id'],
    );
    assert.equal((await events(api.workspaceId, 'Check.')).length, eventsBeforeDelete);
    const unknown = await api.patch(
      '/v1/checks/company_monitoring/00000000-0000-4000-8000-000000000000/review',
      {
        action: 'approve',
      },
    );
    assert.equal(unknown.status, 404);
    assert.equal((await api.get(`/v1/checks/company-monitoring/${id}`)).body.status, 'need_review');
    const asUser = async (role: 'viewer' | 'reviewer') => {
      const user = await createConsoleUser(ctx, api.workspaceId, { role });
      const headers = await signInHeaders(app, user.email, user.password);
      const res = await app.inject({
        method: 'PATCH',
        url: `/v1/checks/company_monitoring/${id}/review`,
        headers,
        payload: { action: 'approve', comment: 'Closure confirmed with the client' },
      });
      return { status: res.statusCode, body: res.json(), email: user.email };
    };
    assert.equal((await asUser('viewer')).status, 403);
    const eventsBefore = (await events(api.workspaceId, 'Check.')).length;
    const reviewed = await asUser('reviewer');
    assert.equal(reviewed.status, 200, JSON.stringify(reviewed.body));
    assert.equal(reviewed.body.status, 'approved');
    assert.equal(reviewed.body.data.result, 'approved');
    assert.equal(reviewed.body.data.review.reviewer_type, 'user');
    assert.equal(reviewed.body.data.review.user.email, reviewed.email);
    assert.equal(reviewed.body.data.review.comment, 'Closure confirmed with the client');
    const after = await events(api.workspaceId, 'Check.');
    assert.deepEqual(
      after.slice(eventsBefore).map((e) => e.type),
      ['Check.Approved'],
    );
    assert.ok(!(await api.get(`/v1/cases/${caseId}`)).body.flags.includes('for_review'));
    // the registry has not moved since: the next pass finds nothing new
    assert.deepEqual(await run(api), { checked: 1, changed: 0, failed: 0 });
    assert.equal((await api.get(`/v1/checks/company-monitoring/${id}`)).body.status, 'approved');
  });

  test("an officer's new position and an owner's new voting rights are changes; a snapshot stored without voting rights is not", async () => {
    const api = await newWorkspace();
    const { company } = await monitoredCase(api);
    let oldVotes = 0;
    const current = await editSnapshot(company.id, (snap) => {
      snap.officers[0].position = 'Former Position';
      const individual = snap.owners.find((o: any) => o.entity_type === 'individual');
      oldVotes = individual.voting_rights_percentage === 1 ? 2 : 1;
      individual.voting_rights_percentage = oldVotes;
    });
    const owner = current.owners.find((o: any) => o.entity_type === 'individual');
    assert.ok(owner && 'voting_rights_percentage' in owner, JSON.stringify(current.owners));
    const officer = current.officers[0];
    assert.deepEqual(await run(api), { checked: 1, changed: 1, failed: 0 });
    const check = (await api.get(`/v1/checks/company-monitoring/${company.checks[0].id}`)).body;
    assert.equal(check.status, 'need_review');
    const { changes } = check.data;
    assert.deepEqual(changes.officers, {
      added: [],
      removed: [],
      changed: [
        {
          key: officer.key,
          name: officer.name,
          old: { position: 'Former Position' },
          new: { position: officer.position },
        },
      ],
    });
    assert.deepEqual(changes.owners.changed, [
      {
        key: owner.key,
        name: owner.name,
        old: {
          roles: owner.roles,
          ownership_percentage: owner.ownership_percentage,
          voting_rights_percentage: oldVotes,
        },
        new: {
          roles: owner.roles,
          ownership_percentage: owner.ownership_percentage,
          voting_rights_percentage: owner.voting_rights_percentage,
        },
      },
    ]);
    assert.deepEqual([...changes.categories].sort(), ['legal_and_compliance', 'shareholder_changes']);

    // a snapshot stored before voting rights were watched: their appearance is no change
    const other = await newWorkspace();
    const second = await monitoredCase(other);
    await editSnapshot(second.company.id, (snap) => {
      for (const o of snap.owners) delete o.voting_rights_percentage;
    });
    assert.deepEqual(await run(other), { checked: 1, changed: 0, failed: 0 });
  });

  test('a new change while earlier ones wait for review: the check shows them all', async () => {
    const api = await newWorkspace();
    const { company } = await monitoredCase(api);
    const setSnapshot = (edit: (snap: any) => void) => editSnapshot(company.id, edit);
    const check = async () => (await api.get(`/v1/checks/company-monitoring/${company.checks[0].id}`)).body;
    // first pass: the status changed and an officer appeared
    let appeared: any;
    await setSnapshot((snap) => {
      snap.status = 'closed';
      appeared = snap.officers.pop();
    });
    assert.deepEqual(await run(api), { checked: 1, changed: 1, failed: 0 });
    assert.equal((await check()).status, 'need_review');
    // nobody reviewed it; the next pass sees the name change
    await setSnapshot((snap) => {
      snap.name = 'Initech Former Name';
    });
    assert.deepEqual(await run(api), { checked: 1, changed: 1, failed: 0 });
    const pending = await check();
    assert.equal(pending.status, 'need_review');
    const { changes } = pending.data;
    assert.deepEqual(changes.fields.map((f: any) => [f.field, f.old]).sort(), [
      ['name', 'Initech Former Name'],
      ['status', 'closed'],
    ]);
    assert.deepEqual(
      changes.officers.added.map((o: any) => o.key),
      [appeared.key],
    );
    assert.deepEqual([...changes.categories].sort(), [
      'company_status',
      'legal_and_compliance',
      'operational_changes',
    ]);
    // a third pass: the registry answer has not moved, the pending changes stay as they are, no event
    const eventsBefore = (await events(api.workspaceId, 'Check.')).length;
    assert.deepEqual(await run(api), { checked: 1, changed: 0, failed: 0 });
    assert.deepEqual((await check()).data.changes, changes);
    assert.equal((await events(api.workspaceId, 'Check.')).length, eventsBefore);
  });

  /** Points the company's registry link at another sandbox record (the registry's answer moves). */
  const linkTo = async (companyId: string, vendorRef: string) => {
    const { ctx } = await getHarness();
    await ctx.db
      .updateTable('companies')
      .set({ registry_vendor_ref: vendorRef })
      .where('id', '=', companyId)
      .execute();
  };
  const vendorRefOf = async (companyId: string) => {
    const { ctx } = await getHarness();
    const row = await ctx.db
      .selectFrom('companies')
      .select('registry_vendor_ref')
      .where('id', '=', companyId)
      .executeTakeFirstOrThrow();
    return row.registry_vendor_ref as string;
  };

  test('a change undone in the registry before its review withdraws the review: the check is as it was', async () => {
    const api = await newWorkspace();
    const { caseId, company } = await monitoredCase(api);
    const id = company.checks[0].id;
    const approved = (await api.get(`/v1/checks/company-monitoring/${id}`)).body;
    const original = await vendorRefOf(company.id);
    const { encodeVendorRef, decodeVendorRef } = await import(
      '../src/company-data/providers/sandbox/vendor-ref.ts'
    );
    // the registry renames the company...
    const record = decodeVendorRef(original);
    await linkTo(company.id, encodeVendorRef({ ...record, name: `${record.name} Renamed` }));
    assert.deepEqual(await run(api), { checked: 1, changed: 1, failed: 0 });
    const pending = (await api.get(`/v1/checks/company-monitoring/${id}`)).body;
    assert.equal(pending.status, 'need_review');
    assert.deepEqual(
      pending.data.changes.fields.find((f: any) => f.field === 'name'),
      { field: 'name', old: record.name, new: `${record.name} Renamed` },
    );
    const newestVendorName = async () => {
      const res = await api.get(`/v1/companies/${company.id}/vendor-data?sort=fetched_at.desc`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body.data[0].raw.company.name;
    };
    assert.equal(await newestVendorName(), `${record.name} Renamed`);
    // ...and takes the rename back before anyone looked: nothing is left to review
    await linkTo(company.id, original);
    const eventsBefore = (await events(api.workspaceId, 'Check.')).length;
    assert.deepEqual(await run(api), { checked: 1, changed: 1, failed: 0 });
    const back = (await api.get(`/v1/checks/company-monitoring/${id}`)).body;
    assert.equal(back.status, 'approved');
    // the registry's answer is the company's newest vendor data again (it stayed the rename's)
    assert.equal(await newestVendorName(), record.name);
    assert.deepEqual(back.data, approved.data, 'its result, review and changes as they were');
    const sent = (await events(api.workspaceId, 'Check.')).slice(eventsBefore);
    assert.deepEqual(
      sent.map((e) => [e.type, e.actor_type]),
      [['Check.Approved', 'system']],
    );
    assert.ok(!(await api.get(`/v1/cases/${caseId}`)).body.flags.includes('for_review'));
    // and the next pass finds nothing
    assert.deepEqual(await run(api), { checked: 1, changed: 0, failed: 0 });
    assert.equal((await api.get(`/v1/checks/company-monitoring/${id}`)).body.status, 'approved');
  });

  test('a company gone from its registry (404) asks for a review; its return is a change too', async () => {
    const api = await newWorkspace();
    const { caseId, company } = await monitoredCase(api);
    const id = company.checks[0].id;
    const original = await vendorRefOf(company.id);
    // the sandbox has no record under an unreadable reference: its fetch is a 404 (not_found)
    await linkTo(company.id, 'sbx_gone');
    assert.deepEqual(await run(api), { checked: 1, changed: 1, failed: 0 });
    const gone = (await api.get(`/v1/checks/company-monitoring/${id}`)).body;
    assert.equal(gone.status, 'need_review');
    assert.deepEqual(gone.data.changes.fields, [{ field: 'status', old: 'live', new: 'removed' }]);
    assert.deepEqual(gone.data.changes.categories, ['company_status']);
    assert.equal(
      gone.data.review.comment,
      "Needs a review: the registry (sandbox) no longer has the company's record; confirm the company still exists",
    );
    assert.ok((await api.get(`/v1/cases/${caseId}`)).body.flags.includes('for_review'));
    // still gone: nothing new, and no failure kept on the state
    assert.deepEqual(await run(api), { checked: 1, changed: 0, failed: 0 });
    const { ctx } = await getHarness();
    const state = await ctx.db
      .selectFrom('company_monitoring_state')
      .select(['last_error', 'snapshot'])
      .where('company_id', '=', company.id)
      .executeTakeFirstOrThrow();
    assert.equal(state.last_error, null);
    assert.equal((state.snapshot as any).status, 'removed');
    // the record is back before the review: the check is as it was
    await linkTo(company.id, original);
    assert.deepEqual(await run(api), { checked: 1, changed: 1, failed: 0 });
    assert.equal((await api.get(`/v1/checks/company-monitoring/${id}`)).body.status, 'approved');
  });

  test('POST /admin/company-monitoring/run runs a pass now (admin token)', async () => {
    const h = await getHarness();
    const { buildApp } = await import('../src/http/app.ts');
    const app = await buildApp({ ...h.ctx, config: { ...h.ctx.config, adminToken: 'monitoring-admin' } });
    await app.ready();
    try {
      const api = await newWorkspace();
      await monitoredCase(api);
      const url = '/admin/company-monitoring/run';
      const payload = { workspace_id: api.workspaceId, ignore_schedule: true };
      assert.equal((await app.inject({ method: 'POST', url, payload })).statusCode, 401);
      const res = await app.inject({
        method: 'POST',
        url,
        payload,
        headers: { authorization: 'Bearer monitoring-admin' },
      });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json(), { checked: 1, changed: 0, failed: 0 });
      // not due yet (next run in VERICASE_COMPANY_MONITORING_INTERVAL_SECONDS): a scheduled pass skips it
      const due = await app.inject({
        method: 'POST',
        url,
        payload: { workspace_id: api.workspaceId },
        headers: { authorization: 'Bearer monitoring-admin' },
      });
      assert.deepEqual(due.json(), { checked: 0, changed: 0, failed: 0 });
    } finally {
      await app.close();
    }
  });

  test('a real registry (Brønnøysund, fake server) renaming the company: need_review with old and new name', async () => {
    const api = await newWorkspace();
    await api.patch('/v1/workspace/settings', { checks: { company_monitoring: { enabled: true } } });
    const { ctx } = await getHarness();
    const registry = await new FakeRegistry('brreg').start();
    const c = ctx.config.companyData;
    const saved = { providers: { ...c.providers }, brreg: c.brreg, retries: c.retries };
    Object.assign(c, { brreg: { baseUrl: registry.baseUrl } });
    c.providers.NO = 'brreg';
    const unit = BRREG_UNITS['912345678'];
    const name = unit.navn;
    try {
      const found = await api.get('/v1/company-data/search?country=NO&name=Acme');
      const res = await createFromRegistry(api, { search_ref: found.body.data[0].search_ref });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      const company = res.body.companies[0];
      assert.equal(company.checks[0].type, 'company_monitoring');
      assert.deepEqual(await run(api), { checked: 1, changed: 0, failed: 0 });
      unit.navn = 'ACME NORGE HOLDING AS';
      assert.deepEqual(await run(api), { checked: 1, changed: 1, failed: 0 });
      const check = (await api.get(`/v1/checks/company-monitoring/${company.checks[0].id}`)).body;
      assert.equal(check.status, 'need_review');
      assert.equal(check.data.vendor.name, 'brreg');
      const field = check.data.changes.fields.find((f: any) => f.field === 'name');
      assert.equal(field.new, 'ACME NORGE HOLDING AS');
      assert.equal(field.old, company.name);
      assert.deepEqual(check.data.changes.categories, ['operational_changes']);
      // the registry down: the pass reports it, keeps the error and changes nothing else
      Object.assign(c, { retries: 0 });
      registry.mode = 'fail';
      const before = await countRows(api.workspaceId);
      assert.deepEqual(await run(api), { checked: 1, changed: 0, failed: 1 });
      assert.deepEqual(await countRows(api.workspaceId), before);
      const state = await ctx.db
        .selectFrom('company_monitoring_state')
        .select('last_error')
        .where('company_id', '=', company.id)
        .executeTakeFirstOrThrow();
      assert.match(String(state.last_error), /brreg|unavailable|500/i);
    } finally {
      unit.navn = name;
      Object.assign(c, saved);
      await registry.stop();
    }
  });

  test('monitoring enabled after the link: the next run starts the check', async () => {
    const api = await newWorkspace();
    const ref = await searchRef(api, 'Umbrella');
    const res = await createFromRegistry(api, { search_ref: ref });
    assert.equal(res.status, 201);
    assert.deepEqual(res.body.companies[0].checks, []);
    assert.deepEqual(await run(api), { checked: 0, changed: 0, failed: 0 });
    await api.patch('/v1/workspace/settings', { checks: { company_monitoring: { enabled: true } } });
    assert.deepEqual(await run(api), { checked: 1, changed: 0, failed: 0 });
    const company = (await api.get(`/v1/companies/${res.body.companies[0].id}`)).body;
    const started = await events(api.workspaceId, 'Check.Started');
    assert.equal(started.length, 1);
    assert.equal(started[0].actor_type, 'system');
    assert.deepEqual(
      company.checks.map((c: any) => [c.type, c.status]),
      [['company_monitoring', 'approved']],
    );
  });
});
