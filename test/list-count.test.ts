/**
 * `pagination.count` of the lists (src/http/list-query.ts fetchPage): exact up to 1,000 matching
 * items, the database's estimate above that with `count_estimated: true`, exact always with
 * `count=exact`; a page that is not full proves the total. Seeded with SQL: 1,550 cases.
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { type Client, getHarness, newWorkspace } from './helpers/harness.ts';

const TOTAL = 1550;

describe('list counts: exact, estimated above 1,000, count=exact', () => {
  let api: Client;
  before(async () => {
    api = await newWorkspace('counts-estimate');
    const { ctx } = await getHarness();
    // 1,550 cases: every fifth open (310), every third tagged vip
    await sql`
      insert into cases (id, workspace_id, name, status, tags, created_at, updated_at, last_activity_at)
      select gen_random_uuid(), ${api.workspaceId}, 'Seeded ' || lpad(g::text, 5, '0'),
        case when g % 5 = 0 then 'open' else 'draft' end,
        case when g % 3 = 0 then array['vip'] else array[]::text[] end,
        now() - make_interval(secs => g), now() - make_interval(secs => g), now() - make_interval(secs => g)
      from generate_series(1, ${TOTAL}) g
    `.execute(ctx.db);
    await sql`analyze cases`.execute(ctx.db);
  });

  test('up to 1,000 matching: exact, no count_estimated', async () => {
    const open = await api.get('/v1/cases?status=open&limit=5');
    assert.equal(open.status, 200, JSON.stringify(open.body));
    assert.deepEqual(open.body.pagination, { page: 1, limit: 5, count: 310 });
    const vipOpen = await api.get('/v1/cases?status=open&tags=vip');
    assert.deepEqual(vipOpen.body.pagination, { page: 1, limit: 20, count: 103 });
  });

  test('more than 1,000 matching: an estimate above 1,000, marked; count=exact gives the exact number', async () => {
    const all = await api.get('/v1/cases?limit=10');
    assert.equal(all.status, 200, JSON.stringify(all.body));
    assert.equal(all.body.data.length, 10);
    assert.equal(all.body.pagination.count_estimated, true);
    assert.ok(all.body.pagination.count > 1000, `estimate ${all.body.pagination.count}`);
    // the planner's estimate after ANALYZE is close to the truth
    assert.ok(
      Math.abs(all.body.pagination.count - TOTAL) < TOTAL * 0.2,
      `estimate ${all.body.pagination.count}`,
    );

    const exact = await api.get('/v1/cases?limit=10&count=exact');
    assert.equal(exact.status, 200, JSON.stringify(exact.body));
    assert.deepEqual(exact.body.pagination, { page: 1, limit: 10, count: TOTAL });
    assert.deepEqual(
      exact.body.data.map((c: { id: string }) => c.id),
      all.body.data.map((c: { id: string }) => c.id),
      'the count mode never changes the page',
    );
    const drafts = await api.get('/v1/cases?status=draft&count=exact&limit=1');
    assert.deepEqual(drafts.body.pagination, { page: 1, limit: 1, count: TOTAL - 310 });
  });

  test('the last, partly filled page proves the total: exact without count=exact', async () => {
    const last = await api.get('/v1/cases?limit=100&page=16');
    assert.equal(last.status, 200, JSON.stringify(last.body));
    assert.equal(last.body.data.length, 50);
    assert.deepEqual(last.body.pagination, { page: 16, limit: 100, count: TOTAL });
  });

  test('count must be auto or exact: 400 naming count', async () => {
    for (const bad of ['estimated', 'EXACT', '1', '']) {
      const res = await api.get(`/v1/cases?count=${bad}`);
      assert.equal(res.status, 400, `${bad}: ${JSON.stringify(res.body)}`);
      assert.match(res.body.message, /count/);
      assert.match(res.body.message, /auto, exact/, 'the message names the allowed values');
    }
    const twice = await api.get('/v1/cases?count=exact&count=auto');
    assert.equal(twice.status, 400);
  });

  test('other lists take the parameter too (companies, individuals, checks)', async () => {
    for (const path of ['/v1/companies', '/v1/individuals', '/v1/checks']) {
      const res = await api.get(`${path}?count=exact`);
      assert.equal(res.status, 200, `${path}: ${JSON.stringify(res.body)}`);
      assert.deepEqual(res.body.pagination, { page: 1, limit: 20, count: 0 });
      assert.equal((await api.get(`${path}?count=nope`)).status, 400);
    }
  });
});
