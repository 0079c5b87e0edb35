import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sql } from 'kysely';
import { type Client, getHarness, newWorkspace, sampleCaseBody } from './helpers/harness.ts';

/**
 * A write that changes no stored value (the value already there, an empty PATCH) records no event
 * (no activity, no webhook outbox row) and leaves updated_at and last_activity_at as they were; it
 * answers 200 with the resource as it is. A real change still records exactly one event.
 */

/** What a no-op must not move: the workspace's outbox, its activities, and the stored stamps. */
async function snapshot(
  api: Client,
  table: 'cases' | 'companies' | 'individuals' | 'relations' | 'webhooks',
) {
  const { ctx } = await getHarness();
  const events = await ctx.db
    .selectFrom('events')
    .select(['seq', 'sub_event'])
    .where('workspace_id', '=', api.workspaceId)
    .orderBy('seq')
    .execute();
  const activities = await api.get('/v1/activities?limit=100');
  assert.equal(activities.status, 200);
  // microseconds, as stored: the API's milliseconds could hide a second stamp in the same millisecond
  const stamps = await ctx.db
    .selectFrom(table)
    .select([
      'id',
      sql<string>`updated_at::text`.as('updated_at'),
      ...(table === 'relations' || table === 'webhooks'
        ? []
        : [sql<string>`last_activity_at::text`.as('last_activity_at')]),
    ])
    .where('workspace_id', '=', api.workspaceId)
    .orderBy('id')
    .execute();
  const cases = await ctx.db
    .selectFrom('cases')
    .select(['id', sql<string>`last_activity_at::text`.as('last_activity_at')])
    .where('workspace_id', '=', api.workspaceId)
    .execute();
  return { events, activities: activities.body.data.length, stamps, cases };
}

async function assertNoop(api: Client, table: Parameters<typeof snapshot>[1], write: () => Promise<unknown>) {
  const before = await snapshot(api, table);
  await write();
  const after = await snapshot(api, table);
  assert.deepEqual(after.events, before.events, 'no event in the outbox');
  assert.equal(after.activities, before.activities, 'no activity');
  assert.deepEqual(after.stamps, before.stamps, `${table}: updated_at and last_activity_at unchanged`);
  assert.deepEqual(after.cases, before.cases, "the case's last_activity_at unchanged");
}

async function newEvents(api: Client, write: () => Promise<unknown>) {
  const before = await snapshot(api, 'cases');
  await write();
  const after = await snapshot(api, 'cases');
  assert.equal(after.activities, before.activities + 1, 'one activity');
  return after.events.slice(before.events.length).map((e) => e.sub_event);
}

