/**
 * Lists filtered by a pattern (`like`, `ilike`) over the large tables (src/http/pattern-walk.ts):
 * the page walks the sort order for a bounded number of rows, then falls back to reading the
 * matching rows and sorting them. Whichever way a page is read, it must be the page the plain query
 * gives: the same rows in the same order, page after page, with the other filters and the count.
 * Seeded with SQL: 5,000 cases, a company and an individual each, where the matches of `%wonka%` sort after
 * 4,900 others by name (beyond the walk's budget) but come first by created_at.
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { walkBudget } from '../src/http/pattern-walk.ts';
import { type Client, getHarness, newWorkspace } from './helpers/harness.ts';

const CASES = 5000;
const ZETAS = 100; // 'Zeta Wonka …': the last by name, the first by created_at

describe('lists filtered by a pattern: the page of the plain query, however it is read', () => {
  let api: Client;
  let db: Awaited<ReturnType<typeof getHarness>>['ctx']['db'];

  /** The ids of the page as the plain query orders and filters it. */
  const plain = async (opts: {
    table: 'cases' | 'companies';
    pattern: string;
    order: 'name' | 'name desc' | 'created_at';
    status?: string;
    page?: number;
    limit?: number;
  }) => {
    const limit = opts.limit ?? 20;
    const offset = ((opts.page ?? 1) - 1) * limit;
    const dir = opts.order === 'name desc' ? sql`desc` : sql`asc`;
    const col = opts.order === 'created_at' ? sql.ref('created_at') : sql.ref('name');
    const status = opts.status ? sql`and status = ${opts.status}` : sql``;
    const table = sql.table(opts.table);
    const deleted =
      opts.table === 'cases'
        ? sql`and deleted_at is null`
        : sql`and exists (select 1 from cases c where c.id = case_id and c.deleted_at is null)`;
    const { rows } = await sql<{ id: string }>`
      select id from ${table} where workspace_id = ${api.workspaceId} and name ilike ${opts.pattern}
        ${status} ${deleted}
      order by ${col} ${dir}, id ${dir} limit ${limit} offset ${offset}`.execute(db);
    return rows.map((r) => r.id);
  };
  const ids = (body: { data: { id: string }[] }) => body.data.map((d) => d.id);
  const names = (body: { data: { name: string }[] }) => body.data.map((d) => d.name);

  before(async () => {
    api = await newWorkspace('pattern-walk');
    db = (await getHarness()).ctx.db;
    // 3 early matches ('Beta wonka …'), 4,897 'Alpha …', 100 'Zeta Wonka …' created first;
    // every fourth case open; one Zeta deleted
    await sql`
      insert into cases (id, workspace_id, name, status, created_at, updated_at, last_activity_at, deleted_at)
      select gen_random_uuid(), ${api.workspaceId},
        case when g <= 3 then 'Beta wonka ' || g
             when g > ${CASES - ZETAS} then 'Zeta Wonka ' || lpad(g::text, 5, '0')
             else 'Alpha ' || lpad(g::text, 5, '0') end,
        case when g % 4 = 0 then 'open' else 'draft' end,
        now() - make_interval(secs => g), now(), now(),
        case when g = ${CASES - 7} then now() end
      from generate_series(1, ${CASES}::int) g
    `.execute(db);
    await sql`
      insert into companies (id, workspace_id, case_id, type, name, created_at)
      select gen_random_uuid(), workspace_id, id, 'company', name || ' Holding', now() + (now() - created_at)
      from cases where workspace_id = ${api.workspaceId}
    `.execute(db);
    // companies created in the reverse order of their cases (the Zetas' last), one director per case
    // created with it, last name the case's name
    await sql`
      insert into individuals (id, workspace_id, case_id, first_name, last_name, created_at)
      select gen_random_uuid(), workspace_id, id, 'Director', name, created_at
      from cases where workspace_id = ${api.workspaceId}
    `.execute(db);
    await sql`analyze cases`.execute(db);
    await sql`analyze companies`.execute(db);
    await sql`analyze individuals`.execute(db);
  });

  test('the seed puts the matches beyond the walk, so the fallback is what answers', async () => {
    // the budget comes from the planner's cost of the fenced query (src/http/pattern-walk.ts)
    const plan = await sql<{ 'QUERY PLAN': unknown }>`
      explain (format json) select * from (
        select * from cases where workspace_id = ${api.workspaceId} and deleted_at is null
          and name ilike '%wonka%' offset 0) as cases
      order by name, id limit 20`.execute(db);
    const raw = plan.rows[0]['QUERY PLAN'];
    const cost = (typeof raw === 'string' ? JSON.parse(raw) : raw)[0].Plan['Total Cost'];
    const budget = walkBudget(cost, { page: 1, limit: 20 });
    assert.ok(budget < CASES - ZETAS - 3, `budget ${budget} (cost ${cost}): the Zetas must lie beyond it`);
  });

  test('matches beyond the walk (sort=name): the first pages, in order, with the total', async () => {
    const first = await api.get('/v1/cases?name.ilike=%25wonka%25&sort=name');
    assert.equal(first.status, 200, JSON.stringify(first.body));
    const expected = await plain({ table: 'cases', pattern: '%wonka%', order: 'name' });
    assert.equal(expected.length, 20);
    assert.deepEqual(ids(first.body), expected);
    assert.deepEqual(names(first.body).slice(0, 4), [
      'Beta wonka 1',
      'Beta wonka 2',
      'Beta wonka 3',
      'Zeta Wonka 04901',
    ]);
    assert.deepEqual(first.body.pagination, { page: 1, limit: 20, count: 102 });

    const third = await api.get('/v1/cases?name.ilike=%25wonka%25&sort=name&page=3&limit=40');
    assert.deepEqual(
      ids(third.body),
      await plain({ table: 'cases', pattern: '%wonka%', order: 'name', page: 3, limit: 40 }),
    );
    assert.equal(third.body.data.length, 22, 'the last page: 102 - 80');
    assert.deepEqual(third.body.pagination, { page: 3, limit: 40, count: 102 });
    const past = await api.get('/v1/cases?name.ilike=%25wonka%25&sort=name&page=4&limit=40');
    assert.deepEqual(past.body.data, []);
  });

  test('matches at the start of the order (sort=name.desc, default): the walk fills the page', async () => {
    for (const [query, order] of [
      ['sort=name.desc', 'name desc'],
      ['', 'created_at'],
    ] as const) {
      const res = await api.get(`/v1/cases?name.ilike=%25WONKA%25&${query}`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(ids(res.body), await plain({ table: 'cases', pattern: '%WONKA%', order }), query);
      assert.equal(res.body.data.length, 20);
      assert.ok(res.body.data.every((c: { name: string }) => /wonka/i.test(c.name)));
    }
    // `like` is case-sensitive: 'Beta wonka' does not match
    const like = await api.get('/v1/cases?name.like=%25Wonka%25&sort=name&limit=5');
    assert.deepEqual(names(like.body), [
      'Zeta Wonka 04901',
      'Zeta Wonka 04902',
      'Zeta Wonka 04903',
      'Zeta Wonka 04904',
      'Zeta Wonka 04905',
    ]);
  });

  test('with another filter, a rare pattern, no match, and many matches', async () => {
    const open = await api.get('/v1/cases?name.ilike=%25wonka%25&status=open&sort=name');
    assert.deepEqual(
      ids(open.body),
      await plain({ table: 'cases', pattern: '%wonka%', order: 'name', status: 'open' }),
    );
    assert.ok(open.body.data.every((c: { status: string }) => c.status === 'open'));
    assert.deepEqual(open.body.pagination, { page: 1, limit: 20, count: 25 });

    const one = await api.get('/v1/cases?name.ilike=%25wonka%2004999%25&sort=name');
    assert.deepEqual(names(one.body), ['Zeta Wonka 04999']);
    assert.deepEqual(one.body.pagination, { page: 1, limit: 20, count: 1 });

    const deleted = await api.get(`/v1/cases?name.ilike=%25wonka%200${CASES - 7}%25`);
    assert.deepEqual(deleted.body, { data: [], pagination: { page: 1, limit: 20, count: 0 } });

    const none = await api.get('/v1/cases?name.ilike=%25nobody%25&sort=name');
    assert.deepEqual(none.body, { data: [], pagination: { page: 1, limit: 20, count: 0 } });

    const many = await api.get('/v1/cases?name.ilike=alpha%25&sort=name.desc&limit=3');
    assert.deepEqual(names(many.body), ['Alpha 04900', 'Alpha 04899', 'Alpha 04898']);
    assert.equal(many.body.pagination.count_estimated, true, JSON.stringify(many.body.pagination));
    const exact = await api.get('/v1/cases?name.ilike=alpha%25&sort=name.desc&limit=3&count=exact');
    assert.deepEqual(exact.body.pagination, { page: 1, limit: 3, count: CASES - ZETAS - 3 });
  });

  test('companies and individuals (joined to their case), in created_at order: the same pages', async () => {
    // the Zetas' companies were created last: beyond the walk of companies_ws_created_dates
    const companies = await api.get('/v1/companies?name.ilike=%25wonka%25');
    assert.equal(companies.status, 200, JSON.stringify(companies.body));
    assert.deepEqual(
      ids(companies.body),
      await plain({ table: 'companies', pattern: '%wonka%', order: 'created_at' }),
    );
    assert.deepEqual(names(companies.body).slice(2, 5), [
      'Beta wonka 3 Holding',
      'Zeta Wonka 04901 Holding',
      'Zeta Wonka 04902 Holding',
    ]);
    assert.deepEqual(companies.body.pagination, { page: 1, limit: 20, count: 102 });
    // the Zetas' directors were created first: the walk fills the page
    const directors = await api.get('/v1/individuals?last_name.ilike=%25wonka%25&limit=5');
    assert.deepEqual(
      directors.body.data.map((i: { last_name: string }) => i.last_name),
      ['Zeta Wonka 05000', 'Zeta Wonka 04999', 'Zeta Wonka 04998', 'Zeta Wonka 04997', 'Zeta Wonka 04996'],
    );
  });

  test('companies sorted by name (companies_ws_name_dates): the same pages', async () => {
    const first = await api.get('/v1/companies?name.ilike=%25wonka%25&sort=name');
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.deepEqual(ids(first.body), await plain({ table: 'companies', pattern: '%wonka%', order: 'name' }));
    assert.equal(first.body.data[3].name, 'Zeta Wonka 04901 Holding');
    assert.deepEqual(first.body.pagination, { page: 1, limit: 20, count: 102 });
    const second = await api.get('/v1/companies?name.ilike=%25wonka%25&sort=name&page=2');
    assert.deepEqual(
      ids(second.body),
      await plain({ table: 'companies', pattern: '%wonka%', order: 'name', page: 2 }),
    );
  });

  test('individuals (joined to their case): the same pages', async () => {
    const { rows } = await sql<{ id: string }>`
      select i.id from individuals i join cases c on c.id = i.case_id
      where i.workspace_id = ${api.workspaceId} and c.deleted_at is null and i.last_name ilike '%wonka%'
      order by i.last_name, i.id limit 20 offset 20`.execute(db);
    const second = await api.get('/v1/individuals?last_name.ilike=%25wonka%25&sort=last_name&page=2');
    assert.equal(second.status, 200, JSON.stringify(second.body));
    assert.deepEqual(
      ids(second.body),
      rows.map((r) => r.id),
    );
    assert.equal(second.body.data.length, 20);
    assert.deepEqual(second.body.pagination, { page: 2, limit: 20, count: 102 });
  });

  test('another workspace sees none of it', async () => {
    const other = await newWorkspace('pattern-walk-other');
    for (const path of ['/v1/cases?name', '/v1/companies?name', '/v1/individuals?last_name']) {
      const res = await other.get(`${path}.ilike=%25wonka%25`);
      assert.deepEqual(res.body, { data: [], pagination: { page: 1, limit: 20, count: 0 } }, path);
    }
  });
});

