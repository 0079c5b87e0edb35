import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sql } from 'kysely';
import { getHarness, newWorkspace, sampleCaseBody } from './helpers/harness.ts';

describe('cases', () => {
  test('creates the whole graph and returns every assigned id', async () => {
    const api = await newWorkspace();
    const res = await api.post('/v1/cases', sampleCaseBody('acme-1'));
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const c = res.body;
    assert.equal(c.status, 'open');
    assert.equal(c.external_id, 'acme-1');
    assert.equal(c.companies.length, 3);
    assert.equal(c.individuals.length, 3);
    const main = c.companies.find((x: any) => x.type === 'main');
    const holding = c.companies.find((x: any) => x.name === 'Acme Holding GmbH');
    const fund = c.companies.find((x: any) => x.name === 'Fund LP');
    assert.deepEqual(
      holding.relations.map((r: any) => r.to_company_id),
      [main.id],
    );
    assert.deepEqual(
      fund.relations.map((r: any) => r.to_company_id),
      [holding.id],
    );
    const ubo = c.individuals.find((x: any) => x.last_name === 'Turing');
    assert.equal(ubo.relations[0].to_company_id, holding.id);
    assert.equal(ubo.relations[0].ownership_percentage, 55);
    const ceo = c.individuals.find((x: any) => x.last_name === 'Lovelace');
    assert.deepEqual(ceo.roles, ['legal_representative']);
    assert.equal(ceo.position, 'CEO');
    assert.equal(ceo.address.country, 'FR');
    for (const k of ['contact_has_actions', 'reviewer_has_actions', 'last_contact_action_at', 'flags']) {
      assert.ok(k in c, `case has ${k}`);
    }
  });

  test('reading the case back gives its companies, individuals and relations in the order they were sent', async () => {
    const api = await newWorkspace();
    const companies = Array.from({ length: 8 }, (_, i) => ({
      ref: `c${i}`,
      type: i === 3 ? 'main' : 'affiliated',
      name: `Company ${i}`,
      ...(i === 3 ? {} : { relations: [{ roles: ['shareholder'] }] }),
    }));
    const individuals = Array.from({ length: 8 }, (_, i) => ({
      first_name: `Person ${i}`,
      last_name: 'Doe',
      relations: [0, 1, 2, 4].map((c) => ({ source_company_ref: `c${c}`, position: `p${c}` })),
    }));
    const created = await api.post('/v1/cases', { name: 'Ordered', companies, individuals });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const names = (c: any) => [
      c.companies.map((co: any) => co.name),
      c.individuals.map((p: any) => p.first_name),
      c.individuals.map((p: any) => p.relations.map((r: any) => r.position).join()),
    ];
    const sent = [
      companies.map((c) => c.name),
      individuals.map((p) => p.first_name),
      individuals.map(() => 'p0,p1,p2,p4'),
    ];
    assert.deepEqual(names(created.body), sent);
    assert.deepEqual(names((await api.get(`/v1/cases/${created.body.id}`)).body), sent);
    const listed = await api.get(`/v1/companies?case_id=${created.body.id}`);
    assert.deepEqual(
      listed.body.data.map((c: any) => c.name),
      sent[0],
    );
  });

  test('reads back by external_id and by id; another workspace gets 404', async () => {
    const api = await newWorkspace();
    const other = await newWorkspace();
    const created = (await api.post('/v1/cases', sampleCaseBody('ext-read'))).body;
    const byExt = await api.get('/v1/cases/ext-read');
    assert.equal(byExt.status, 200);
    assert.equal(byExt.body.id, created.id);
    assert.equal(byExt.body.companies.length, 3);
    assert.equal((await api.get(`/v1/cases/${created.id}`)).body.id, created.id);
    assert.equal((await other.get(`/v1/cases/${created.id}`)).status, 404);
    assert.equal((await other.get('/v1/cases/ext-read')).status, 404);
    assert.equal((await other.patch(`/v1/cases/${created.id}`, { name: 'x' })).status, 404);
    assert.equal((await other.delete(`/v1/cases/${created.id}`)).status, 404);
  });

  test('an external_id of 255 characters outside the BMP reads, updates and deletes the case by path', async () => {
    const api = await newWorkspace();
    // 255 code points (the schema's maxLength) but 510 UTF-16 units once decoded
    const external = '😀'.repeat(255);
    const created = await api.post('/v1/cases', { name: 'Emoji', external_id: external });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const path = `/v1/cases/${encodeURIComponent(external)}`;
    const read = await api.get(path);
    assert.equal(read.status, 200, JSON.stringify(read.body));
    assert.equal(read.body.id, created.body.id);
    const updated = await api.patch(path, { name: 'Emoji 2' });
    assert.equal(updated.status, 200, JSON.stringify(updated.body));
    assert.equal(updated.body.name, 'Emoji 2');
    assert.equal((await api.delete(path)).status, 204);
    assert.equal((await api.get(path)).status, 404);
    // longer than any external_id can be: still the error body
    const tooLong = await api.get(`/v1/cases/${encodeURIComponent('😀'.repeat(256))}`);
    assert.equal(tooLong.status, 400);
    assert.equal(tooLong.body.code, 'BAD_REQUEST');
  });

  test('a uuid in the path: the case with that id first, else the one with that external_id; deleted or foreign cases are 404', async () => {
    const api = await newWorkspace();
    const other = await newWorkspace();
    const first = (await api.post('/v1/cases', { name: 'First' })).body;
    // another case of the workspace cannot take the first's id as its external_id (the path would
    // name the first: test/case-external-id-path.test.ts); a uuid-shaped external_id of its own is fine
    assert.equal((await api.post('/v1/cases', { name: 'Shadow', external_id: first.id })).status, 400);
    const uuidExternal = '5b0a6f3e-2c1d-4e8f-9a7b-0c1d2e3f4a5b';
    const third = (await api.post('/v1/cases', { name: 'Third', external_id: uuidExternal })).body;
    assert.equal((await api.get(`/v1/cases/${first.id}`)).body.name, 'First');
    assert.equal((await api.get(`/v1/cases/${uuidExternal}`)).body.id, third.id);
    // the other workspace holds a case whose external_id is this workspace's case id: still ours
    await other.post('/v1/cases', { name: 'Theirs', external_id: first.id });
    assert.equal((await api.get(`/v1/cases/${first.id}`)).body.name, 'First');
    assert.equal((await other.get(`/v1/cases/${first.id}`)).body.name, 'Theirs');
    assert.equal((await other.get(`/v1/cases/${third.id}`)).status, 404);
    // deleted: its id no longer finds it, and is free as an external_id: the case holding it is found
    assert.equal((await api.delete(`/v1/cases/${first.id}`)).status, 204);
    assert.equal((await api.get(`/v1/cases/${first.id}`)).status, 404);
    const shadow = (await api.post('/v1/cases', { name: 'Shadow', external_id: first.id })).body;
    const after = await api.get(`/v1/cases/${first.id}`);
    assert.equal(after.status, 200);
    assert.equal(after.body.id, shadow.id);
    assert.equal((await api.delete(`/v1/cases/${shadow.id}`)).status, 204);
    assert.equal((await api.get(`/v1/cases/${first.id}`)).status, 404);
  });

  test('an invalid part of the graph stores nothing', async () => {
    const api = await newWorkspace();
    const { ctx } = await getHarness();
    const bodies: [unknown, string][] = [
      [
        { ...sampleCaseBody(), companies: [{ name: 'A', relations: [{ source_company_ref: 'nope' }] }] },
        'companies[0].relations[0].source_company_ref',
      ],
      [{ name: 'x', companies: [{ name: 'A' }, { name: 'B' }] }, 'companies[1].type'],
      [{ name: 'x', companies: [{ name: 'A', type: 'affiliated' }] }, 'companies'],
      [{ name: 'x', individuals: [{ first_name: 'a', last_name: 'b' }] }, 'individuals'],
      [{ name: 'x', companies: [{ name: 'A', country: 'France' }] }, 'companies[0].country'],
      [
        {
          name: 'x',
          individuals: [{ first_name: 'a', last_name: 'b', address: { country: 'ZZ' } }],
          companies: [{ name: 'A' }],
        },
        'individuals[0].address.country',
      ],
    ];
    for (const [body, path] of bodies) {
      const res = await api.post('/v1/cases', body);
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.code, 'BAD_REQUEST');
      assert.ok(
        res.body.details.some((d: any) => d.path === path),
        `${path} in ${JSON.stringify(res.body.details)}`,
      );
    }
    const count = await ctx.db
      .selectFrom('cases')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('workspace_id', '=', api.workspaceId)
      .executeTakeFirstOrThrow();
    assert.equal(Number(count.n), 0);
  });

  test('duplicate external_id is a 409 naming external_id (code CONFLICT), on create and on update', async () => {
    // issue 2: "external_id unique per workspace (a duplicate → 409)" (docs/compatibility.md)
    const api = await newWorkspace();
    assert.equal((await api.post('/v1/cases', { name: 'a', external_id: 'dup' })).status, 201);
    const res = await api.post('/v1/cases', { name: 'b', external_id: 'dup' });
    assert.equal(res.status, 409, JSON.stringify(res.body));
    assert.equal(res.body.code, 'CONFLICT');
    assert.equal(res.body.details[0].path, 'external_id');
    const other = await api.post('/v1/cases', { name: 'c', external_id: 'other' });
    const patched = await api.patch(`/v1/cases/${other.body.id}`, { external_id: 'dup' });
    assert.equal(patched.status, 409, JSON.stringify(patched.body));
    assert.equal(patched.body.code, 'CONFLICT');
    assert.equal(patched.body.details[0].path, 'external_id');
    assert.equal((await api.get(`/v1/cases/${other.body.id}`)).body.external_id, 'other');
  });

  test('list filters, sorts and paginates; bad parameters are 400 naming them', async () => {
    const api = await newWorkspace();
    for (const [name, status, tags] of [
      ['Bravo', 'open', ['vip']],
      ['alpha', 'draft', ['vip', 'eu']],
      ['Charlie', 'open', ['eu']],
    ] as const) {
      assert.equal((await api.post('/v1/cases', { name, status, tags: [...tags] })).status, 201);
    }
    const byName = await api.get('/v1/cases?sort=name');
    assert.deepEqual(
      byName.body.data.map((c: any) => c.name),
      ['Bravo', 'Charlie', 'alpha'],
    );
    const desc = await api.get('/v1/cases?sort=name.desc&limit=2&page=1');
    assert.deepEqual(
      desc.body.data.map((c: any) => c.name),
      ['alpha', 'Charlie'],
    );
    assert.deepEqual(desc.body.pagination, { page: 1, limit: 2, count: 3 });
    const open = await api.get('/v1/cases?status=open');
    assert.equal(open.body.pagination.count, 2);
    const notOpen = await api.get('/v1/cases?status.in=draft,approved');
    assert.deepEqual(
      notOpen.body.data.map((c: any) => c.name),
      ['alpha'],
    );
    assert.equal((await api.get('/v1/cases?tags=vip,eu')).body.pagination.count, 1);
    assert.equal((await api.get('/v1/cases?tags.array_overlap=vip,eu')).body.pagination.count, 3);
    assert.equal((await api.get('/v1/cases?tags.array_not_contains=vip')).body.pagination.count, 1);
    assert.equal((await api.get('/v1/cases?name.ilike=%25HAR%25')).body.pagination.count, 1);
    const today = new Date().toISOString().slice(0, 10);
    assert.equal((await api.get(`/v1/cases?created_at=${today}`)).body.pagination.count, 3);
    assert.equal((await api.get(`/v1/cases?created_at.lt=${today}`)).body.pagination.count, 0);
    for (const [q, param] of [
      ['status.like=open', 'status.like'],
      // one filter spelled two ways is given twice
      ['status=open&status.eq=draft', 'status.eq'],
      ['name.eq=a&name=b', 'name'],
      ['status=bogus', 'status'],
      ['sort=bogus', 'sort'],
      ['sort=name,name.desc', 'sort'],
      ['limit=101', 'limit'],
      ['limit=0', 'limit'],
      ['page=0', 'page'],
      ['page=abc', 'page'],
      ['created_at.gt=yesterday', 'created_at.gt'],
      ['colour=red', 'colour'],
    ]) {
      const res = await api.get(`/v1/cases?${q}`);
      assert.equal(res.status, 400, q);
      assert.ok(
        res.body.details.some((d: any) => d.path === param),
        `${q}: ${JSON.stringify(res.body)}`,
      );
    }
    // the offset's + sent unencoded reads as a space: still a 400, which says how to write it
    // an empty item of a list of values is named as such, not as an empty value
    for (const [q, message] of [
      ['status.in=open,', 'status.in has an empty value (item 2 of 2: a comma too many?)'],
      ['tags.array_overlap=,vip', 'tags.array_overlap has an empty value (item 1 of 2: a comma too many?)'],
      ['status.in=', 'status.in must not be empty'],
    ]) {
      const res = await api.get(`/v1/cases?${q}`);
      assert.equal(res.status, 400, q);
      assert.deepEqual(res.body.details, [{ path: q.split('=')[0], message }], q);
    }
    // an empty sort entry reads as what it is
    for (const q of ['sort=name,', 'sort=,name', 'sort=']) {
      const empty = await api.get(`/v1/cases?${q}`);
      assert.equal(empty.status, 400, q);
      assert.deepEqual(
        empty.body.details,
        [{ path: 'sort', message: 'sort must not have an empty entry' }],
        q,
      );
    }
    const plus = await api.get('/v1/cases?created_at.gt=2026-01-01T10:00:00+02:00');
    assert.equal(plus.status, 400);
    assert.equal(
      plus.body.message,
      'created_at.gt must be a date (yyyy-MM-dd) or an ISO 8601 date-time (a + in a URL reads as a space: write the offset as %2B02:00)',
    );
    assert.equal((await api.get('/v1/cases?created_at.gt=2026-01-01T10:00:00%2B02:00')).status, 200);
    // a date-time whose day or time does not exist is refused as the date alone is (it was rolled
    // over into another day, or read for its date only on a date column)
    for (const q of [
      'created_at=2024-02-30T00:00:00Z',
      'created_at.gt=2024-02-31T10:00:00Z',
      'updated_at.lt=2023-02-29T00:00:00Z',
      'last_activity_at=2024-01-01T24:00:00Z',
      'created_at=2024-01-01T10:61:00Z',
      'created_at=2024-01-01T10:00:00%2B25:00',
    ]) {
      const res = await api.get(`/v1/cases?${q}`);
      assert.equal(res.status, 400, q);
      assert.match(res.body.message, /must be a date \(yyyy-MM-dd\) or an ISO 8601 date-time/, q);
    }
    const birth = await api.get('/v1/individuals?birth_date=2024-01-01T25:00:00Z');
    assert.equal(birth.status, 400);
    assert.equal(birth.body.details[0].path, 'birth_date');
    for (const q of ['created_at=2024-02-29T23:59:59.999Z', 'created_at.lt=2024-12-31T23:59:59%2B14:00']) {
      assert.equal((await api.get(`/v1/cases?${q}`)).status, 200, q);
    }
  });

  test('the list shows custom_properties only with include_custom_properties=true (default false, as the reference)', async () => {
    const api = await newWorkspace();
    const created = await api.post('/v1/cases', {
      name: 'With props',
      custom_properties: { segment: 'retail' },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const plain = await api.get('/v1/cases');
    assert.equal(plain.status, 200);
    assert.ok(!('custom_properties' in plain.body.data[0]), JSON.stringify(plain.body.data[0]));
    assert.equal(plain.body.data[0].name, 'With props');
    for (const url of [
      '/v1/cases?include_custom_properties=false',
      '/v1/cases?include_custom_properties=true',
    ]) {
      const res = await api.get(url);
      assert.equal(res.status, 200, url);
      const shown = url.endsWith('true');
      assert.equal('custom_properties' in res.body.data[0], shown, url);
      if (shown) assert.deepEqual(res.body.data[0].custom_properties, { segment: 'retail' });
    }
    const bad = await api.get('/v1/cases?include_custom_properties=maybe');
    assert.equal(bad.status, 400);
    assert.equal(bad.body.details[0].path, 'include_custom_properties');
    // one case read by id always has them
    assert.deepEqual((await api.get(`/v1/cases/${created.body.id}`)).body.custom_properties, {
      segment: 'retail',
    });
  });

  test('a date-time filter with a timestamp the API returned finds that item (stored in microseconds, shown in milliseconds)', async () => {
    const api = await newWorkspace();
    const { ctx } = await getHarness();
    const ids: string[] = [];
    for (const name of ['early', 'middle', 'late']) ids.push((await api.post('/v1/cases', { name })).body.id);
    // the database keeps microseconds; the API shows milliseconds (…07.123Z for …07.123456)
    for (const [i, at] of [
      '2026-03-04T05:06:07.122900Z',
      '2026-03-04T05:06:07.123456Z',
      '2026-03-04T05:06:07.124100Z',
    ].entries()) {
      await ctx.db
        .updateTable('cases')
        .set({ created_at: sql`${at}::timestamptz` })
        .where('id', '=', ids[i])
        .execute();
    }
    const shown = (await api.get(`/v1/cases/${ids[1]}`)).body.created_at;
    assert.equal(shown, '2026-03-04T05:06:07.123Z');
    const names = async (q: string) => {
      const res = await api.get(`/v1/cases?${q}&sort=created_at`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body.data.map((c: any) => c.name);
    };
    assert.deepEqual(await names(`created_at.eq=${shown}`), ['middle']);
    assert.deepEqual(await names(`created_at=${shown}`), ['middle']);
    assert.deepEqual(await names(`created_at.not_eq=${shown}`), ['early', 'late']);
    assert.deepEqual(await names(`created_at.lte=${shown}`), ['early', 'middle']);
    assert.deepEqual(await names(`created_at.lt=${shown}`), ['early']);
    // paging on by the last timestamp seen does not give that item again
    assert.deepEqual(await names(`created_at.gt=${shown}`), ['late']);
    assert.deepEqual(await names(`created_at.gte=${shown}`), ['middle', 'late']);
  });

  test('update, soft delete and permanent delete', async () => {
    const api = await newWorkspace();
    const { ctx } = await getHarness();
    const c = (await api.post('/v1/cases', sampleCaseBody('to-delete'))).body;
    const upd = await api.patch('/v1/cases/to-delete', { name: 'Renamed', status: 'draft', tags: ['a'] });
    assert.equal(upd.status, 200);
    assert.equal(upd.body.name, 'Renamed');
    assert.deepEqual(upd.body.tags, ['a']);
    assert.equal((await api.delete('/v1/cases/to-delete')).status, 204);
    assert.equal((await api.get(`/v1/cases/${c.id}`)).status, 404);
    assert.equal((await api.get('/v1/cases')).body.pagination.count, 0);
    const soft = await ctx.db
      .selectFrom('cases')
      .select('deleted_at')
      .where('id', '=', c.id)
      .executeTakeFirst();
    assert.ok(soft?.deleted_at);
    const c2 = (await api.post('/v1/cases', sampleCaseBody('to-delete'))).body; // external_id reusable
    assert.equal((await api.delete(`/v1/cases/${c2.id}?permanent=true`)).status, 204);
    const gone = await ctx.db.selectFrom('companies').select('id').where('case_id', '=', c2.id).execute();
    assert.equal(gone.length, 0);
    const events = await ctx.db
      .selectFrom('events')
      .select(['type', 'sub_event'])
      .where('workspace_id', '=', api.workspaceId)
      .orderBy('seq')
      .execute();
    assert.ok(events.some((e) => e.type === 'Case.Created'));
    assert.ok(events.some((e) => e.type === 'Case.Updated' && e.sub_event === 'Case.StatusUpdated'));
    assert.equal(events.filter((e) => e.type === 'Case.Deleted').length, 2);
  });
});

describe('case tags', () => {
  test('labels match existing tags case-insensitively on create and update; new labels create tags', async () => {
    const api = await newWorkspace();
    assert.equal((await api.post('/v1/tags', { label: 'VIP' })).status, 201);
    const c = await api.post('/v1/cases', { name: 'x', tags: ['vip', 'New-Tag', 'new-tag'] });
    assert.equal(c.status, 201);
    assert.deepEqual(c.body.tags, ['VIP', 'New-Tag']);
    const upd = await api.patch(`/v1/cases/${c.body.id}`, { tags: ['new-TAG', 'Other'] });
    assert.deepEqual(upd.body.tags, ['New-Tag', 'Other']);
    const tags = (await api.get('/v1/tags?sort=label')).body.data.map((t: any) => t.label);
    assert.deepEqual(tags, ['New-Tag', 'Other', 'VIP']);
    assert.equal((await api.get('/v1/cases?tags=VIP')).body.pagination.count, 0);
    assert.equal((await api.get('/v1/cases?tags=New-Tag')).body.pagination.count, 1);
  });

  test('the tags filter matches labels case-insensitively, as adding and removing tags do', async () => {
    const api = await newWorkspace();
    const vip = await api.post('/v1/cases', { name: 'Tagged', tags: ['VIP', 'EU'] });
    assert.equal(vip.status, 201, JSON.stringify(vip.body));
    assert.equal((await api.post('/v1/cases', { name: 'Plain', tags: ['eu'] })).status, 201);
    const names = async (q: string) => {
      const res = await api.get(`/v1/cases?${q}&sort=name`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body.data.map((c: any) => c.name);
    };
    assert.deepEqual(await names('tags=vip'), ['Tagged']);
    assert.deepEqual(await names('tags.array_contains=vip,eu'), ['Tagged']);
    assert.deepEqual(await names('tags.array_overlap=vIp,nothing'), ['Tagged']);
    assert.deepEqual(await names('tags.array_not_contains=vip'), ['Plain']);
    assert.deepEqual(await names('tags=Eu'), ['Plain', 'Tagged']);
    assert.deepEqual(await names('tags=unknown'), []);
    assert.deepEqual(await names('tags.array_not_contains=unknown'), ['Plain', 'Tagged']);
    const counts = await api.get('/v1/case-counts?tags.array_contains=vip');
    assert.equal(counts.body.all, 1, JSON.stringify(counts.body));
    // another workspace's tag of the same label spells nothing here
    const other = await newWorkspace();
    assert.equal((await other.post('/v1/tags', { label: 'vip' })).status, 201);
    assert.deepEqual(await names('tags=vip'), ['Tagged']);
  });
});

describe('case tag labels', () => {
  test('a label with a list separator, or blank, is a 400 naming it', async () => {
    const api = await newWorkspace();
    const res = await api.post('/v1/cases', { name: 'x', tags: ['ok', 'a,b'] });
    assert.equal(res.status, 400);
    assert.equal(res.body.details[0].path, 'tags[1]');
    assert.match(res.body.details[0].message, /tag label/);
    const c = (await api.post('/v1/cases', { name: 'x' })).body;
    assert.equal((await api.patch(`/v1/cases/${c.id}`, { tags: ['  '] })).status, 400);
  });

  test("space_slug: the reference's shape or a 400 naming it, nothing stored", async () => {
    const api = await newWorkspace();
    const bad = await api.post('/v1/cases', { name: 'Bad space', space_slug: 'bogus' });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.details[0].path, 'space_slug');
    assert.match(bad.body.details[0].message, /space_ and 12 letters or digits/);
    assert.equal((await api.get('/v1/cases')).body.pagination.count, 0);
    const good = await api.post('/v1/cases', { name: 'Good space', space_slug: 'space_7hk92Q75dm0a' });
    assert.equal(good.status, 201, JSON.stringify(good.body));
    assert.equal(good.body.space_slug, 'space_7hk92Q75dm0a');
    const none = await api.post('/v1/cases', { name: 'No space', space_slug: null });
    assert.equal(none.status, 201);
    assert.equal(none.body.space_slug, null);
  });
});