describe('writes that change nothing record nothing', () => {
  test('companies: set-relevant to the value it has, a PATCH with its values, an empty PATCH', async () => {
    const api = await newWorkspace();
    const c = (await api.post('/v1/cases', sampleCaseBody())).body;
    const aff = c.companies.find((co: { type: string }) => co.type === 'affiliated');
    const url = `/v1/companies/${aff.id}`;
    const stored = (await api.get(url)).body;

    for (const [path, body] of [
      [`${url}/set-relevant`, { is_relevant: true }],
      [url, { name: aff.name, country: aff.country, address: { country: aff.address.country } }],
      [url, {}],
      [url, { address: {} }],
    ] as const) {
      await assertNoop(api, 'companies', async () => {
        const res = path === url ? await api.patch(path, body) : await api.post(path, body);
        assert.equal(res.status, 200, JSON.stringify(res.body));
        assert.deepEqual(res.body, stored, `${path} ${JSON.stringify(body)} answers the company as it is`);
      });
    }

    // a real change: exactly one event, and the stamps move
    assert.deepEqual(
      await newEvents(api, async () =>
        assert.equal((await api.post(`${url}/set-relevant`, { is_relevant: false })).status, 200),
      ),
      ['Company.MarkedAsNotRelevant'],
    );
    assert.deepEqual(
      await newEvents(api, async () => assert.equal((await api.patch(url, { name: 'Renamed' })).status, 200)),
      ['Company.InfoUpdated'],
    );
    const renamed = (await api.get(url)).body;
    assert.notEqual(renamed.updated_at, stored.updated_at);
    // and not relevant again: a no-op too
    await assertNoop(api, 'companies', async () => {
      const res = await api.post(`${url}/set-relevant`, { is_relevant: false });
      assert.equal(res.status, 200);
      assert.equal(res.body.is_relevant, false);
    });
  });

  test('individuals: set-relevant, a PATCH with its values, an empty PATCH', async () => {
    const api = await newWorkspace();
    const c = (await api.post('/v1/cases', sampleCaseBody())).body;
    const person = c.individuals[0];
    const url = `/v1/individuals/${person.id}`;
    const stored = (await api.get(url)).body;
    for (const [path, body] of [
      [`${url}/set-relevant`, { is_relevant: true }],
      [url, { first_name: person.first_name, last_name: person.last_name, roles: person.roles }],
      [url, {}],
    ] as const) {
      await assertNoop(api, 'individuals', async () => {
        const res = path === url ? await api.patch(path, body) : await api.post(path, body);
        assert.equal(res.status, 200, JSON.stringify(res.body));
        assert.deepEqual(res.body, stored);
      });
    }
    assert.deepEqual(
      await newEvents(api, async () =>
        assert.equal((await api.patch(url, { first_name: 'Other' })).status, 200),
      ),
      ['Individual.InfoUpdated'],
    );
  });

  test('cases: a PATCH with its values or an empty one; relations: the same', async () => {
    const api = await newWorkspace();
    const c = (await api.post('/v1/cases', { ...sampleCaseBody('noop-1'), tags: ['vip'] })).body;
    const url = `/v1/cases/${c.id}`;
    const stored = (await api.patch(url, {})).body;
    for (const body of [{}, { name: c.name, external_id: 'noop-1', status: c.status, tags: ['vip'] }]) {
      await assertNoop(api, 'cases', async () => {
        const res = await api.patch(url, body);
        assert.equal(res.status, 200, JSON.stringify(res.body));
        assert.deepEqual(res.body, stored);
      });
    }
    assert.deepEqual(
      await newEvents(api, async () =>
        assert.equal((await api.patch(url, { name: 'New name' })).status, 200),
      ),
      ['Case.InfoUpdated'],
    );

    const detailed = (await api.get(url)).body;
    const rel = detailed.companies.find((co: { type: string }) => co.type === 'affiliated').relations[0];
    const relUrl = `/v1/cases/${c.id}/relations/${rel.id}`;
    for (const body of [{}, { roles: rel.roles, ownership_percentage: rel.ownership_percentage }]) {
      await assertNoop(api, 'relations', async () => {
        const res = await api.patch(relUrl, body);
        assert.equal(res.status, 200, JSON.stringify(res.body));
        assert.equal(res.body.updated_at, rel.updated_at);
        assert.deepEqual(res.body.roles, rel.roles);
      });
    }
    assert.deepEqual(
      await newEvents(api, async () =>
        assert.equal((await api.patch(relUrl, { position: 'Chair' })).status, 200),
      ),
      ['Case.RelationsUpdated'],
    );
  });

  test('webhooks: a PATCH with its values leaves updated_at; a change moves it', async () => {
    const api = await newWorkspace();
    const hook = (
      await api.post('/v1/webhooks', { url: 'https://example.com/hook', events: ['*'], name: 'h' })
    ).body;
    const url = `/v1/webhooks/${hook.id}`;
    for (const body of [
      {},
      { name: 'h', url: 'https://example.com/hook', events: ['*'], status: hook.status },
    ]) {
      await assertNoop(api, 'webhooks', async () => {
        const res = await api.patch(url, body);
        assert.equal(res.status, 200, JSON.stringify(res.body));
        assert.equal(res.body.updated_at, hook.updated_at);
      });
    }
    const before = await snapshot(api, 'webhooks');
    assert.equal((await api.patch(url, { name: 'renamed' })).status, 200);
    assert.notDeepEqual((await snapshot(api, 'webhooks')).stamps, before.stamps);
  });
});
