import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import pg from 'pg';
import { getHarness, newWorkspace, type Res } from './helpers/harness.ts';

/**
 * Conflicting writes to one resource, made to overlap for certain: a connection of the test holds
 * the row's lock while the requests start, and lets go only once every one of them waits for it
 * (PostgreSQL's own view of its backends, no timing). Each request has then read whatever it reads
 * before taking the lock; what it writes must still be based on what the others committed.
 * PostgreSQL only: the embedded database runs one statement at a time on one connection.
 */
const url = process.env.DATABASE_URL;

async function whileLocked(table: string, id: string, requests: (() => Promise<Res>)[]): Promise<Res[]> {
  const holder = new pg.Client({ connectionString: url });
  await holder.connect();
  try {
    await holder.query('begin');
    await holder.query(`select id from ${table} where id = $1 for update`, [id]);
    const { rows } = await holder.query('select pg_backend_pid() as pid');
    const running = requests.map((r) => r());
    for (;;) {
      const { rows: waiting } = await holder.query(
        `select count(*)::int as n from pg_locks where not granted and pid <> $1 and pid in
           (select pid from pg_stat_activity where datname = current_database())`,
        [rows[0].pid],
      );
      if (waiting[0].n >= requests.length) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    await holder.query('commit');
    return await Promise.all(running);
  } finally {
    await holder.end();
  }
}

/**
 * Runs `first` while the test holds `table`'s row `id`, then `second` once `first` waits for it;
 * lets go once `second` has finished or waits too. `first` has then read what it reads before
 * that lock, and `second` ran (or started) in between.
 */
async function aroundLocked(
  table: string,
  id: string,
  first: () => Promise<Res>,
  second: () => Promise<Res>,
): Promise<[Res, Res]> {
  const holder = new pg.Client({ connectionString: url });
  await holder.connect();
  const waiting = async () => {
    const { rows } = await holder.query(
      `select count(*)::int as n from pg_locks where not granted and pid <> pg_backend_pid() and pid in
         (select pid from pg_stat_activity where datname = current_database())`,
    );
    return rows[0].n as number;
  };
  try {
    await holder.query('begin');
    await holder.query(`select id from ${table} where id = $1 for update`, [id]);
    const one = first();
    while ((await waiting()) < 1) await new Promise((r) => setTimeout(r, 10));
    let done = false;
    const two = second().finally(() => {
      done = true;
    });
    while (!done && (await waiting()) < 2) await new Promise((r) => setTimeout(r, 10));
    await holder.query('commit');
    return [await one, await two];
  } finally {
    await holder.end();
  }
}

/** How many events of `type` (or of sub-event `type`) the case has. */
async function eventCount(caseId: string, type: string, column: 'type' | 'sub_event' = 'type') {
  const { ctx } = await getHarness();
  const rows = await ctx.db
    .selectFrom('events')
    .select('id')
    .where('case_id', '=', caseId)
    .where(column, '=', type)
    .execute();
  return rows.length;
}

describe('concurrent writes to one resource', { skip: !url && 'PostgreSQL only' }, () => {
  test('two PATCHes of a case: custom_properties merge both, one Case.StatusUpdated', async () => {
    const api = await newWorkspace();
    const c = (await api.post('/v1/cases', { name: 'x', companies: [{ name: 'Main' }] })).body;
    const res = await whileLocked('cases', c.id, [
      () => api.patch(`/v1/cases/${c.id}`, { custom_properties: { a: 'x' }, status: 'draft' }),
      () => api.patch(`/v1/cases/${c.id}`, { custom_properties: { b: 'y' }, status: 'draft' }),
    ]);
    assert.deepEqual(
      res.map((r) => r.status),
      [200, 200],
    );
    const got = (await api.get(`/v1/cases/${c.id}`)).body;
    assert.deepEqual(got.custom_properties, { a: 'x', b: 'y' });
    // the status changed once (open to draft): one event, not one per request
    const { ctx } = await getHarness();
    const events = await ctx.db
      .selectFrom('events')
      .select('sub_event')
      .where('case_id', '=', c.id)
      .where('sub_event', '=', 'Case.StatusUpdated')
      .execute();
    assert.equal(events.length, 1);
  });

  test('two PATCHes of an individual and of a company: the address keeps both parts', async () => {
    const api = await newWorkspace();
    const c = (
      await api.post('/v1/cases', {
        name: 'x',
        companies: [{ name: 'Main', address: { country: 'FR' } }],
        individuals: [{ first_name: 'A', last_name: 'B', address: { country: 'FR' }, relations: [{}] }],
      })
    ).body;
    const ind = c.individuals[0].id;
    const co = c.companies[0].id;
    for (const [table, path] of [
      ['cases', `/v1/individuals/${ind}`],
      ['cases', `/v1/companies/${co}`],
    ] as const) {
      const res = await whileLocked(table, c.id, [
        () => api.patch(path, { address: { city: 'Paris' } }),
        () => api.patch(path, { address: { postal_code: '75001' } }),
      ]);
      assert.deepEqual(
        res.map((r) => r.status),
        [200, 200],
      );
      const got = (await api.get(path)).body;
      assert.equal(got.address.city, 'Paris', path);
      assert.equal(got.address.postal_code, '75001', path);
      assert.equal(got.address.country, 'FR', path);
    }
  });

  test('two DELETEs of a company, of an individual: one 204, one 404, one Deleted event', async () => {
    const api = await newWorkspace();
    const c = (
      await api.post('/v1/cases', {
        name: 'x',
        companies: [{ name: 'Main' }, { name: 'Sub', type: 'affiliated', relations: [{}] }],
        individuals: [{ first_name: 'A', last_name: 'B', relations: [{}] }],
      })
    ).body;
    for (const [path, event] of [
      [`/v1/companies/${c.companies[1].id}`, 'Company.Deleted'],
      [`/v1/individuals/${c.individuals[0].id}`, 'Individual.Deleted'],
    ] as const) {
      // both have found the entity before the case's lock: the second must find it gone under it
      const res = await whileLocked('cases', c.id, [() => api.delete(path), () => api.delete(path)]);
      assert.deepEqual(res.map((r) => r.status).sort(), [204, 404], path);
      assert.equal(await eventCount(c.id, event), 1, path);
    }
  });

  test('two DELETEs of a case, soft then permanent: one 204, one 404, one Case.Deleted each time', async () => {
    const api = await newWorkspace();
    for (const query of ['', '?permanent=true']) {
      const c = (await api.post('/v1/cases', { name: `deleted twice${query}` })).body;
      // both have found the case before its lock: the second must find it gone under it
      const res = await whileLocked('cases', c.id, [
        () => api.delete(`/v1/cases/${c.id}${query}`),
        () => api.delete(`/v1/cases/${c.id}${query}`),
      ]);
      assert.deepEqual(res.map((r) => r.status).sort(), [204, 404], query);
      assert.equal(await eventCount(c.id, 'Case.Deleted'), 1, query);
    }
  });

  test('a check created while its target is deleted: a 201 or a 404 naming the target, never a 500', async () => {
    const api = await newWorkspace();
    const c = (
      await api.post('/v1/cases', {
        name: 'x',
        companies: [{ name: 'Main' }, { name: 'Sub', type: 'affiliated', relations: [{}] }],
        individuals: [{ first_name: 'A', last_name: 'B', relations: [{}] }],
      })
    ).body;
    for (const [path, body, field] of [
      [`/v1/individuals/${c.individuals[0].id}`, { individual_id: c.individuals[0].id }, 'individual_id'],
      [`/v1/companies/${c.companies[1].id}`, { company_id: c.companies[1].id }, 'company_id'],
    ] as const) {
      // the delete is asked first: whichever takes the case's lock first, the other must cope
      const [deleted, created] = await whileLocked('cases', c.id, [
        () => api.delete(path),
        () => api.post('/v1/checks/aml', body),
      ]);
      assert.equal(deleted.status, 204, JSON.stringify(deleted.body));
      assert.ok([201, 404].includes(created.status), JSON.stringify(created.body));
      if (created.status === 404) assert.equal(created.body.details[0].path, field);
      // either way no check is left on the deleted target
      const left = await api.get(`/v1/checks?case_id=${c.id}`);
      assert.equal(
        left.body.data.filter((k: Record<string, string>) => k[field] === body[field as keyof typeof body])
          .length,
        0,
      );
    }
  });

  test('two spellings of one new tag at once: one tag, created once, its spelling on both cases', async () => {
    const api = await newWorkspace();
    // POST /v1/tags: one 201, the other the CONFLICT a sequential second gets
    const made = await whileLocked('workspaces', api.workspaceId, [
      () => api.post('/v1/tags', { label: 'Same' }),
      () => api.post('/v1/tags', { label: 'same' }),
    ]);
    assert.deepEqual(made.map((r) => r.status).sort(), [201, 400]);
    assert.equal(made.find((r) => r.status === 400)?.body.code, 'CONFLICT');
    // tags named on cases create theirs: one tag, and both cases carry its spelling
    const a = (await api.post('/v1/cases', { name: 'a' })).body;
    const b = (await api.post('/v1/cases', { name: 'b' })).body;
    const added = await whileLocked('workspaces', api.workspaceId, [
      () => api.post(`/v1/cases/${a.id}/tags`, { tags: ['Vip'] }),
      () => api.post(`/v1/cases/${b.id}/tags`, { tags: ['VIP'] }),
    ]);
    for (const r of added) assert.ok(r.status < 300, JSON.stringify(r.body));
    const vips = (await api.get('/v1/tags?limit=100')).body.data.filter(
      (t: { label: string }) => t.label.toLowerCase() === 'vip',
    );
    assert.equal(vips.length, 1, JSON.stringify(vips));
    const labelsOf = async (id: string) =>
      (await api.get(`/v1/cases/${id}`)).body.tags.map((t: string | { label: string }) =>
        typeof t === 'string' ? t : t.label,
      );
    assert.deepEqual(await labelsOf(a.id), [vips[0].label]);
    assert.deepEqual(await labelsOf(b.id), [vips[0].label]);
    // the filter finds both, whatever the spelling asked
    assert.equal((await api.get('/v1/cases?tags=vip')).body.pagination.count, 2);
  });

  test('a tag renamed or deleted while a case is being given it: no case keeps a label no tag has', async () => {
    const api = await newWorkspace();
    const labelsOf = async (id: string) => (await api.get(`/v1/cases/${id}`)).body.tags as string[];
    const tagLabels = async () =>
      ((await api.get('/v1/tags?limit=100')).body.data as { label: string }[]).map((t) => t.label).sort();
    // POST /v1/cases/{id}/tags and PATCH /v1/cases/{id}
    const givers = {
      added: (id: string, tags: string[]) => api.post(`/v1/cases/${id}/tags`, { tags }),
      patched: (id: string, tags: string[]) => api.patch(`/v1/cases/${id}`, { tags }),
    };
    for (const [name, give] of Object.entries(givers)) {
      for (const change of ['rename', 'delete'] as const) {
        const label = `gold ${name} ${change}`;
        const tag = (await api.post('/v1/tags', { label })).body;
        assert.ok(tag.id, JSON.stringify(tag));
        const c = (await api.post('/v1/cases', { name: label })).body;
        // the giver reads the tag, then waits for the workspace's row to create a second one; the
        // rename or deletion of the tag comes in between
        const [given, changed] = await aroundLocked(
          'workspaces',
          api.workspaceId,
          () => give(c.id, [label, `new ${label}`]),
          () =>
            change === 'rename'
              ? api.patch(`/v1/tags/${tag.id}`, { label: `platinum ${name}` })
              : api.delete(`/v1/tags/${tag.id}`),
        );
        assert.ok(given.status < 300, `${name}: ${JSON.stringify(given.body)}`);
        assert.ok(changed.status < 300, `${name} ${change}: ${JSON.stringify(changed.body)}`);
        const onCase = await labelsOf(c.id);
        const expected = change === 'rename' ? [`platinum ${name}`, `new ${label}`] : [`new ${label}`];
        assert.deepEqual(onCase, expected, `${name} ${change}`);
        const existing = await tagLabels();
        for (const l of onCase) assert.ok(existing.includes(l), `${name} ${change}: "${l}" has no tag`);
      }
    }
  });
});
