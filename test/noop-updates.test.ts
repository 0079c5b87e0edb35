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

  test('webhooks: online given to an online webhook with a failing streak keeps the streak', async () => {
    const api = await newWorkspace();
    const { ctx } = await getHarness();
    const hook = (
      await api.post('/v1/webhooks', { url: 'https://example.com/hook', events: ['*'], name: 'h' })
    ).body;
    assert.equal(hook.status, 'online');
    const url = `/v1/webhooks/${hook.id}`;
    // deliveries failing for a while, not yet long enough to take it offline (src/webhooks/deliver.ts)
    const streakStart = new Date(Date.now() - 10 * 60_000);
    await ctx.db
      .updateTable('webhooks')
      .set({ failure_streak: 12, failure_streak_started_at: streakStart })
      .where('id', '=', hook.id)
      .execute();
    const streak = async () =>
      ctx.db
        .selectFrom('webhooks')
        .select(['status', 'failure_streak', sql<string>`failure_streak_started_at::text`.as('since')])
        .where('id', '=', hook.id)
        .executeTakeFirstOrThrow();
    const kept = await streak();
    const stored = (await api.get(url)).body;
    for (const body of [{ status: 'online' }, { name: 'h', status: 'online' }]) {
      await assertNoop(api, 'webhooks', async () => {
        const res = await api.patch(url, body);
        assert.equal(res.status, 200, JSON.stringify(res.body));
        assert.deepEqual(res.body, stored, `${JSON.stringify(body)} answers the webhook as it is`);
      });
      assert.deepEqual((await api.get(url)).body, stored);
      assert.deepEqual(await streak(), kept, `${JSON.stringify(body)}: the failing streak is kept`);
    }
    // offline, then online again: that is the change that clears the streak
    const off = await api.patch(url, { status: 'offline' });
    assert.equal(off.status, 200, JSON.stringify(off.body));
    assert.equal(off.body.status, 'offline');
    assert.equal((await streak()).failure_streak, 12, 'going offline keeps the streak');
    const on = await api.patch(url, { status: 'online' });
    assert.equal(on.status, 200, JSON.stringify(on.body));
    assert.equal(on.body.status, 'online');
    assert.notEqual(on.body.updated_at, stored.updated_at);
    assert.deepEqual(await streak(), { status: 'online', failure_streak: 0, since: null });
  });
});

/** The stored updated_at of one row, in microseconds (the API's milliseconds could hide a stamp). */
async function updatedAt(table: 'client_portals' | 'templates' | 'workspaces', id: string) {
  const { ctx } = await getHarness();
  const row = await ctx.db
    .selectFrom(table)
    .select(sql<string>`updated_at::text`.as('updated_at'))
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return row.updated_at;
}

/** The audit entries of the workspace, newest first: a no-op is still a write someone made. */
async function auditEntries(api: Client) {
  const res = await api.get('/v1/audit-log?limit=100');
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.data.map((e: { action: string; status_code: number }) => [e.action, e.status_code]);
}

