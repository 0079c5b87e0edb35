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
      'Company.RelevanceUpdated',
      'Individual.Deleted',
    ]) {
      assert.ok(types.includes(t), `${t} in ${types}`);
    }
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
    // the CEO now has two relations: one may go
    assert.equal((await api.delete(`/v1/cases/${c.id}/relations/${r.body.id}`)).status, 204);
    assert.equal((await api.delete(`/v1/cases/${c.id}/relations/${r.body.id}`)).status, 404);
    assert.equal((await other.delete(`/v1/cases/${c.id}/relations/${implicit.body.id}`)).status, 404);
  });
});
