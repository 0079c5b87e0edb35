import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sql } from 'kysely';
import { GRAPH_TIMESTAMP_COLUMNS } from '../src/cases/insert-graph.ts';
import { getHarness, newWorkspace, sampleCaseBody } from './helpers/harness.ts';

// POST /v1/cases writes the case, its companies, individuals and relations in one statement and
// reads the stored rows back as JSON (src/cases/insert-graph.ts); these tests hold it to what the
// tables and GET /v1/cases/{id} say.
describe('create case in one statement', () => {
  test('the timestamps revived from JSON are exactly the timestamptz columns of the four tables', async () => {
    const { ctx } = await getHarness();
    const { rows } = await sql<{ table_name: string; column_name: string }>`
      select table_name, column_name from information_schema.columns
      where table_schema = 'public' and data_type = 'timestamp with time zone'
        and table_name in ('cases', 'companies', 'individuals', 'relations')
      order by table_name, column_name`.execute(ctx.db);
    const actual: Record<string, string[]> = {};
    for (const r of rows) actual[r.table_name] = [...(actual[r.table_name] ?? []), r.column_name];
    assert.deepEqual(actual, GRAPH_TIMESTAMP_COLUMNS);
  });

  test('the 201 body is the case as GET returns it, its entities in the order of the request', async () => {
    const api = await newWorkspace();
    const created = await api.post('/v1/cases', {
      ...sampleCaseBody('one-statement'),
      tags: ['vip'],
      metadata: { source: 'test' },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const read = await api.get(`/v1/cases/${created.body.id}`);
    assert.equal(read.status, 200);
    // GET lists the entities by creation time then id (one transaction: by id); POST in request order
    const byId = (xs: { id: string }[]) => [...xs].sort((a, b) => a.id.localeCompare(b.id));
    assert.deepEqual(
      {
        ...created.body,
        companies: byId(created.body.companies),
        individuals: byId(created.body.individuals),
      },
      { ...read.body, companies: byId(read.body.companies), individuals: byId(read.body.individuals) },
    );
    // the request's order is kept
    const body = sampleCaseBody('x');
    assert.deepEqual(
      created.body.companies.map((c: { name: string }) => c.name),
      body.companies.map((c) => c.name),
    );
    assert.deepEqual(
      created.body.individuals.map((p: { last_name: string }) => p.last_name),
      body.individuals.map((p) => p.last_name),
    );
    // timestamps are ISO strings to the millisecond, as every other read gives them
    assert.match(created.body.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.match(created.body.companies[0].created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  test('a case alone, and a failing graph that leaves nothing behind', async () => {
    const api = await newWorkspace();
    const alone = await api.post('/v1/cases', { name: 'Just a case' });
    assert.equal(alone.status, 201, JSON.stringify(alone.body));
    assert.deepEqual(alone.body.companies, []);
    assert.deepEqual(alone.body.individuals, []);
    assert.deepEqual((await api.get(`/v1/cases/${alone.body.id}`)).body, alone.body);
    // the same external_id twice: the second statement fails as a whole
    const first = await api.post('/v1/cases', sampleCaseBody('dup'));
    assert.equal(first.status, 201);
    const second = await api.post('/v1/cases', sampleCaseBody('dup'));
    assert.equal(second.status, 409, JSON.stringify(second.body));
    assert.equal(second.body.code, 'CONFLICT');
    const { ctx } = await getHarness();
    const counts = await sql<{ cases: number; companies: number; individuals: number }>`
      select (select count(*)::int from cases where workspace_id = ${api.workspaceId}) as cases,
        (select count(*)::int from companies where workspace_id = ${api.workspaceId}) as companies,
        (select count(*)::int from individuals where workspace_id = ${api.workspaceId}) as individuals`.execute(
      ctx.db,
    );
    assert.deepEqual(counts.rows[0], { cases: 2, companies: 3, individuals: 3 });
  });
});