describe('other updates that change nothing leave updated_at', () => {
  test('client portals: a PATCH with its values or an empty one; a change moves updated_at', async () => {
    const api = await newWorkspace();
    const portal = (await api.get('/v1/client-portals')).body.data[0];
    const url = `/v1/client-portals/${portal.id}`;
    const first = await api.patch(url, {
      accent_color: '#AA3300',
      wait_steps: [{ key: 'docs', title: 'Documents' }],
    });
    assert.equal(first.status, 200, JSON.stringify(first.body));
    const stored = first.body;
    const stamp = await updatedAt('client_portals', portal.id);
    const audited = (await auditEntries(api)).length;
    for (const body of [
      {},
      {
        name: stored.name,
        status: stored.status,
        default_language: stored.default_language,
        accent_color: '#aa3300',
        wait_steps: [{ key: 'docs', title: 'Documents' }],
        logo_upload_ref: null,
      },
    ]) {
      const res = await api.patch(url, body);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(res.body, stored, `${JSON.stringify(body)} answers the portal as it is`);
      assert.equal(await updatedAt('client_portals', portal.id), stamp, JSON.stringify(body));
    }
    // the audit log still has each request (every write is recorded, whatever it changed)
    const entries = await auditEntries(api);
    assert.equal(entries.length, audited + 2);
    assert.deepEqual(entries[0], ['client_portal.update', 200]);
    const renamed = await api.patch(url, { name: 'Renamed portal' });
    assert.equal(renamed.status, 200);
    assert.notEqual(await updatedAt('client_portals', portal.id), stamp);
  });

  test('templates: a PATCH with its values; a change moves updated_at', async () => {
    const api = await newWorkspace();
    const created = await api.post('/v1/templates', {
      key: 'kyb',
      name: 'KYB',
      description: 'Company checks',
      case_auto_approval: true,
      checks: [{ type: 'online_reputation', targets: ['main_company'] }],
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const t = created.body;
    const url = `/v1/templates/${t.id}`;
    const stamp = await updatedAt('templates', t.id);
    // (an empty PATCH of a template is a 400: its body must name a field)
    for (const body of [
      { name: t.name },
      {
        key: t.key,
        name: t.name,
        description: t.description,
        case_auto_approval: t.case_auto_approval,
        checks: [{ type: 'online_reputation', targets: ['main_company'] }],
      },
    ]) {
      const res = await api.patch(url, body);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(res.body, t, `${JSON.stringify(body)} answers the template as it is`);
      assert.equal(await updatedAt('templates', t.id), stamp, JSON.stringify(body));
    }
    const changed = await api.patch(url, { description: 'Other' });
    assert.equal(changed.status, 200);
    assert.notEqual(changed.body.updated_at, t.updated_at);
    assert.notEqual(await updatedAt('templates', t.id), stamp);
  });

  test('workspace settings: PATCH or PUT giving the stored settings leaves the workspace as it is', async () => {
    const api = await newWorkspace();
    const put = await api.put('/v1/workspace/settings', { checks: { limit: 7 } });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    const stamp = await updatedAt('workspaces', api.workspaceId);
    for (const [method, body] of [
      ['patch', {}],
      ['patch', { checks: { limit: 7 } }],
      ['put', { checks: { limit: 7 } }],
    ] as const) {
      const res = await api[method]('/v1/workspace/settings', body);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(res.body, put.body);
      assert.equal(
        await updatedAt('workspaces', api.workspaceId),
        stamp,
        `${method} ${JSON.stringify(body)}`,
      );
    }
    assert.equal((await api.patch('/v1/workspace/settings', { checks: { limit: 8 } })).status, 200);
    assert.notEqual(await updatedAt('workspaces', api.workspaceId), stamp);
  });
});

describe('a PATCH repeating stored values', () => {
  test('marks as entered by the API only the fields whose value it changes', async () => {
    const api = await newWorkspace();
    const search = await api.get('/v1/company-data/search?country=FR&name=Acme');
    assert.equal(search.status, 200, JSON.stringify(search.body));
    const created = await api.post('/v1/cases', {
      name: 'Registry case',
      companies: [{ search_ref: search.body.data[0].search_ref }],
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const caseUrl = `/v1/cases/${created.body.id}?property_origin=true`;
    const main = (await api.get(caseUrl)).body.companies.find((c: { type: string }) => c.type === 'main');
    const origin = (lineage: Record<string, { sources: { origin: { type: string } }[] }>, path: string) =>
      lineage[path].sources[0].origin.type;
    for (const path of ['name', 'registration_number', 'address.city', 'address.postal_code'])
      assert.equal(origin(main.data_lineage, path), 'vendor', path);

    // the registry's name, city and postal code given again, a new registration number and street
    const patched = await api.patch(`/v1/companies/${main.id}`, {
      name: main.name,
      registration_number: 'NEW-123',
      address: {
        city: main.address.city,
        postal_code: main.address.postal_code,
        street_address: '1 rue Neuve',
      },
    });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    const after = (await api.get(caseUrl)).body.companies.find((c: { id: string }) => c.id === main.id);
    assert.equal(origin(after.data_lineage, 'registration_number'), 'api');
    assert.equal(origin(after.data_lineage, 'address.street_address'), 'api');
    for (const path of ['name', 'address.city', 'address.postal_code'])
      assert.equal(origin(after.data_lineage, path), 'vendor', `${path}: the same value keeps its origin`);
  });

  test('an address or bank details stored without some keys: giving them as presented changes nothing', async () => {
    const api = await newWorkspace();
    const c = (await api.post('/v1/cases', sampleCaseBody())).body;
    const aff = c.companies.find((co: { type: string }) => co.type === 'affiliated');
    const person = c.individuals[0];
    for (const url of [`/v1/companies/${aff.id}`, `/v1/individuals/${person.id}`]) {
      const res = await api.patch(url, { address: { city: 'Lyon', state: 'ARA', country: 'FR' } });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    }
    const { ctx } = await getHarness();
    // as a row written before every key was stored: the address lacks state and region, no bank details
    for (const table of ['companies', 'individuals'] as const) {
      await sql`update ${sql.table(table)} set address = address - 'state' - 'region', banking_information = null
        where workspace_id = ${api.workspaceId}`.execute(ctx.db);
    }
    for (const [table, url] of [
      ['companies', `/v1/companies/${aff.id}`],
      ['individuals', `/v1/individuals/${person.id}`],
    ] as const) {
      const stored = (await api.get(url)).body;
      assert.equal(stored.address.city, 'Lyon');
      assert.equal(stored.address.state, null);
      assert.deepEqual(stored.banking_information, { iban: null, bic: null });
      for (const body of [
        { address: stored.address },
        { address: { state: null, region: null } },
        { address: { city: 'Lyon', country: 'FR' } },
        { banking_information: { iban: null } },
        { banking_information: null },
      ]) {
        await assertNoop(api, table, async () => {
          const res = await api.patch(url, body);
          assert.equal(res.status, 200, JSON.stringify(res.body));
          assert.deepEqual(res.body, stored, `${url} ${JSON.stringify(body)} answers it as it is`);
        });
      }
      // a key given a value is a change
      const sub = table === 'companies' ? 'Company.InfoUpdated' : 'Individual.InfoUpdated';
      assert.deepEqual(
        await newEvents(api, async () =>
          assert.equal((await api.patch(url, { address: { state: 'Somewhere' } })).status, 200),
        ),
        [sub],
      );
    }
  });
});