describe('pattern syntax: the backslash escapes, and may not be left unpaired at the end', () => {
  test('an unpaired trailing backslash is a 400 naming the filter, on every list that takes patterns', async () => {
    const api = await newWorkspace('pattern-escape');
    const { ctx } = await getHarness();
    // a case to compare the pattern with: PostgreSQL refuses the pattern only when it reaches its end
    await sql`
      insert into cases (id, workspace_id, name, status)
      values (gen_random_uuid(), ${api.workspaceId}, 'a', 'draft')`.execute(ctx.db);
    for (const query of [
      '/v1/cases?name.ilike=%5C',
      '/v1/cases?name.like=%25%5C',
      '/v1/cases?name.ilike=a%5C%5C%5C',
      '/v1/companies?name.like=%5C',
      '/v1/individuals?last_name.ilike=%5C',
      '/v1/audit-log?action.like=%5C',
      '/v1/tags?label.like=x%5C',
    ]) {
      const res = await api.get(query);
      assert.equal(res.status, 400, `${query}: ${JSON.stringify(res.body)}`);
      const field = decodeURIComponent(query.slice(query.indexOf('?') + 1).split('=')[0]);
      assert.match(
        res.body.message,
        new RegExp(`^${field.replace('.', '\\.')} must not end with an unpaired backslash`),
      );
      assert.deepEqual(
        res.body.details.map((d: { path: string }) => d.path),
        [field],
      );
    }
  });

  test('an escaped backslash or wildcard matches itself', async () => {
    const api = await newWorkspace('pattern-literal');
    const { ctx } = await getHarness();
    await sql`
      insert into cases (id, workspace_id, name, status)
      values (gen_random_uuid(), ${api.workspaceId}, '100% Sure Ltd', 'draft'),
             (gen_random_uuid(), ${api.workspaceId}, '1000 Sure Ltd', 'draft'),
             (gen_random_uuid(), ${api.workspaceId}, 'Back\\slash AB', 'draft')`.execute(ctx.db);
    const names = async (pattern: string) =>
      (await api.get(`/v1/cases?name.like=${encodeURIComponent(pattern)}&sort=name`)).body.data.map(
        (c: { name: string }) => c.name,
      );
    assert.deepEqual(await names('100%'), ['100% Sure Ltd', '1000 Sure Ltd']);
    assert.deepEqual(await names('100\\%%'), ['100% Sure Ltd']);
    assert.deepEqual(await names('%\\\\%'), ['Back\\slash AB']);
    assert.deepEqual(await names('%k\\\\'), []);
  });
});
