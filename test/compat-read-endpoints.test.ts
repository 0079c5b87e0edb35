import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import { type Client, getHarness, newWorkspace } from './helpers/harness.ts';
import { assertReference, referenceResponse, SCHEMAS } from './helpers/reference-shapes.ts';

async function db() {
  return (await getHarness()).ctx.db;
}

async function insertUser(workspaceId: string, fields: Record<string, unknown> = {}) {
  const id = randomUUID();
  await (await db())
    .insertInto('users')
    .values({
      id,
      workspace_id: workspaceId,
      first_name: 'Grace',
      last_name: 'Hopper',
      email: `${id.slice(0, 8)}@example.com`,
      role: 'member',
      password_hash: 'not-a-real-hash',
      ...fields,
    })
    .execute();
  return id;
}

async function newCase(api: Client, body: Record<string, unknown> = {}) {
  const res = await api.post('/v1/cases', { name: 'Case', ...body });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

describe('GET /v1/users', () => {
  test('empty until users exist; active users by default, suspended on request; pages; reference shape', async () => {
    const api = await newWorkspace();
    const empty = await api.get('/v1/users');
    assert.equal(empty.status, 200);
    assert.deepEqual(empty.body, { data: [], pagination: { page: 1, limit: 20, count: 0 } });

    const t0 = new Date(Date.now() - 60_000);
    const first = await insertUser(api.workspaceId, { role: 'owner', created_at: t0 });
    const suspended = await insertUser(api.workspaceId, {
      created_at: new Date(t0.getTime() + 1000),
      suspended_at: new Date(),
    });
    const third = await insertUser(api.workspaceId, {
      role: 'admin',
      created_at: new Date(t0.getTime() + 2000),
    });
    const other = await newWorkspace();
    await insertUser(other.workspaceId);

    // suspended_at is null for an active user: the reference marks it required but not nullable,
    // and an active user has no suspension date, so vericase answers null (docs/compatibility.md)
    const user = structuredClone(SCHEMAS.User);
    user.properties.suspended_at.nullable = true;

    const active = await api.get('/v1/users');
    assert.equal(active.status, 200);
    assert.deepEqual(
      active.body.data.map((u: { id: string }) => u.id),
      [first, third],
    );
    assert.deepEqual(active.body.pagination, { page: 1, limit: 20, count: 2 });
    for (const u of active.body.data) {
      assertReference(u, user);
      assert.deepEqual(Object.keys(u).sort(), [
        'created_at',
        'email',
        'first_name',
        'id',
        'last_name',
        'role',
        'suspended_at',
      ]);
    }
    assert.equal(active.body.data[0].role, 'owner');
    assert.equal(active.body.data[0].suspended_at, null);

    const all = await api.get('/v1/users?include_suspended=true');
    assert.deepEqual(
      all.body.data.map((u: { id: string }) => u.id),
      [first, suspended, third],
    );
    assertReference(all.body.data[1], 'User');
    assert.equal(typeof all.body.data[1].suspended_at, 'string');

    const page = await api.get('/v1/users?include_suspended=true&page=2&limit=1');
    assert.equal(page.status, 200);
    assert.deepEqual(
      page.body.data.map((u: { id: string }) => u.id),
      [suspended],
    );
    assert.deepEqual(page.body.pagination, { page: 2, limit: 1, count: 3 });
    assert.equal((await api.get('/v1/users?include_suspended=false')).body.pagination.count, 2);
  });

  test('GET /v1/users/{id}: suspended users too; another workspace user is a 404; bad input 400', async () => {
    const api = await newWorkspace();
    const other = await newWorkspace();
    const id = await insertUser(api.workspaceId, { suspended_at: new Date() });
    const foreign = await insertUser(other.workspaceId);
    const got = await api.get(`/v1/users/${id}`);
    assert.equal(got.status, 200);
    assertReference(got.body, 'User');
    assert.equal(got.body.id, id);
    assert.equal('password_hash' in got.body, false);
    assert.equal((await api.get(`/v1/users/${foreign}`)).status, 404);
    assert.equal((await other.get(`/v1/users/${foreign}`)).status, 200);
    assert.equal((await api.get('/v1/users/not-a-uuid')).status, 400);
    assert.equal((await api.get('/v1/users?include_suspended=maybe')).status, 400);
    assert.equal((await api.get('/v1/users?limit=101')).status, 400);
    assert.equal((await api.get('/v1/users?role=admin')).status, 400);
  });
});

describe('GET /v1/custom-properties', () => {
  const props = {
    risk_score: 12,
    is_pep: true,
    audit_date: '2024-01-31',
    contact_email: 'compliance@example.com',
    hotline: '+33612345678',
    website: 'https://example.com/about',
    markets: ['FR', 'DE'],
    hq_country: 'FR',
    segments: ['retail', 'sme'],
    notes: 'first line\nsecond line',
    mixed: 3,
  };

  test('definitions derived from the keys in use, typed from their values, in the reference shape', async () => {
    const api = await newWorkspace();
    await newCase(api, { custom_properties: props });
    await newCase(api, { custom_properties: { segments: ['corporate'], mixed: 'three', risk_score: null } });
    const res = await api.get('/v1/custom-properties/case?limit=100');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assertReference(res.body, referenceResponse('/v1/custom-properties/{target_entity}'));
    const byKey = Object.fromEntries(res.body.data.map((d: Record<string, unknown>) => [d.key, d]));
    assert.deepEqual(
      Object.fromEntries(Object.entries(byKey).map(([k, d]) => [k, (d as { type: string }).type])),
      {
        risk_score: 'numeric',
        is_pep: 'boolean',
        audit_date: 'date',
        contact_email: 'email',
        hotline: 'phone_number',
        website: 'url',
        markets: 'countries',
        hq_country: 'countries',
        segments: 'choices',
        notes: 'text',
        mixed: 'text',
      },
    );
    assert.deepEqual(res.body.pagination, { page: 1, limit: 100, count: 11 });
    assert.deepEqual(byKey.markets.settings, { allow_multiple: true });
    assert.deepEqual(byKey.hq_country.settings, { allow_multiple: false });
    assert.deepEqual(byKey.notes.settings, { is_multi_line: true });
    assert.deepEqual(byKey.mixed.settings, { is_multi_line: false });
    assert.deepEqual(byKey.risk_score.settings, {
      format: 'number',
      min: null,
      max: null,
      currency_code: null,
    });
    assert.equal(byKey.is_pep.settings, undefined);
    assert.equal(byKey.segments.options, undefined, 'options only in the detail');
    assert.equal(byKey.risk_score.label, 'Risk score');
    assert.equal(byKey.risk_score.target_entity, 'case');
    assert.equal(byKey.risk_score.archived_at, null);

    // stable ids, detail with options (every value in use)
    const detail = await api.get('/v1/custom-properties/case/segments');
    assert.equal(detail.status, 200);
    assertReference(detail.body, referenceResponse('/v1/custom-properties/{target_entity}/{key}'));
    assert.equal(detail.body.id, byKey.segments.id);
    assert.deepEqual(detail.body.options, [
      { label: 'corporate', key: 'corporate' },
      { label: 'retail', key: 'retail' },
      { label: 'sme', key: 'sme' },
    ]);
    const email = await api.get('/v1/custom-properties/case/contact_email');
    assertReference(email.body, referenceResponse('/v1/custom-properties/{target_entity}/{key}'));
    assert.equal(email.body.type, 'email');
  });

  test('filters, sort and pages; per entity kind; another workspace sees nothing; 400 and 404', async () => {
    const api = await newWorkspace();
    await newCase(api, {
      custom_properties: { alpha_one: 'a', alpha_two: 'b', beta: 'c' },
      companies: [{ type: 'main', name: 'Acme', custom_properties: { lei_code: 'X1' } }],
      individuals: [{ first_name: 'Ada', last_name: 'Lovelace', custom_properties: { pep_level: 2 } }],
    });
    const keys = async (q: string) => {
      const r = await api.get(`/v1/custom-properties/case${q}`);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      return r.body.data.map((d: { key: string }) => d.key);
    };
    assert.deepEqual(await keys('?sort=key.desc'), ['beta', 'alpha_two', 'alpha_one']);
    assert.deepEqual(await keys('?key.like=alpha%25&sort=key'), ['alpha_one', 'alpha_two']);
    assert.deepEqual(await keys('?label.ilike=ALPHA%20T%25'), ['alpha_two']);
    assert.deepEqual(await keys('?key=beta&include_archived=true'), ['beta']);
    assert.deepEqual(await keys('?key.not_eq=beta&sort=label.desc'), ['alpha_two', 'alpha_one']);
    assert.deepEqual(await keys('?sort=key&limit=2&page=2'), ['beta']);
    assert.deepEqual(await keys('?created_at.gte=2000-01-01&sort=key'), ['alpha_one', 'alpha_two', 'beta']);
    assert.deepEqual(await keys('?updated_at.lt=2000-01-01'), []);

    const companies = await api.get('/v1/custom-properties/company');
    assert.deepEqual(
      companies.body.data.map((d: { key: string; target_entity: string }) => [d.key, d.target_entity]),
      [['lei_code', 'company']],
    );
    const individuals = await api.get('/v1/custom-properties/individual');
    assert.deepEqual(
      individuals.body.data.map((d: { key: string; type: string }) => [d.key, d.type]),
      [['pep_level', 'numeric']],
    );
    assertReference(individuals.body, referenceResponse('/v1/custom-properties/{target_entity}'));

    const other = await newWorkspace();
    assert.equal((await other.get('/v1/custom-properties/case')).body.pagination.count, 0);
    assert.equal((await other.get('/v1/custom-properties/case/beta')).status, 404);
    assert.equal((await api.get('/v1/custom-properties/company/beta')).status, 404);
    assert.equal((await api.get('/v1/custom-properties/check')).status, 400);
    assert.equal((await api.get('/v1/custom-properties/check/beta')).status, 400);
    assert.equal((await api.get('/v1/custom-properties/case?sort=type')).status, 400);
    assert.equal((await api.get('/v1/custom-properties/case?type=text')).status, 400);
    assert.equal((await api.get('/v1/custom-properties/case?include_archived=perhaps')).status, 400);
  });

  test('a deleted case no longer contributes its keys', async () => {
    const api = await newWorkspace();
    const kase = await newCase(api, { custom_properties: { temp_key: 'x' } });
    assert.equal((await api.get('/v1/custom-properties/case/temp_key')).status, 200);
    assert.equal((await api.delete(`/v1/cases/${kase.id}`)).status < 300, true);
    assert.equal((await api.get('/v1/custom-properties/case/temp_key')).status, 404);
  });
});

describe('GET /v1/companies/{id}/vendor-data', () => {
  test('empty until fetched; reference shape; filters and sort; another workspace company is a 404', async () => {
    const api = await newWorkspace();
    const kase = await newCase(api, { companies: [{ type: 'main', name: 'Acme', country: 'FR' }] });
    const companyId = kase.companies[0].id;
    const empty = await api.get(`/v1/companies/${companyId}/vendor-data`);
    assert.equal(empty.status, 200);
    assert.deepEqual(empty.body, { data: [], pagination: { page: 1, limit: 20, count: 0 } });

    const rows = [
      {
        name: 'pappers',
        raw: { siren: '552100554', nested: { a: [1, 2] } },
        fetched_at: new Date('2024-03-01T10:00:00Z'),
      },
      { name: 'kompany', raw: { id: 'k-1' }, fetched_at: new Date('2024-01-01T10:00:00Z') },
      { name: 'pappers', raw: { siren: '552100554', v: 2 }, fetched_at: new Date('2024-05-01T10:00:00Z') },
    ];
    await (await db())
      .insertInto('company_vendor_data')
      .values(
        rows.map((r) => ({
          id: randomUUID(),
          workspace_id: api.workspaceId,
          company_id: companyId,
          ...r,
          raw: JSON.stringify(r.raw),
        })),
      )
      .execute();
    const list = await api.get(`/v1/companies/${companyId}/vendor-data`);
    assert.equal(list.status, 200);
    assertReference(list.body, 'CompanyVendorDataList');
    assert.deepEqual(
      list.body.data.map((d: { fetched_at: string }) => d.fetched_at),
      ['2024-01-01T10:00:00.000Z', '2024-03-01T10:00:00.000Z', '2024-05-01T10:00:00.000Z'],
      'fetched_at ascending by default',
    );
    assert.deepEqual(list.body.data[1].raw, { siren: '552100554', nested: { a: [1, 2] } });
    assert.equal(list.body.data[1].company_id, companyId);

    const pappers = await api.get(`/v1/companies/${companyId}/vendor-data?name=pappers&sort=fetched_at.desc`);
    assert.deepEqual(
      pappers.body.data.map((d: { raw: { v?: number } }) => d.raw.v ?? 1),
      [2, 1],
    );
    assert.equal(pappers.body.pagination.count, 2);
    const notPappers = await api.get(`/v1/companies/${companyId}/vendor-data?name.not_eq=pappers`);
    assert.deepEqual(
      notPappers.body.data.map((d: { name: string }) => d.name),
      ['kompany'],
    );
    const since = await api.get(
      `/v1/companies/${companyId}/vendor-data?fetched_at.gte=2024-02-01&sort=name,fetched_at`,
    );
    assert.equal(since.body.pagination.count, 2);

    assert.equal((await api.get(`/v1/companies/${companyId}/vendor-data?name=bogus`)).status, 400);
    assert.equal((await api.get(`/v1/companies/${companyId}/vendor-data?sort=raw`)).status, 400);
    assert.equal((await api.get(`/v1/companies/${companyId}/vendor-data?fetched_at=yesterday`)).status, 400);
    assert.equal((await api.get(`/v1/companies/${randomUUID()}/vendor-data`)).status, 404);
    const other = await newWorkspace();
    assert.equal((await other.get(`/v1/companies/${companyId}/vendor-data`)).status, 404);
  });
});

describe('GET /v1/activities', () => {
  test('API changes and the engine’s own decisions, in the reference shape, filtered by index columns', async () => {
    const api = await newWorkspace();
    const kase = await newCase(api, {
      status: 'draft',
      companies: [{ type: 'main', name: 'Acme SAS', country: 'FR' }],
      individuals: [
        {
          first_name: 'Ada',
          last_name: 'Lovelace',
          birth_date: '1985-12-10',
          address: { country: 'FR' },
          relations: [{ roles: ['legal_representative'], position: 'CEO' }],
        },
      ],
    });
    const companyId = kase.companies[0].id;
    const individualId = kase.individuals[0].id;
    assert.equal((await api.patch(`/v1/cases/${kase.id}`, { name: 'Renamed', status: 'open' })).status, 200);
    const check = await api.post('/v1/checks/ekyc', { individual_id: individualId });
    assert.equal(check.status, 201, JSON.stringify(check.body));
    // a note is not an activity in the reference
    assert.equal((await api.post('/v1/notes', { case_id: kase.id, content: 'hello' })).status, 201);

    const all = await api.get('/v1/activities?limit=100');
    assert.equal(all.status, 200, JSON.stringify(all.body));
    assertReference(all.body, 'ActivityList');
    const types = all.body.data.map((a: { type: string }) => a.type);
    for (const t of [
      'api__created__case',
      'api__created__company',
      'api__created__individual',
      'api__updated_info__case',
      'api__updated_status__case',
      'api__started__check',
      'system__approved__check',
    ])
      assert.ok(types.includes(t), `${t} in ${types.join(', ')}`);
    assert.equal(
      types.some((t: string) => t.includes('note')),
      false,
    );
    const started = all.body.data.find((a: { type: string }) => a.type === 'api__started__check');
    assert.equal(started.author_type, 'api');
    assert.equal(started.case_id, kase.id);
    assert.equal(started.individual_id, individualId);
    assert.equal(started.company_id, null);
    assert.deepEqual(started.context.check, {
      id: check.body.id,
      type: 'ekyc',
      subtype: check.body.subtype ?? null,
    });
    const approved = all.body.data.find((a: { type: string }) => a.type === 'system__approved__check');
    assert.equal(approved.author_type, 'system');
    assert.equal(approved.author_id, null);
    const status = all.body.data.find((a: { type: string }) => a.type === 'api__updated_status__case');
    assert.deepEqual(status.context.case, { status: 'open' });
    assert.equal(status.user, null);
    assert.equal(status.changes, null);
    const created = all.body.data.map((a: { created_at: string }) => a.created_at);
    assert.deepEqual(created, [...created].sort(), 'created_at ascending by default');

    const list = async (q: string) => {
      const r = await api.get(`/v1/activities${q}`);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assertReference(r.body, 'ActivityList');
      return r.body;
    };
    const forCompany = await list(`?company_id=${companyId}`);
    assert.deepEqual(
      forCompany.data.map((a: { type: string }) => a.type),
      ['api__created__company'],
    );
    const forIndividual = await list(`?individual_id=${individualId}`);
    assert.deepEqual(
      forIndividual.data.map((a: { type: string }) => a.type),
      ['api__created__individual', 'api__started__check', 'system__approved__check'],
    );
    assert.equal((await list(`?case_id=${kase.id}&limit=100`)).pagination.count, all.body.pagination.count);
    assert.deepEqual(
      (await list('?type=system__approved__check')).data.map((a: { id: string }) => a.id),
      [approved.id],
    );
    const some = await list('?type.in=api__created__case,api__created__company&sort=created_at.desc');
    assert.deepEqual(some.data.map((a: { type: string }) => a.type).sort(), [
      'api__created__case',
      'api__created__company',
    ]);
    assert.equal(
      (await list('?type.not_in=system__approved__check&limit=100')).pagination.count,
      all.body.pagination.count - 1,
    );
    const page = await list('?limit=2&page=2');
    assert.deepEqual(
      page.data.map((a: { id: string }) => a.id),
      all.body.data.slice(2, 4).map((a: { id: string }) => a.id),
    );
    assert.equal((await list(`?created_at.lt=2000-01-01`)).pagination.count, 0);
    assert.equal((await list(`?author_id=${randomUUID()}`)).pagination.count, 0);

    // another workspace's case: nothing of it, and its own list is empty
    const other = await newWorkspace();
    assert.equal((await other.get(`/v1/activities?case_id=${kase.id}`)).body.pagination.count, 0);
    assert.equal((await other.get('/v1/activities')).body.pagination.count, 0);

    assert.equal((await api.get('/v1/activities?type=api__created__note')).status, 400);
    assert.equal((await api.get('/v1/activities?type.like=api%25')).status, 400);
    assert.equal((await api.get('/v1/activities?case_id=abc')).status, 400);
    assert.equal((await api.get('/v1/activities?sort=type')).status, 400);
    assert.equal((await api.get('/v1/activities?created_at.not_eq=2024-01-01')).status, 400);
    assert.equal((await api.get('/v1/activities?actor=api')).status, 400);
  });

  test('checks a template starts are the system’s, with the template as author', async () => {
    const api = await newWorkspace();
    const tpl = await api.post('/v1/templates', {
      key: `kyc-${randomUUID().slice(0, 8)}`,
      name: 'KYC',
      checks: [{ type: 'ekyc', targets: ['legal_representatives'] }],
    });
    assert.equal(tpl.status, 201, JSON.stringify(tpl.body));
    const kase = await newCase(api, {
      template_key: tpl.body.key,
      companies: [{ type: 'main', name: 'Acme SAS', country: 'FR' }],
      individuals: [
        {
          first_name: 'Ada',
          last_name: 'Lovelace',
          birth_date: '1985-12-10',
          address: { country: 'FR' },
          relations: [{ roles: ['legal_representative'], position: 'CEO' }],
        },
      ],
    });
    const res = await api.get(`/v1/activities?case_id=${kase.id}&type=system__started__check`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assertReference(res.body, 'ActivityList');
    assert.equal(res.body.data.length, 1);
    assert.equal(res.body.data[0].author_type, 'system');
    assert.equal(res.body.data[0].author_id, tpl.body.id);
    const byAuthor = await api.get(`/v1/activities?author_id=${tpl.body.id}`);
    assert.deepEqual(
      byAuthor.body.data.map((a: { id: string }) => a.id),
      [res.body.data[0].id],
    );
  });
});
