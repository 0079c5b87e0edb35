import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { getHarness, newWorkspace, sampleCaseBody } from './helpers/harness.ts';

describe('companies and individuals', () => {
  test('create against a case_id, retrieve, update, set-relevant, delete', async () => {
    const api = await newWorkspace();
    const { ctx } = await getHarness();
    const c = (await api.post('/v1/cases', { name: 'Two-step' })).body;
    const main = await api.post('/v1/companies', { case_id: c.id, name: 'Main Co', country: 'FR' });
    assert.equal(main.status, 201, JSON.stringify(main.body));
    assert.equal(main.body.type, 'main');
    const second = await api.post('/v1/companies', { case_id: c.id, name: 'Second' });
    assert.equal(second.status, 400);
    assert.equal(second.body.details[0].path, 'type');
    const aff = await api.post('/v1/companies', {
      case_id: c.id,
      type: 'affiliated',
      name: 'Sub',
      relations: [{ roles: ['shareholder'], ownership_percentage: 30 }],
    });
    assert.equal(aff.status, 201);
    assert.equal(aff.body.relations[0].to_company_id, main.body.id);
    const person = await api.post('/v1/individuals', {
      case_id: c.id,
      first_name: 'Jane',
      last_name: 'Doe',
      email: 'jane@example.com',
      relations: [{ roles: ['legal_representative'], position: 'Director' }],
    });
    assert.equal(person.status, 201, JSON.stringify(person.body));
    assert.deepEqual(person.body.roles, ['legal_representative']);
    assert.equal(person.body.position, 'Director');

    const got = await api.get(`/v1/individuals/${person.body.id}`);
    assert.equal(got.body.email, 'jane@example.com');
    const upd = await api.patch(`/v1/individuals/${person.body.id}`, {
      birth_date: '1990-01-31',
      address: { country: 'DE' },
    });
    assert.equal(upd.status, 200);
    assert.equal(upd.body.birth_date, '1990-01-31');
    assert.equal(upd.body.address.country, 'DE');
    assert.equal(
      (await api.patch(`/v1/individuals/${person.body.id}`, { birth_date: '31/01/1990' })).status,
      400,
    );

    const rel = await api.post(`/v1/companies/${aff.body.id}/set-relevant`, { is_relevant: false });
    assert.equal(rel.body.is_relevant, false);
    const detailed = (await api.get(`/v1/cases/${c.id}`)).body;
    assert.equal(detailed.companies.length, 1);
    const all = (await api.get(`/v1/cases/${c.id}?include_not_relevant=true`)).body;
    assert.equal(all.companies.length, 2);

    assert.equal((await api.delete(`/v1/companies/${main.body.id}`)).status, 400);
    assert.equal((await api.delete(`/v1/individuals/${person.body.id}`)).status, 204);
    assert.equal((await api.get(`/v1/individuals/${person.body.id}`)).status, 404);
    const events = await ctx.db
      .selectFrom('events')
      .select(['type', 'sub_event'])
      .where('workspace_id', '=', api.workspaceId)
      .orderBy('seq')
      .execute();
    const types = events.map((e) => e.sub_event ?? e.type);
    for (const t of [
      'Company.Created',
      'Individual.Created',
      'Individual.InfoUpdated',
      'Company.MarkedAsNotRelevant',
      'Individual.Deleted',
    ]) {
      assert.ok(types.includes(t), `${t} in ${types}`);
    }
  });

  test('a company marked not relevant takes the relations pointing at it out of the case as well', async () => {
    const api = await newWorkspace();
    const made = await api.post('/v1/cases', sampleCaseBody());
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const holding = made.body.companies.find((co: { name: string }) => co.name === 'Acme Holding GmbH');
    const hidden = await api.post(`/v1/companies/${holding.id}/set-relevant`, { is_relevant: false });
    assert.equal(hidden.status, 200);

    const shown = (await api.get(`/v1/cases/${made.body.id}`)).body;
    const ids = new Set([...shown.companies, ...shown.individuals].map((e: { id: string }) => e.id));
    assert.ok(!ids.has(holding.id));
    const fund = shown.companies.find((co: { name: string }) => co.name === 'Fund LP');
    const ubo = shown.individuals.find((i: { last_name: string }) => i.last_name === 'Turing');
    // both pointed only at the holding: nothing left that names an id the answer does not hold
    assert.deepEqual(fund.relations, []);
    assert.deepEqual(ubo.relations, []);
    for (const e of [...shown.companies, ...shown.individuals]) {
      for (const r of e.relations) assert.ok(ids.has(r.to_company_id), `${e.id} -> ${r.to_company_id}`);
    }

    const all = (await api.get(`/v1/cases/${made.body.id}?include_not_relevant=true`)).body;
    const fundAll = all.companies.find((co: { name: string }) => co.name === 'Fund LP');
    assert.equal(fundAll.relations.length, 1);
    assert.equal(fundAll.relations[0].to_company_id, holding.id);
    const uboAll = all.individuals.find((i: { last_name: string }) => i.last_name === 'Turing');
    assert.equal(uboAll.relations[0].to_company_id, holding.id);
  });

  test('exclude_internal_checks leaves out the internal checks on a company, an individual and the case', async () => {
    const api = await newWorkspace();
    const c = await api.post('/v1/cases', {
      name: 'Internal checks',
      companies: [{ type: 'main', name: 'Acme Widgets SAS', country: 'FR' }],
      individuals: [
        {
          first_name: 'Ada',
          last_name: 'Lovelace',
          birth_date: '1985-12-10',
          address: { country: 'FR' },
          relations: [{ roles: ['legal_representative'] }],
        },
      ],
    });
    assert.equal(c.status, 201, JSON.stringify(c.body));
    const companyId = c.body.companies[0].id;
    const individualId = c.body.individuals[0].id;
    // ekyc and online_reputation are created internal, aml not
    const ekyc = await api.post('/v1/checks/ekyc', { individual_id: individualId });
    const aml = await api.post('/v1/checks/aml', { individual_id: individualId });
    const reputation = await api.post('/v1/checks/online_reputation', { company_id: companyId });
    const companyAml = await api.post('/v1/checks/aml', { company_id: companyId });
    for (const r of [ekyc, aml, reputation, companyAml]) assert.equal(r.status, 201, JSON.stringify(r.body));
    assert.equal(ekyc.body.is_internal, true);
    assert.equal(reputation.body.is_internal, true);
    assert.equal(aml.body.is_internal, false);

    const ids = (checks: { id: string }[]) => checks.map((k) => k.id).sort();
    const person = async (q: string) => (await api.get(`/v1/individuals/${individualId}${q}`)).body.checks;
    assert.deepEqual(ids(await person('')), [ekyc.body.id, aml.body.id].sort());
    assert.deepEqual(ids(await person('?exclude_internal_checks=false')), [ekyc.body.id, aml.body.id].sort());
    assert.deepEqual(ids(await person('?exclude_internal_checks=true')), [aml.body.id]);
    const company = async (q: string) => (await api.get(`/v1/companies/${companyId}${q}`)).body.checks;
    assert.deepEqual(ids(await company('')), [reputation.body.id, companyAml.body.id].sort());
    assert.deepEqual(ids(await company('?exclude_internal_checks=true')), [companyAml.body.id]);
    // with data_lineage too
    const lineage = await api.get(
      `/v1/companies/${companyId}?exclude_internal_checks=true&data_lineage=true`,
    );
    assert.equal(lineage.status, 200, JSON.stringify(lineage.body));
    assert.deepEqual(ids(lineage.body.checks), [companyAml.body.id]);
    // the case read: the same on each of its entities
    const kase = (await api.get(`/v1/cases/${c.body.id}?exclude_internal_checks=true`)).body;
    assert.deepEqual(ids(kase.individuals[0].checks), [aml.body.id]);
    assert.deepEqual(ids(kase.companies[0].checks), [companyAml.body.id]);
    const whole = (await api.get(`/v1/cases/${c.body.id}`)).body;
    assert.equal(whole.individuals[0].checks.length, 2);
    assert.equal(whole.companies[0].checks.length, 2);
    // not a boolean: a 400 naming it
    const bad = await api.get(`/v1/individuals/${individualId}?exclude_internal_checks=maybe`);
    assert.equal(bad.status, 400);
    assert.match(JSON.stringify(bad.body), /exclude_internal_checks/);
  });

  test("an entity's last_activity_at moves with its checks (created, reviewed, deleted); its updated_at does not", async () => {
    const api = await newWorkspace();
    const c = await api.post('/v1/cases', {
      name: 'Activity',
      companies: [{ type: 'main', name: 'Acme Widgets SAS', country: 'FR' }],
      individuals: [
        {
          first_name: 'Ada',
          last_name: 'Activity',
          birth_date: '1985-12-10',
          address: { country: 'FR' },
          relations: [{ roles: ['legal_representative'] }],
        },
      ],
    });
    assert.equal(c.status, 201, JSON.stringify(c.body));
    const person = c.body.individuals[0];
    const company = c.body.companies[0];
    const read = async (kind: 'individuals' | 'companies', id: string) =>
      (await api.get(`/v1/${kind}/${id}`)).body;
    const ekyc = await api.post('/v1/checks/ekyc', {
      individual_id: person.id,
      settings: { automatic_approval: false, automatic_rejection: false },
    });
    assert.equal(ekyc.status, 201, JSON.stringify(ekyc.body));
    const afterCreate = await read('individuals', person.id);
    assert.ok(afterCreate.last_activity_at > person.last_activity_at, 'a check started on the person');
    assert.equal(afterCreate.updated_at, person.updated_at);
    // an export by activity date finds the person, and not the untouched company
    const since = encodeURIComponent(person.last_activity_at);
    const found = await api.get(`/v1/individuals?last_name=Activity&last_activity_at.gt=${since}`);
    assert.equal(found.body.pagination.count, 1, JSON.stringify(found.body));
    assert.equal((await read('companies', company.id)).last_activity_at, company.last_activity_at);
    const reviewed = await api.patch(`/v1/checks/ekyc/${ekyc.body.id}/review`, { action: 'approve' });
    assert.equal(reviewed.status, 200, JSON.stringify(reviewed.body));
    const afterReview = await read('individuals', person.id);
    assert.ok(afterReview.last_activity_at > afterCreate.last_activity_at, 'its check reviewed');
    // a company's check moves the company's, and a deleted check too
    const aml = await api.post('/v1/checks/aml', { company_id: company.id });
    assert.equal(aml.status, 201, JSON.stringify(aml.body));
    const companyAfter = await read('companies', company.id);
    assert.ok(companyAfter.last_activity_at > company.last_activity_at, 'a check started on the company');
    assert.equal(companyAfter.updated_at, company.updated_at);
    assert.equal((await api.delete(`/v1/checks/${ekyc.body.id}`)).status, 204);
    assert.ok(
      (await read('individuals', person.id)).last_activity_at > afterReview.last_activity_at,
      'deleted',
    );
  });

  test('the main company cannot be marked not relevant (the reference: only an affiliated company)', async () => {
    const api = await newWorkspace();
    const c = (await api.post('/v1/cases', sampleCaseBody())).body;
    const main = c.companies.find((co: any) => co.type === 'main');
    const refused = await api.post(`/v1/companies/${main.id}/set-relevant`, { is_relevant: false });
    assert.equal(refused.status, 400, JSON.stringify(refused.body));
    assert.equal(refused.body.details[0].path, 'is_relevant');
    // nothing changed: the case still shows its main company, relevant
    const detailed = (await api.get(`/v1/cases/${c.id}`)).body;
    assert.equal(detailed.companies.find((co: any) => co.id === main.id)?.is_relevant, true);
    // marking it relevant is a no-op, not a refusal
    const relevant = await api.post(`/v1/companies/${main.id}/set-relevant`, { is_relevant: true });
    assert.equal(relevant.status, 200, JSON.stringify(relevant.body));
    assert.equal(relevant.body.is_relevant, true);
  });

  test('relations given with a new individual or company read back in the order they were given', async () => {
    const api = await newWorkspace();
    const companies = [{ type: 'main', name: 'Main' }].concat(
      Array.from({ length: 7 }, (_, i) => ({ type: 'affiliated', name: `Sub ${i}` })),
    );
    const c = (await api.post('/v1/cases', { name: 'Relations order', companies })).body;
    const targets = [5, 2, 7, 0, 3, 6, 1, 4].map((i) => c.companies[i].id);
    const relations = targets.map((to_company_id, i) => ({ to_company_id, position: `p${i}` }));
    const positions = (e: any) => e.relations.map((r: any) => r.position);
    const sent = relations.map((r) => r.position);
    const person = await api.post('/v1/individuals', {
      case_id: c.id,
      first_name: 'Many',
      last_name: 'Roles',
      relations,
    });
    assert.equal(person.status, 201, JSON.stringify(person.body));
    assert.deepEqual(positions(person.body), sent);
    assert.deepEqual(positions((await api.get(`/v1/individuals/${person.body.id}`)).body), sent);
    const company = await api.post('/v1/companies', {
      case_id: c.id,
      type: 'affiliated',
      name: 'Holding',
      relations,
    });
    assert.equal(company.status, 201, JSON.stringify(company.body));
    assert.deepEqual(positions((await api.get(`/v1/companies/${company.body.id}`)).body), sent);
  });

  test('banking information: written as the standards write it, and a PATCH keeps what it does not give', async () => {
    const api = await newWorkspace();
    const c = (await api.post('/v1/cases', sampleCaseBody())).body;
    const company = await api.post('/v1/companies', {
      case_id: c.id,
      name: 'Bank Co',
      type: 'affiliated',
      banking_information: { iban: 'fr76 3000 6000 0112 3456 7890 189', bic: 'agri fr pp xxx' },
      relations: [{ roles: ['shareholder'] }],
    });
    assert.equal(company.status, 201, JSON.stringify(company.body));
    assert.deepEqual(company.body.banking_information, {
      iban: 'FR7630006000011234567890189',
      bic: 'AGRIFRPPXXX',
    });
    const url = `/v1/companies/${company.body.id}`;
    const bic = await api.patch(url, { banking_information: { bic: 'BNPAFRPPXXX' } });
    assert.equal(bic.status, 200, JSON.stringify(bic.body));
    assert.deepEqual(bic.body.banking_information, {
      iban: 'FR7630006000011234567890189',
      bic: 'BNPAFRPPXXX',
    });
    const noIban = await api.patch(url, { banking_information: { iban: null } });
    assert.deepEqual(noIban.body.banking_information, { iban: null, bic: 'BNPAFRPPXXX' });
    const cleared = await api.patch(url, { banking_information: null });
    assert.deepEqual(cleared.body.banking_information, { iban: null, bic: null });
    const person = c.individuals[0];
    const set = await api.patch(`/v1/individuals/${person.id}`, {
      banking_information: { iban: 'de89 3704 0044 0532 0130 00', bic: 'COBADEFFXXX' },
    });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    const bicOnly = await api.patch(`/v1/individuals/${person.id}`, {
      banking_information: { bic: 'deutdeff' },
    });
    assert.deepEqual(bicOnly.body.banking_information, { iban: 'DE89370400440532013000', bic: 'DEUTDEFF' });
    assert.deepEqual(
      (await api.get(`/v1/individuals/${person.id}`)).body.banking_information,
      bicOnly.body.banking_information,
    );
  });

  test('a birth date in the future is a 400 naming it, on case creation, create and update; nothing stored', async () => {
    const api = await newWorkspace();
    const refused = await api.post('/v1/cases', {
      name: 'Future',
      companies: [{ type: 'main', name: 'Acme SAS', country: 'FR' }],
      individuals: [
        { first_name: 'Ada', last_name: 'Lovelace', birth_date: '1915-12-10' },
        { first_name: 'Nemo', last_name: 'Later', birth_date: '2999-01-01' },
      ],
    });
    assert.equal(refused.status, 400, JSON.stringify(refused.body));
    assert.equal(refused.body.details[0].path, 'individuals[1].birth_date');
    assert.equal(
      refused.body.message,
      'individuals[1].birth_date must not be in the future: it is 2999-01-01',
    );
    assert.equal((await api.get('/v1/cases')).body.pagination.count, 0);
    const kase = (
      await api.post('/v1/cases', { name: 'Present', companies: [{ name: 'Acme SAS', country: 'FR' }] })
    ).body;
    const created = await api.post('/v1/individuals', {
      case_id: kase.id,
      first_name: 'Nemo',
      last_name: 'Later',
      birth_date: '2999-01-01',
    });
    assert.equal(created.status, 400);
    assert.equal(created.body.details[0].path, 'birth_date');
    const today = new Date().toISOString().slice(0, 10);
    const born = await api.post('/v1/individuals', {
      case_id: kase.id,
      first_name: 'Baby',
      last_name: 'Today',
      birth_date: today,
    });
    assert.equal(born.status, 201, JSON.stringify(born.body));
    const updated = await api.patch(`/v1/individuals/${born.body.id}`, { birth_date: '2999-01-01' });
    assert.equal(updated.status, 400);
    assert.equal(updated.body.details[0].path, 'birth_date');
    assert.equal((await api.get(`/v1/individuals/${born.body.id}`)).body.birth_date, today);
    // a year 0000 or 0001 (an unknown year typed as zeros) is no birth date either; 1900 is the floor
    for (const early of ['0000-01-01', '0001-01-01', '1899-12-31']) {
      const res = await api.patch(`/v1/individuals/${born.body.id}`, { birth_date: early });
      assert.equal(res.status, 400, early);
      assert.equal(res.body.message, `birth_date must be on or after 1900-01-01: it is ${early}`);
    }
    assert.equal(
      (await api.patch(`/v1/individuals/${born.body.id}`, { birth_date: '1900-01-01' })).status,
      200,
    );
    // the same nationality twice is refused as a repeated item, not stored twice
    const twice = await api.patch(`/v1/individuals/${born.body.id}`, { nationalities: ['FR', 'FR'] });
    assert.equal(twice.status, 400, JSON.stringify(twice.body));
    assert.equal(twice.body.details[0].path, 'nationalities');
  });

  test('an affiliated company or an individual needs the case to have its main company first, as POST /v1/cases does', async () => {
    const api = await newWorkspace();
    const empty = (await api.post('/v1/cases', { name: 'Empty case' })).body;
    const affiliated = await api.post('/v1/companies', {
      case_id: empty.id,
      name: 'Sub SAS',
      type: 'affiliated',
    });
    assert.equal(affiliated.status, 400, JSON.stringify(affiliated.body));
    assert.equal(affiliated.body.details[0].path, 'type');
    assert.match(affiliated.body.message, /no main company/);
    const person = await api.post('/v1/individuals', {
      case_id: empty.id,
      first_name: 'Ada',
      last_name: 'Lovelace',
    });
    assert.equal(person.status, 400, JSON.stringify(person.body));
    assert.equal(person.body.details[0].path, 'case_id');
    // nothing stored, no event
    const kase = (await api.get(`/v1/cases/${empty.id}`)).body;
    assert.deepEqual([kase.companies.length, kase.individuals.length], [0, 0]);
    // the same graph as POST /v1/cases refuses it
    const graph = await api.post('/v1/cases', {
      name: 'x',
      companies: [{ name: 'Sub SAS', type: 'affiliated' }],
    });
    assert.equal(graph.status, 400);
    // with its main company, both are taken
    const main = await api.post('/v1/companies', { case_id: empty.id, name: 'Acme SAS' });
    assert.equal(main.status, 201, JSON.stringify(main.body));
    assert.equal(main.body.type, 'main');
    assert.equal(
      (await api.post('/v1/companies', { case_id: empty.id, name: 'Sub SAS', type: 'affiliated' })).status,
      201,
    );
    assert.equal(
      (await api.post('/v1/individuals', { case_id: empty.id, first_name: 'Ada', last_name: 'Lovelace' }))
        .status,
      201,
    );
  });

  test('unknown case or target → 404; bad ids → 400', async () => {
    const api = await newWorkspace();
    const other = await newWorkspace();
    const c = (await api.post('/v1/cases', sampleCaseBody())).body;
    assert.equal(
      (await other.post('/v1/companies', { case_id: c.id, name: 'X', type: 'affiliated' })).status,
      404,
    );
    assert.equal(
      (await other.post('/v1/individuals', { case_id: c.id, first_name: 'a', last_name: 'b' })).status,
      404,
    );
    assert.equal((await api.get('/v1/companies/not-a-uuid')).status, 400);
    for (const co of c.companies) {
      assert.equal((await other.get(`/v1/companies/${co.id}`)).status, 404);
      assert.equal((await other.patch(`/v1/companies/${co.id}`, { name: 'x' })).status, 404);
      assert.equal((await other.delete(`/v1/companies/${co.id}`)).status, 404);
      assert.equal(
        (await other.post(`/v1/companies/${co.id}/set-relevant`, { is_relevant: false })).status,
        404,
      );
    }
    for (const p of c.individuals) {
      assert.equal((await other.get(`/v1/individuals/${p.id}`)).status, 404);
      assert.equal((await other.patch(`/v1/individuals/${p.id}`, { first_name: 'x' })).status, 404);
      assert.equal((await other.delete(`/v1/individuals/${p.id}`)).status, 404);
    }
    assert.equal((await other.get('/v1/companies')).body.pagination.count, 0);
    const bad = await api.post('/v1/individuals', {
      case_id: c.id,
      first_name: 'a',
      last_name: 'b',
      relations: [{ to_company_id: '00000000-0000-4000-8000-000000000000' }],
    });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.details[0].path, 'relations[0].to_company_id');
  });

  test('list companies and individuals with filters', async () => {
    const api = await newWorkspace();
    const c = (await api.post('/v1/cases', sampleCaseBody())).body;
    const de = await api.get('/v1/companies?country=DE');
    assert.deepEqual(
      de.body.data.map((x: any) => x.name),
      ['Acme Holding GmbH'],
    );
    const like = await api.get('/v1/companies?name.ilike=%25acme%25&sort=name.desc');
    assert.deepEqual(
      like.body.data.map((x: any) => x.name),
      ['Acme SAS', 'Acme Holding GmbH'],
    );
    assert.equal((await api.get(`/v1/companies?case_id=${c.id}`)).body.pagination.count, 3);
    assert.equal((await api.get('/v1/companies?case_id=nope')).status, 400);
    assert.equal((await api.get('/v1/companies?country.like=D%25')).status, 400);
    // countries are stored as alpha-2 codes: any other value matched nothing, silently
    for (const bad of ['de', 'DEU', 'Germany']) {
      const res = await api.get(`/v1/companies?country=${bad}`);
      assert.equal(res.status, 400, bad);
      assert.deepEqual(res.body.details, [
        { path: 'country', message: 'country must be an ISO 3166-1 alpha-2 country code (e.g. FR)' },
      ]);
    }
    const people = await api.get('/v1/individuals?last_name.in=x');
    assert.equal(people.status, 400);
    const byBirth = await api.get('/v1/individuals?birth_date.lt=1990-01-01');
    assert.deepEqual(
      byBirth.body.data.map((x: any) => x.last_name),
      ['Lovelace'],
    );
    const sorted = await api.get('/v1/individuals?sort=last_name');
    assert.deepEqual(
      sorted.body.data.map((x: any) => x.last_name),
      ['Hopper', 'Lovelace', 'Turing'],
    );
    // soft-deleted cases disappear from the entity lists
    await api.delete(`/v1/cases/${c.id}`);
    assert.equal((await api.get('/v1/individuals')).body.pagination.count, 0);
    assert.equal((await api.get(`/v1/companies/${c.companies[0].id}`)).status, 404);
  });

  test('lookups by identifier: exact, by prefix, with the pattern characters taken literally when escaped', async () => {
    const api = await newWorkspace();
    const c = (await api.post('/v1/cases', { name: 'Lookups' })).body;
    const numbers = ['123456789', '123459999', '12345_789', '12345%789', '912345678', null];
    for (const [i, registration_number] of numbers.entries()) {
      const co = await api.post('/v1/companies', {
        case_id: c.id,
        type: i === 0 ? 'main' : 'affiliated',
        name: `Co ${i}`,
        registration_number,
      });
      assert.equal(co.status, 201, JSON.stringify(co.body));
    }
    const names = async (query: string) => {
      const res = await api.get(`/v1/companies?${query}&sort=name`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body.data.map((x: any) => x.name);
    };
    assert.deepEqual(await names('registration_number=123456789'), ['Co 0']);
    assert.deepEqual(await names('registration_number=12345'), []);
    assert.deepEqual(await names('registration_number.like=12345%25'), ['Co 0', 'Co 1', 'Co 2', 'Co 3']);
    // `_` is a one-character wildcard; `\_` and `\%` match themselves
    assert.deepEqual(await names('registration_number.like=12345_7%25'), ['Co 0', 'Co 2', 'Co 3']);
    assert.deepEqual(await names('registration_number.like=12345%5C_%25'), ['Co 2']);
    assert.deepEqual(await names('registration_number.like=12345%5C%25%25'), ['Co 3']);
    // a company without a number is not that number
    assert.deepEqual(await names('registration_number.not_eq=123456789'), [
      'Co 1',
      'Co 2',
      'Co 3',
      'Co 4',
      'Co 5',
    ]);

    const people = [
      { first_name: 'Ada', last_name: 'Byron', email: 'ada@example.com', birth_date: '1985-12-10' },
      { first_name: 'Ada', last_name: 'King', email: 'Ada@Example.com', birth_date: '1985-12-11' },
      { first_name: 'Alan', last_name: 'Turing', email: 'alan@example.org', birth_date: '1912-06-23' },
    ];
    for (const p of people)
      assert.equal((await api.post('/v1/individuals', { case_id: c.id, ...p })).status, 201);
    const lastNames = async (query: string) => {
      const res = await api.get(`/v1/individuals?${query}&sort=last_name`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body.data.map((x: any) => x.last_name);
    };
    // `eq` and `like` are case-sensitive, `ilike` is not
    assert.deepEqual(await lastNames('email=ada@example.com'), ['Byron']);
    assert.deepEqual(await lastNames('email.like=ada%25'), ['Byron']);
    assert.deepEqual(await lastNames('email.ilike=ada%25'), ['Byron', 'King']);
    assert.deepEqual(await lastNames('birth_date=1985-12-11'), ['King']);
    assert.deepEqual(await lastNames('birth_date.gte=1985-12-10'), ['Byron', 'King']);
    assert.deepEqual(await lastNames('birth_date.lt=1985-12-10'), ['Turing']);
    // a date-time, as the reference's date pattern allows: the date it is written on, whatever
    // its time or offset (a birth date has no time zone)
    assert.deepEqual(await lastNames('birth_date=1985-12-11T00:00:00Z'), ['King']);
    assert.deepEqual(await lastNames('birth_date=1985-12-11T23:30:00.000%2B05:00'), ['King']);
    assert.deepEqual(await lastNames('birth_date.gte=1985-12-10T13:30:00Z'), ['Byron', 'King']);
    for (const bad of ['1985-12-32T00:00:00Z', '1985-12-11T', '1985-12-11 00:00:00', '11/12/1985']) {
      const res = await api.get(`/v1/individuals?birth_date=${encodeURIComponent(bad)}`);
      assert.equal(res.status, 400, bad);
      assert.equal(res.body.details[0].path, 'birth_date');
    }
  });

  test("a company's website is a web address: a domain or an http(s) URL, no other scheme", async () => {
    const api = await newWorkspace();
    const c = (await api.post('/v1/cases', sampleCaseBody())).body;
    const company = c.companies[0];
    for (const good of ['acme.fr', 'www.acme.fr/contact', 'https://acme.fr', 'HTTP://Acme.FR/x?y=1']) {
      const res = await api.patch(`/v1/companies/${company.id}`, { website_url: good });
      assert.equal(res.status, 200, `${good}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.website_url, good);
    }
    for (const bad of [
      'javascript:alert(1)',
      'data:text/html,<b>x</b>',
      'ftp://acme.fr',
      'acme',
      'https://a b.fr',
    ]) {
      const res = await api.patch(`/v1/companies/${company.id}`, { website_url: bad });
      assert.equal(res.status, 400, bad);
      assert.equal(res.body.details[0].path, 'website_url');
      assert.match(res.body.details[0].message, /must be a web address/);
    }
    const created = await api.post('/v1/cases', {
      name: 'Bad site',
      companies: [{ type: 'main', name: 'X', website_url: 'javascript:alert(1)' }],
    });
    assert.equal(created.status, 400);
    assert.equal(created.body.details[0].path, 'companies[0].website_url');
    assert.equal((await api.get(`/v1/companies/${company.id}`)).body.website_url, 'HTTP://Acme.FR/x?y=1');
  });

  test('a date filter sorted by another date', async () => {
    const api = await newWorkspace();
    const c = (await api.post('/v1/cases', sampleCaseBody())).body;
    const before = new Date().toISOString();
    const hopper = c.individuals.find((x: any) => x.last_name === 'Hopper');
    assert.equal((await api.patch(`/v1/individuals/${hopper.id}`, { position: 'Admiral' })).status, 200);
    const holding = c.companies.find((x: any) => x.name === 'Acme Holding GmbH');
    assert.equal(
      (await api.patch(`/v1/companies/${holding.id}`, { website_url: 'https://h.example' })).status,
      200,
    );
    for (const sort of ['created_at', 'last_activity_at.desc', 'last_name', 'first_name.desc']) {
      const res = await api.get(`/v1/individuals?updated_at.gte=${encodeURIComponent(before)}&sort=${sort}`);
      assert.deepEqual(
        res.body.data.map((x: any) => x.last_name),
        ['Hopper'],
        sort,
      );
    }
    for (const sort of ['created_at.desc', 'last_activity_at', 'name']) {
      const res = await api.get(`/v1/companies?updated_at.gte=${encodeURIComponent(before)}&sort=${sort}`);
      assert.deepEqual(
        res.body.data.map((x: any) => x.name),
        ['Acme Holding GmbH'],
        sort,
      );
    }
  });

  test('soft-deleted cases leave the member lists', async () => {
    const api = await newWorkspace();
    const c = (await api.post('/v1/cases', sampleCaseBody())).body;
    await api.delete(`/v1/cases/${c.id}`);
    assert.equal((await api.get('/v1/individuals')).body.pagination.count, 0);
    assert.equal((await api.get(`/v1/companies/${c.companies[0].id}`)).status, 404);
  });
});

describe('an individual created with a relation to the main company', () => {
  test('takes the relation’s position and percentages when it does not state them; an explicit null is kept', async () => {
    const api = await newWorkspace();
    const kase = await api.post('/v1/cases', {
      name: 'Relation defaults',
      companies: [{ name: 'Main SAS' }],
    });
    assert.equal(kase.status, 201, JSON.stringify(kase.body));
    const relation = { position: 'CFO', ownership_percentage: 12.5, voting_rights_percentage: 20 };
    const copied = await api.post('/v1/individuals', {
      case_id: kase.body.id,
      first_name: 'Ada',
      last_name: 'Copied',
      relations: [relation],
    });
    assert.equal(copied.status, 201, JSON.stringify(copied.body));
    assert.deepEqual(
      [copied.body.position, copied.body.ownership_percentage, copied.body.voting_rights_percentage],
      ['CFO', 12.5, 20],
    );
    const stated = await api.post('/v1/individuals', {
      case_id: kase.body.id,
      first_name: 'Grace',
      last_name: 'Stated',
      position: null,
      ownership_percentage: null,
      voting_rights_percentage: 5,
      relations: [relation],
    });
    assert.equal(stated.status, 201, JSON.stringify(stated.body));
    const read = (await api.get(`/v1/individuals/${stated.body.id}`)).body;
    assert.deepEqual(
      [read.position, read.ownership_percentage, read.voting_rights_percentage],
      [null, null, 5],
    );
  });
});

describe('relations', () => {
  test('create, update and delete with the spec rules', async () => {
    const api = await newWorkspace();
    const other = await newWorkspace();
    const c = (await api.post('/v1/cases', sampleCaseBody())).body;
    const main = c.companies.find((x: any) => x.type === 'main');
    const holding = c.companies.find((x: any) => x.name === 'Acme Holding GmbH');
    const fund = c.companies.find((x: any) => x.name === 'Fund LP');
    const ceo = c.individuals.find((x: any) => x.last_name === 'Lovelace');
    const ubo = c.individuals.find((x: any) => x.last_name === 'Turing');

    const r = await api.post(`/v1/cases/${c.id}/relations`, {
      from_individual_id: ceo.id,
      to_company_id: holding.id,
      roles: ['legal_representative'],
    });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    assert.equal(r.body.from_individual_id, ceo.id);
    const implicit = await api.post(`/v1/cases/${c.id}/relations`, {
      from_company_id: fund.id,
      ownership_percentage: 5,
    });
    assert.equal(implicit.status, 201);
    assert.equal(implicit.body.to_company_id, main.id);

    const dup = await api.post(`/v1/cases/${c.id}/relations`, {
      from_individual_id: ceo.id,
      to_company_id: holding.id,
    });
    assert.equal(dup.status, 400);
    assert.equal((await api.post(`/v1/cases/${c.id}/relations`, { to_company_id: holding.id })).status, 400);
    assert.equal(
      (
        await api.post(`/v1/cases/${c.id}/relations`, {
          from_company_id: main.id,
          from_individual_id: ceo.id,
        })
      ).status,
      400,
    );
    assert.equal(
      (
        await api.post(`/v1/cases/${c.id}/relations`, {
          from_company_id: holding.id,
          to_company_id: holding.id,
        })
      ).status,
      400,
    );
    assert.equal((await api.post(`/v1/cases/nope/relations`, { from_company_id: holding.id })).status, 400);
    assert.equal(
      (
        await api.post(`/v1/cases/${c.id}/relations`, {
          from_individual_id: '00000000-0000-4000-8000-000000000000',
        })
      ).status,
      404,
    );
    assert.equal(
      (
        await other.post(`/v1/cases/${c.id}/relations`, {
          from_individual_id: ceo.id,
          to_company_id: fund.id,
        })
      ).status,
      404,
    );

    const noMain = (await api.post('/v1/cases', { name: 'empty' })).body;
    const noMainRes = await api.post(`/v1/cases/${noMain.id}/relations`, { from_individual_id: ceo.id });
    assert.equal(noMainRes.status, 400);
    assert.equal(noMainRes.body.details[0].path, 'to_company_id', JSON.stringify(noMainRes.body));
    assert.match(
      noMainRes.body.message,
      /^The case has no main company: add its main company before any relation$/,
    );
    // nor can an affiliate or a person be added to it: no graph grows around no main company
    const aff = await api.post('/v1/companies', {
      case_id: noMain.id,
      name: 'Affiliate',
      type: 'affiliated',
    });
    assert.equal(aff.status, 400, JSON.stringify(aff.body));
    const person = await api.post('/v1/individuals', { case_id: noMain.id, first_name: 'A', last_name: 'B' });
    assert.equal(person.status, 400, JSON.stringify(person.body));
    assert.equal((await api.get(`/v1/cases/${noMain.id}`)).body.individuals.length, 0);

    const upd = await api.patch(`/v1/cases/${c.id}/relations/${r.body.id}`, {
      position: 'Director',
      ownership_percentage: 10,
    });
    assert.equal(upd.status, 200);
    assert.equal(upd.body.position, 'Director');
    assert.equal(
      (await other.patch(`/v1/cases/${c.id}/relations/${r.body.id}`, { position: 'x' })).status,
      404,
    );

    // Turing's only relation: deleting it would orphan him
    const uboRel = ubo.relations[0];
    const orphan = await api.delete(`/v1/cases/${c.id}/relations/${uboRel.id}`);
    assert.equal(orphan.status, 400);
    assert.match(orphan.body.message, /no relation/);
    // it names what it refuses: the relation of the path
    assert.deepEqual(orphan.body.details, [{ path: 'caseRelationId', message: orphan.body.message }]);
    // the CEO now has two relations: one may go
    assert.equal((await api.delete(`/v1/cases/${c.id}/relations/${r.body.id}`)).status, 204);
    assert.equal((await api.delete(`/v1/cases/${c.id}/relations/${r.body.id}`)).status, 404);
    assert.equal((await other.delete(`/v1/cases/${c.id}/relations/${implicit.body.id}`)).status, 404);
  });

  test('moving a relation off a company that has no other relation is refused, as deleting it is', async () => {
    const api = await newWorkspace();
    const c = (await api.post('/v1/cases', sampleCaseBody())).body;
    const main = c.companies.find((x: any) => x.type === 'main');
    const holding = c.companies.find((x: any) => x.name === 'Acme Holding GmbH');
    const ceo = c.individuals.find((x: any) => x.last_name === 'Lovelace');
    // a company whose one relation is the CEO's, pointing at it
    const shell = await api.post('/v1/companies', {
      case_id: c.id,
      type: 'affiliated',
      name: 'Shell SARL',
      relations: [{ to_company_id: main.id }],
    });
    assert.equal(shell.status, 201, JSON.stringify(shell.body));
    const toShell = await api.post(`/v1/cases/${c.id}/relations`, {
      from_individual_id: ceo.id,
      to_company_id: shell.body.id,
      roles: ['legal_representative'],
    });
    assert.equal(toShell.status, 201, JSON.stringify(toShell.body));
    assert.equal((await api.delete(`/v1/cases/${c.id}/relations/${shell.body.relations[0].id}`)).status, 204);
    const moved = await api.patch(`/v1/cases/${c.id}/relations/${toShell.body.id}`, {
      to_company_id: holding.id,
    });
    assert.equal(moved.status, 400, JSON.stringify(moved.body));
    assert.match(moved.body.message, /no relation/);
    assert.equal(moved.body.details[0].path, 'to_company_id');
    const after = (await api.get(`/v1/cases/${c.id}`)).body;
    const kept = after.individuals
      .find((x: any) => x.id === ceo.id)
      .relations.find((r: any) => r.id === toShell.body.id);
    assert.equal(kept.to_company_id, shell.body.id);
    // giving the company another relation first lets the move through; so does the same target
    assert.equal(
      (await api.patch(`/v1/cases/${c.id}/relations/${toShell.body.id}`, { to_company_id: shell.body.id }))
        .status,
      200,
    );
    await api.post(`/v1/cases/${c.id}/relations`, { from_company_id: shell.body.id, to_company_id: main.id });
    assert.equal(
      (await api.patch(`/v1/cases/${c.id}/relations/${toShell.body.id}`, { to_company_id: holding.id }))
        .status,
      200,
    );
  });
});
