/**
 * `pagination.count` of the lists (src/http/list-query.ts fetchPage): exact up to 1,000 matching
 * items, the database's estimate above that with `count_estimated: true`, exact always with
 * `count=exact`; a page that is not full proves the total. Seeded with SQL: 1,550 cases.
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { CountEstimates, countEstimates } from '../src/http/count-estimates.ts';
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

  test('an empty page past the end gives the exact total, never (page - 1) × limit', async () => {
    // walk: page=100&limit=100 of 2,982 cases answered count 9,900, page=2147483647 214,748,364,600
    for (const cold of [true, false]) {
      // cold: the capped count runs with the page; warm: the estimate kept by the request before
      if (cold) countEstimates.clear();
      else assert.equal((await api.get('/v1/cases?limit=100')).body.pagination.count_estimated, true);
      for (const page of [17, 100, 1000, 2147483647]) {
        const res = await api.get(`/v1/cases?limit=100&page=${page}`);
        assert.equal(res.status, 200, JSON.stringify(res.body));
        assert.deepEqual(res.body.data, []);
        assert.deepEqual(
          res.body.pagination,
          { page, limit: 100, count: TOTAL },
          `page ${page}, cold ${cold}`,
        );
      }
      // filtered past 1,000 (1,240 drafts): that filter's own total
      const drafts = await api.get('/v1/cases?status=draft&limit=50&page=300');
      assert.deepEqual(drafts.body.pagination, { page: 300, limit: 50, count: TOTAL - 310 });
    }
    // the other estimating lists share the code: an empty page past the end of the activities
    const activities = await api.get('/v1/activities?limit=100&page=5000');
    assert.equal(activities.status, 200, JSON.stringify(activities.body));
    assert.equal(activities.body.pagination.count_estimated, undefined);
    assert.ok(activities.body.pagination.count < 5000 * 100, JSON.stringify(activities.body.pagination));
  });

  test('an estimate below the truth never ends a paging export early: a full page counts one more item', async () => {
    // A client written for the reference pages until it holds `count` items (the reference's count
    // is exact). The planner's estimate can be far below the truth (PGlite never analyzes by itself;
    // here: an estimate kept from before 1,100 more cases arrived): each full page must then still
    // announce more than it has shown, or the export stops with cases missing.
    const pager = await newWorkspace('counts-pager');
    const { ctx } = await getHarness();
    const seed = (n: number, offset: number) =>
      sql`
      insert into cases (id, workspace_id, name, status, created_at, updated_at, last_activity_at)
      select gen_random_uuid(), ${pager.workspaceId}, 'Pager ' || g, 'draft', now(), now(), now()
      from generate_series(${offset + 1}::int, ${offset + n}::int) g
    `.execute(ctx.db);
    await seed(1100, 0);
    await sql`analyze cases`.execute(ctx.db);
    const ttl = countEstimates.ttlMs;
    countEstimates.ttlMs = 600_000;
    try {
      countEstimates.clear();
      const first = await pager.get('/v1/cases?limit=100');
      assert.equal(first.body.pagination.count_estimated, true, JSON.stringify(first.body.pagination));
      assert.ok(first.body.pagination.count < 1800, `estimate ${first.body.pagination.count}`);
      await seed(1100, 1100);
      const ids = new Set<string>();
      let page = 0;
      let count = Number.POSITIVE_INFINITY;
      while (ids.size < count && page < 40) {
        page += 1;
        const res = await pager.get(`/v1/cases?limit=100&page=${page}`);
        assert.equal(res.status, 200, JSON.stringify(res.body));
        for (const c of res.body.data as { id: string }[]) ids.add(c.id);
        count = res.body.pagination.count;
        if (res.body.data.length === 100)
          assert.ok(
            count > ids.size,
            `page ${page}: count ${count} with ${ids.size} items shown and a full page`,
          );
      }
      assert.equal(ids.size, 2200, `the export read ${ids.size} of 2,200 cases in ${page} pages`);
      assert.equal(count, 2200, 'the last page proves the total');
    } finally {
      countEstimates.ttlMs = ttl;
    }
  });

  test('a planner without statistics of the rows is no estimate: the list is counted', async () => {
    // walk: 1,100 cases created since the last ANALYZE (a server with autovacuum off) gave
    // `count: 1001`, and a client computing its pages from it read 11 of 12
    const fresh = await newWorkspace('counts-unanalyzed');
    const { ctx } = await getHarness();
    await sql`
      insert into cases (id, workspace_id, name, status, created_at, updated_at, last_activity_at)
      select gen_random_uuid(), ${fresh.workspaceId}, 'Fresh ' || g, 'draft', now(), now(), now()
      from generate_series(1, 1100) g
    `.execute(ctx.db);
    countEstimates.clear();
    const first = await fresh.get('/v1/cases?limit=100');
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.deepEqual(first.body.pagination, { page: 1, limit: 100, count: 1100, count_estimated: true });
    // kept as the query's estimate: the next page does not count again
    const second = await fresh.get('/v1/cases?limit=100&page=2');
    assert.equal(second.body.pagination.count, 1100);
    // its last page is full: the count it gives is the one counted, not one more
    const last = await fresh.get('/v1/cases?limit=100&page=11');
    assert.equal(last.body.data.length, 100);
    assert.equal(last.body.pagination.count, 1100);
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

  test('GET /v1/case-counts: exact figures while few cases match, whatever count asks', async () => {
    // 1,550 cases match (under EXACT_CASE_COUNTS_BELOW): the drafts' 1,240 is exact, not estimated
    const expected = { all: TOTAL, draft: TOTAL - 310, open: 310, approved: 0, rejected: 0, closed: 0 };
    for (const q of ['', '?count=auto', '?count=exact']) {
      const res = await api.get(`/v1/case-counts${q}`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(res.body, expected, q);
    }
    // 516 vip: 103 open, 413 drafts
    const vip = await api.get('/v1/case-counts?tags=vip');
    assert.deepEqual(vip.body, { all: 516, draft: 413, open: 103, approved: 0, rejected: 0, closed: 0 });
    const bad = await api.get('/v1/case-counts?count=estimated');
    assert.equal(bad.status, 400, JSON.stringify(bad.body));
    assert.match(bad.body.message, /count/);
  });

  test('GET /v1/case-counts over many cases: a status past 1,000 is estimated and named in `estimated` with all; count=exact counts it', async () => {
    const many = await newWorkspace('counts-many');
    const { ctx } = await getHarness();
    // 12,000 cases (over EXACT_CASE_COUNTS_BELOW): 11,400 drafts, 600 open
    await sql`
      insert into cases (id, workspace_id, name, status, created_at, updated_at, last_activity_at)
      select gen_random_uuid(), ${many.workspaceId}, 'Many ' || g,
        case when g % 20 = 0 then 'open' else 'draft' end, now(), now(), now()
      from generate_series(1, 12000) g
    `.execute(ctx.db);
    await sql`analyze cases`.execute(ctx.db);
    countEstimates.clear();
    const auto = await many.get('/v1/case-counts');
    assert.equal(auto.status, 200, JSON.stringify(auto.body));
    assert.equal(auto.body.open, 600, 'a status under 1,000 is exact');
    assert.deepEqual([auto.body.approved, auto.body.rejected, auto.body.closed], [0, 0, 0]);
    assert.ok(auto.body.draft > 1000, `draft estimate ${auto.body.draft}`);
    // the planner's estimate after ANALYZE is close to the truth
    assert.ok(Math.abs(auto.body.draft - 11400) < 11400 * 0.2, `draft estimate ${auto.body.draft}`);
    assert.equal(auto.body.all, auto.body.draft + 600, 'all is the sum of the statuses');
    assert.deepEqual(auto.body.estimated, ['all', 'draft']);

    const exact = await many.get('/v1/case-counts?count=exact');
    assert.equal(exact.status, 200, JSON.stringify(exact.body));
    assert.deepEqual(exact.body, {
      all: 12000,
      draft: 11400,
      open: 600,
      approved: 0,
      rejected: 0,
      closed: 0,
    });
    // a filter few cases match: exact again (3,112 named "Many 1…": 156 open, 2,956 drafts)
    const named = await many.get('/v1/case-counts?name.like=Many%201%25');
    assert.equal(named.status, 200, JSON.stringify(named.body));
    assert.deepEqual(named.body, { all: 3112, draft: 2956, open: 156, approved: 0, rejected: 0, closed: 0 });
  });

  test('other lists take the parameter too (companies, individuals, checks)', async () => {
    for (const path of ['/v1/companies', '/v1/individuals', '/v1/checks']) {
      const res = await api.get(`${path}?count=exact`);
      assert.equal(res.status, 200, `${path}: ${JSON.stringify(res.body)}`);
      assert.deepEqual(res.body.pagination, { page: 1, limit: 20, count: 0 });
      assert.equal((await api.get(`${path}?count=nope`)).status, 400);
    }
  });

  test('concurrent requests of a list no estimate is kept for: one capped count, its estimate shared; under the cap each counts exactly', async () => {
    const { ctx } = await getHarness();
    // the capped counts the lists run, seen on the harness's database object the routes use
    const capped: string[] = [];
    const executeQuery = ctx.db.executeQuery;
    ctx.db.executeQuery = function (this: typeof ctx.db, query: Parameters<typeof executeQuery>[0]) {
      const text = 'sql' in query ? query.sql : query.compile().sql;
      if (text.startsWith('select count(*)::int as n from (')) capped.push(text);
      return executeQuery.call(this, query as never);
    } as typeof executeQuery;
    try {
      countEstimates.clear();
      const cold = await Promise.all(Array.from({ length: 8 }, () => api.get('/v1/cases?limit=7&sort=name')));
      assert.deepEqual(
        cold.map((r) => r.status),
        Array(8).fill(200),
      );
      const counts = new Set(cold.map((r) => r.body.pagination.count));
      assert.equal(counts.size, 1, `one estimate for all: ${[...counts]}`);
      assert.ok(cold.every((r) => r.body.pagination.count_estimated === true));
      assert.ok((cold[0]?.body.pagination.count as number) > 1000);
      assert.equal(capped.length, 1, `capped counts run: ${capped.length}`);

      // under the cap (310 open cases): an exact total is never shared, every request counts its own
      capped.length = 0;
      countEstimates.clear();
      const small = await Promise.all(
        Array.from({ length: 4 }, () => api.get('/v1/cases?status=open&limit=7')),
      );
      for (const r of small) assert.deepEqual(r.body.pagination, { page: 1, limit: 7, count: 310 });
      assert.equal(capped.length, 4);
    } finally {
      ctx.db.executeQuery = executeQuery;
    }
  });

  test('an estimate is reused for the same filters for a few seconds; exact totals and other filters are not', async () => {
    const other = await newWorkspace('counts-estimate-reuse');
    const { ctx } = await getHarness();
    const seed = (n: number, offset: number) =>
      sql`
      insert into cases (id, workspace_id, name, status, created_at, updated_at, last_activity_at)
      select gen_random_uuid(), ${other.workspaceId}, 'Reuse ' || g, 'draft', now(), now(), now()
      from generate_series(${offset + 1}::int, ${offset + n}::int) g
    `.execute(ctx.db);
    await seed(1500, 0);
    await sql`analyze cases`.execute(ctx.db);
    const ttl = countEstimates.ttlMs;
    countEstimates.ttlMs = 600_000;
    try {
      const first = await other.get('/v1/cases?limit=7');
      assert.equal(first.body.pagination.count_estimated, true, JSON.stringify(first.body.pagination));
      const estimate = first.body.pagination.count;

      await seed(3000, 1500);
      await sql`analyze cases`.execute(ctx.db);
      // the same filters (page and limit are not filters): the estimate of moments ago
      for (const path of ['/v1/cases?limit=7', '/v1/cases?limit=9&page=2']) {
        const again = await other.get(path);
        assert.equal(again.status, 200, JSON.stringify(again.body));
        assert.deepEqual(again.body.pagination.count, estimate, path);
        assert.equal(again.body.pagination.count_estimated, true);
      }
      // count=exact always counts; other filters are estimated afresh
      const exact = await other.get('/v1/cases?limit=7&count=exact');
      assert.equal(exact.body.pagination.count, 4500);
      const drafts = await other.get('/v1/cases?status=draft&limit=7');
      assert.ok(drafts.body.pagination.count > 3500, `fresh estimate ${drafts.body.pagination.count}`);
      // another workspace's identical filters are another query (its id is a parameter)
      assert.notEqual((await api.get('/v1/cases?limit=7')).body.pagination.count, estimate);

      countEstimates.clear();
      const fresh = await other.get('/v1/cases?limit=7');
      assert.ok(
        fresh.body.pagination.count > 3500,
        `estimate after the cache: ${fresh.body.pagination.count}`,
      );

      // the list shrinks under the cap: the estimate serves until it expires, then the count is exact
      // again and no estimate is kept
      await sql`delete from cases where workspace_id = ${other.workspaceId} and name not like 'Reuse 1__'`.execute(
        ctx.db,
      );
      const kept = await other.get('/v1/cases?limit=7');
      assert.equal(kept.body.pagination.count, fresh.body.pagination.count);
      countEstimates.ttlMs = 1;
      await new Promise((r) => setTimeout(r, 5));
      for (let i = 0; i < 2; i++) {
        const exact = await other.get('/v1/cases?limit=7');
        assert.deepEqual(exact.body.pagination, { page: 1, limit: 7, count: 100 }, `request ${i + 1}`);
      }
    } finally {
      countEstimates.ttlMs = ttl;
    }
  });
});

describe('the estimate cache', () => {
  test('forgets an entry after its TTL, evicts the oldest when full, keeps nothing with a TTL of 0', () => {
    let now = 0;
    const cache = new CountEstimates(1000, 2, () => now);
    cache.set('a', 5000);
    now = 999;
    assert.equal(cache.get('a'), 5000);
    now = 1000;
    assert.equal(cache.get('a'), undefined);

    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('c', 3);
    assert.equal(cache.get('a'), undefined, 'the oldest went when the third came');
    assert.equal(cache.get('b'), 2);
    assert.equal(cache.get('c'), 3);

    const off = new CountEstimates(0, 10, () => now);
    off.set('a', 1);
    assert.equal(off.get('a'), undefined);
    assert.equal(off.claim('a'), undefined);
  });

  test('past its TTL one request counts again while the others get the expired estimate, within a grace period', () => {
    let now = 0;
    const cache = new CountEstimates(1000, 10, () => now, 5000);
    cache.set('q', 5000);
    now = 500;
    assert.equal(cache.claim('q'), 5000, 'fresh');
    now = 1000;
    assert.equal(cache.claim('q'), undefined, 'the first request after the TTL counts');
    assert.equal(cache.claim('q'), 5000, 'the others meanwhile get the expired estimate');
    assert.equal(cache.claim('q'), 5000);
    assert.equal(cache.get('q'), undefined, 'get answers fresh estimates only');
    cache.set('q', 6000);
    cache.release('q');
    assert.equal(cache.claim('q'), 6000, 'counted again: fresh');

    // a count that failed, or ended with an exact total, releases its claim: the next request counts
    now = 2000;
    assert.equal(cache.claim('q'), undefined);
    cache.release('q');
    assert.equal(cache.claim('q'), undefined, 'released: the next request counts');
    cache.forget('q');
    assert.equal(cache.claim('q'), undefined, 'forgotten: no estimate to serve');
    assert.equal(cache.claim('q'), undefined);

    // past the grace period an expired estimate serves nobody
    cache.set('r', 7000);
    now = 2000 + 1000 + 5000;
    assert.equal(cache.claim('r'), undefined);
    assert.equal(cache.claim('r'), undefined, 'gone: every request counts');
  });

  test('a count in flight is shared with the requests that wait for it: its estimate, or undefined to count for themselves', async () => {
    const cache = new CountEstimates(1000, 10, () => 0);
    assert.equal(cache.countInFlight('q'), undefined, 'nothing counting');
    const end = cache.startCount('q');
    const waiting = cache.countInFlight('q');
    assert.ok(waiting, 'a request arriving now finds the count');
    end(4200);
    assert.equal(await waiting, 4200);
    assert.equal(cache.countInFlight('q'), undefined, 'ended: no longer in flight');

    // ended with an exact total or a failure: the waiting request is told to count
    const endExact = cache.startCount('q');
    const waitingExact = cache.countInFlight('q');
    endExact(undefined);
    assert.equal(await waitingExact, undefined);

    // a later count of the same query replaces the entry; the earlier one's end leaves it alone
    const endFirst = cache.startCount('r');
    const endSecond = cache.startCount('r');
    const second = cache.countInFlight('r');
    endFirst(1);
    assert.equal(cache.countInFlight('r'), second);
    endSecond(2);
    assert.equal(await second, 2);
    assert.equal(cache.countInFlight('r'), undefined);
  });
});
