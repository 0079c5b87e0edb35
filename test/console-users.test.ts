import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { hashApiKey } from '../src/workspaces/api-key.ts';
import { createConsoleUser, signInHeaders } from './helpers/console-session.ts';
import { getHarness, newWorkspace } from './helpers/harness.ts';

async function as(headers: Record<string, string>, method: string, url: string, payload?: unknown) {
  const { app } = await getHarness();
  const res = await app.inject({
    method: method as 'GET',
    url,
    headers,
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });
  return { status: res.statusCode, body: res.body ? res.json() : null };
}

describe('users API', () => {
  test('an admin creates a user: the generated password is answered once, stored hashed, and signs in', async () => {
    const { app, ctx } = await getHarness();
    const ws = await newWorkspace('users');
    const admin = await createConsoleUser(ctx, ws.workspaceId, { role: 'admin' });
    const h = await signInHeaders(app, admin.email, admin.password);

    const created = await as(h, 'POST', '/v1/users', {
      email: 'Nora.Reviewer@example.test',
      first_name: 'Nora',
      last_name: 'Reviewer',
      role: 'reviewer',
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const { password, ...user } = created.body;
    assert.match(password, /^[A-Za-z0-9]{20}$/);
    assert.deepEqual(
      { ...user, id: '', created_at: '' },
      {
        id: '',
        created_at: '',
        email: 'Nora.Reviewer@example.test',
        first_name: 'Nora',
        last_name: 'Reviewer',
        role: 'reviewer',
        suspended_at: null,
      },
    );
    const got = await as(h, 'GET', `/v1/users/${user.id}`);
    assert.deepEqual(got.body, user);
    const row = await ctx.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    assert.match(row.password_hash ?? '', /^scrypt\$/);
    assert.ok(!(row.password_hash ?? '').includes(password));
    const nora = await signInHeaders(app, 'nora.reviewer@example.test', password);
    assert.equal((await as(nora, 'GET', '/v1/ping')).status, 200);

    // a chosen password is not echoed
    const chosen = await as(h, 'POST', '/v1/users', {
      email: 'vic@example.test',
      role: 'viewer',
      password: 'chosen-password-1',
    });
    assert.equal(chosen.status, 201);
    assert.equal(chosen.body.password, undefined);
    assert.equal(chosen.body.first_name, '');

    // the same e-mail again, in any case: 409 naming email
    const dup = await as(h, 'POST', '/v1/users', { email: 'NORA.reviewer@example.test', role: 'viewer' });
    assert.equal(dup.status, 409);
    assert.equal(dup.body.details[0].path, 'email');
    // malformed input: 400 naming the field
    for (const [body, field] of [
      [{ email: 'not-an-email', role: 'viewer' }, 'email'],
      [{ email: 'x@example.test', role: 'owner' }, 'role'],
      [{ email: 'x@example.test', role: 'viewer', password: 'short' }, 'password'],
      // ten spaces are long enough, and no password
      [{ email: 'x@example.test', role: 'viewer', password: '          ' }, 'password'],
      [{ email: 'x@example.test', role: 'viewer', admin: true }, 'admin'],
      [{ role: 'viewer' }, 'email'],
    ] as const) {
      const res = await as(h, 'POST', '/v1/users', body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.match(JSON.stringify(res.body), new RegExp(field), JSON.stringify(res.body));
    }
    // a key creates users too
    const byKey = await ws.post('/v1/users', { email: 'key-made@example.test', role: 'admin' });
    assert.equal(byKey.status, 201);
    // an address as the HTML standard defines it, as the reference does: a domain needs no dot
    // (the first start's admin@localhost); two dots in a row or a domain ending in - are none
    const local = await ws.post('/v1/users', { email: 'second-admin@localhost', role: 'admin' });
    assert.equal(local.status, 201, JSON.stringify(local.body));
    for (const email of ['a@b..c', 'a@-b', 'a b@c.d', 'a@', `a@${'x'.repeat(64)}.com`])
      assert.equal((await ws.post('/v1/users', { email, role: 'viewer' })).status, 400, email);
  });

  test('PATCH changes name and role; suspending ends the sessions; the last admin stays', async () => {
    const { app, ctx } = await getHarness();
    const ws = await newWorkspace('patch');
    const admin = await createConsoleUser(ctx, ws.workspaceId, { role: 'admin' });
    const h = await signInHeaders(app, admin.email, admin.password);
    const rev = await createConsoleUser(ctx, ws.workspaceId, { role: 'reviewer' });
    const rh = await signInHeaders(app, rev.email, rev.password);
    const rh2 = await signInHeaders(app, rev.email, rev.password);

    const renamed = await as(h, 'PATCH', `/v1/users/${rev.id}`, { first_name: 'Rita', role: 'admin' });
    assert.equal(renamed.status, 200);
    assert.equal(renamed.body.first_name, 'Rita');
    assert.equal(renamed.body.role, 'admin');
    assert.equal((await as(h, 'PATCH', `/v1/users/${rev.id}`, { role: 'boss' })).status, 400);

    const suspended = await as(h, 'PATCH', `/v1/users/${rev.id}`, { suspended: true });
    assert.equal(suspended.status, 200);
    assert.ok(suspended.body.suspended_at);
    assert.equal((await as(rh, 'GET', '/v1/ping')).status, 401);
    assert.equal((await as(rh2, 'GET', '/v1/ping')).status, 401);
    const live = await ctx.db
      .selectFrom('console_sessions')
      .select('id')
      .where('user_id', '=', rev.id)
      .where('revoked_at', 'is', null)
      .execute();
    assert.equal(live.length, 0);
    const login = await app.inject({
      method: 'POST',
      url: '/console/api/login',
      payload: { email: rev.email, password: rev.password },
    });
    assert.equal(login.statusCode, 401);
    const lifted = await as(h, 'PATCH', `/v1/users/${rev.id}`, { suspended: false });
    assert.equal(lifted.body.suspended_at, null);
    assert.equal(
      (await signInHeaders(app, rev.email, rev.password)).cookie.startsWith('vericase_session='),
      true,
    );

    // the last active admin can be neither demoted nor suspended (by a key: see below for oneself)
    const only = await newWorkspace('only-admin');
    const solo = await createConsoleUser(ctx, only.workspaceId, { role: 'admin' });
    const sh = await signInHeaders(app, solo.email, solo.password);
    const demote = await only.patch(`/v1/users/${solo.id}`, { role: 'viewer' });
    assert.equal(demote.status, 409);
    assert.equal(demote.body.details[0].path, 'role');
    const suspend = await only.patch(`/v1/users/${solo.id}`, { suspended: true });
    assert.equal(suspend.status, 409);
    assert.equal(suspend.body.details[0].path, 'suspended');
    assert.equal((await as(sh, 'GET', '/v1/ping')).status, 200);

    // nor does an admin change their own role or access, even beside another admin: the console
    // says another admin does, and the server keeps the rule (a walk demoted itself by a PATCH)
    const second = await createConsoleUser(ctx, only.workspaceId, { role: 'admin' });
    for (const [body, field] of [
      [{ role: 'viewer' }, 'role'],
      [{ suspended: true }, 'suspended'],
      [{ first_name: 'Solo', role: 'reviewer' }, 'role'],
    ] as const) {
      const self = await as(sh, 'PATCH', `/v1/users/${solo.id}`, body);
      assert.equal(self.status, 400, JSON.stringify(body));
      assert.equal(self.body.details[0].path, field);
      assert.match(self.body.message, /changed by another admin/);
    }
    assert.equal((await only.get(`/v1/users/${solo.id}`)).body.role, 'admin');
    // their own name is theirs; the other admin changes their role
    const selfNamed = await as(sh, 'PATCH', `/v1/users/${solo.id}`, { first_name: 'Solo' });
    assert.equal(selfNamed.status, 200, JSON.stringify(selfNamed.body));
    const sh2 = await signInHeaders(app, second.email, second.password);
    const byOther = await as(sh2, 'PATCH', `/v1/users/${solo.id}`, { role: 'reviewer' });
    assert.equal(byOther.status, 200, JSON.stringify(byOther.body));
    assert.equal(byOther.body.role, 'reviewer');
  });

  test('two admins demoted or suspended at the same time: one is refused, an active admin stays', async () => {
    const { ctx } = await getHarness();
    // a race is not certain to interleave on one try: several rounds make a lost check show
    for (let round = 0; round < 6; round++) {
      const ws = await newWorkspace(`two-admins-${round}`);
      const key = { 'x-service-api-key': ws.key };
      const a = await createConsoleUser(ctx, ws.workspaceId, { role: 'admin' });
      const b = await createConsoleUser(ctx, ws.workspaceId, { role: 'admin' });
      const answers = await Promise.all([
        as(key, 'PATCH', `/v1/users/${a.id}`, { role: 'viewer' }),
        as(key, 'PATCH', `/v1/users/${b.id}`, round % 2 ? { suspended: true } : { role: 'reviewer' }),
      ]);
      assert.deepEqual(
        answers.map((r) => r.status).sort(),
        [200, 409],
        `round ${round}: ${JSON.stringify(answers)}`,
      );
      const admins = await ctx.db
        .selectFrom('users')
        .select('id')
        .where('workspace_id', '=', ws.workspaceId)
        .where('role', '=', 'admin')
        .where('suspended_at', 'is', null)
        .execute();
      assert.equal(admins.length, 1, `round ${round}`);
    }
  });

  test("DELETE /v1/users/:id/sessions signs a user out everywhere; another workspace's user is a 404", async () => {
    const { app, ctx } = await getHarness();
    const ws = await newWorkspace('revoke');
    const other = await newWorkspace('revoke-other');
    const admin = await createConsoleUser(ctx, ws.workspaceId, { role: 'admin' });
    const h = await signInHeaders(app, admin.email, admin.password);
    const v = await createConsoleUser(ctx, ws.workspaceId, { role: 'viewer' });
    const vh = await signInHeaders(app, v.email, v.password);
    const stranger = await createConsoleUser(ctx, other.workspaceId, { role: 'viewer' });
    const sh = await signInHeaders(app, stranger.email, stranger.password);

    const res = await as(h, 'DELETE', `/v1/users/${v.id}/sessions`);
    assert.equal(res.status, 204);
    assert.equal((await as(vh, 'GET', '/v1/ping')).status, 401);

    for (const [method, url, body] of [
      ['GET', `/v1/users/${stranger.id}`, undefined],
      ['PATCH', `/v1/users/${stranger.id}`, { role: 'admin' }],
      ['DELETE', `/v1/users/${stranger.id}/sessions`, undefined],
    ] as const) {
      const r = await as(h, method, url, body);
      assert.equal(r.status, 404, `${method} ${url}`);
    }
    assert.equal((await as(sh, 'GET', '/v1/ping')).status, 200);
    const row = await ctx.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', stranger.id)
      .executeTakeFirstOrThrow();
    assert.equal(row.role, 'viewer');
  });
});

describe('API keys API', () => {
  test('create answers the key once and stores its hash; list, revoke, the key stops working', async () => {
    const { app, ctx } = await getHarness();
    const ws = await newWorkspace('keys');
    const admin = await createConsoleUser(ctx, ws.workspaceId, {
      role: 'admin',
      firstName: 'Ada',
      lastName: 'Admin',
    });
    const h = await signInHeaders(app, admin.email, admin.password);

    const created = await as(h, 'POST', '/v1/api-keys', { name: 'CRM integration' });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const key = created.body.api_key as string;
    assert.match(key, /^vk_/);
    assert.equal(created.body.name, 'CRM integration');
    assert.equal(created.body.prefix, key.slice(0, 9));
    assert.equal(created.body.revoked_at, null);
    assert.deepEqual(created.body.created_by, {
      id: admin.id,
      first_name: 'Ada',
      last_name: 'Admin',
      email: admin.email,
    });
    const row = await ctx.db
      .selectFrom('api_keys')
      .selectAll()
      .where('id', '=', created.body.id)
      .executeTakeFirstOrThrow();
    assert.equal(row.key_hash, hashApiKey(key));
    assert.ok(!JSON.stringify(row).includes(key));

    const ping = await app.inject({ method: 'GET', url: '/v1/ping', headers: { 'x-service-api-key': key } });
    assert.equal(ping.statusCode, 200);

    const list = await as(h, 'GET', '/v1/api-keys');
    assert.equal(list.status, 200);
    assert.equal(list.body.pagination.count, 2); // the workspace's first key and this one
    const listed = list.body.data.find((k: { id: string }) => k.id === created.body.id);
    const { api_key: _shownOnce, ...withoutKey } = created.body;
    assert.deepEqual(listed, withoutKey);
    assert.ok(!JSON.stringify(list.body).includes(key));
    const first = list.body.data.find((k: { id: string }) => k.id !== created.body.id);
    assert.equal(first.created_by, null);

    assert.equal((await as(h, 'POST', '/v1/api-keys', {})).status, 400);
    assert.equal((await as(h, 'POST', '/v1/api-keys', { name: '' })).status, 400);

    const revoked = await as(h, 'DELETE', `/v1/api-keys/${created.body.id}`);
    assert.equal(revoked.status, 204);
    const after = await app.inject({ method: 'GET', url: '/v1/ping', headers: { 'x-service-api-key': key } });
    assert.equal(after.statusCode, 401);
    assert.equal((await as(h, 'DELETE', `/v1/api-keys/${created.body.id}`)).status, 204);
    assert.equal((await as(h, 'GET', '/v1/api-keys')).body.pagination.count, 1);
    const all = await as(h, 'GET', '/v1/api-keys?include_revoked=true');
    assert.equal(all.body.pagination.count, 2);
    assert.ok(all.body.data.find((k: { id: string }) => k.id === created.body.id).revoked_at);

    // another workspace's key: 404, and it keeps working
    const other = await newWorkspace('keys-other');
    const otherKeys = await other.get('/v1/api-keys');
    const otherId = otherKeys.body.data[0].id;
    assert.equal((await as(h, 'DELETE', `/v1/api-keys/${otherId}`)).status, 404);
    assert.equal((await other.get('/v1/ping')).status, 200);
  });

  test("a request made with an API key cannot revoke the workspace's last active key; a console admin can", async () => {
    const ws = await newWorkspace('last key');
    const keys = (await ws.get('/v1/api-keys')).body.data as { id: string }[];
    assert.equal(keys.length, 1);
    const own = keys[0].id;
    // its only key, revoking itself: refused, the key still works
    const refused = await ws.delete(`/v1/api-keys/${own}`);
    assert.equal(refused.status, 400, JSON.stringify(refused.body));
    assert.equal(refused.body.details[0].path, 'id');
    assert.match(refused.body.message, /last active API key/);
    assert.equal((await ws.get('/v1/ping')).status, 200);
    // with a second key, the first goes (from itself), and then the second cannot
    const second = await ws.post('/v1/api-keys', { name: 'rotated' });
    assert.equal(second.status, 201);
    assert.equal((await ws.delete(`/v1/api-keys/${own}`)).status, 204);
    assert.equal((await ws.get('/v1/ping')).status, 401);
    const rotated = { 'x-service-api-key': second.body.api_key };
    const { app } = await getHarness();
    const last = await app.inject({
      method: 'DELETE',
      url: `/v1/api-keys/${second.body.id}`,
      headers: rotated,
    });
    assert.equal(last.statusCode, 400, last.body);
    assert.equal((await app.inject({ method: 'GET', url: '/v1/ping', headers: rotated })).statusCode, 200);
    // revoking an already revoked key stays a 204
    const again = await app.inject({ method: 'DELETE', url: `/v1/api-keys/${own}`, headers: rotated });
    assert.equal(again.statusCode, 204);
    // a console admin can revoke the last one: the console can make another
    const { ctx } = await getHarness();
    const admin = await createConsoleUser(ctx, ws.workspaceId, {
      role: 'admin',
      firstName: 'L',
      lastName: 'K',
    });
    const h = await signInHeaders(app, admin.email, admin.password);
    assert.equal((await as(h, 'DELETE', `/v1/api-keys/${second.body.id}`)).status, 204);
    assert.equal((await app.inject({ method: 'GET', url: '/v1/ping', headers: rotated })).statusCode, 401);
  });

  test('revocation is immediate on this process even with the key cache on', async () => {
    const { ctx } = await getHarness();
    const { buildApp } = await import('../src/http/app.ts');
    const { KeyResolver } = await import('../src/http/auth.ts');
    const cached = await buildApp({ ...ctx, keys: new KeyResolver(ctx.db, 60_000) });
    try {
      const ws = await newWorkspace('cache');
      const made = await cached.inject({
        method: 'POST',
        url: '/v1/api-keys',
        headers: { 'x-service-api-key': ws.key },
        payload: { name: 'short-lived' },
      });
      assert.equal(made.statusCode, 201);
      const key = made.json().api_key;
      const ping = () =>
        cached.inject({ method: 'GET', url: '/v1/ping', headers: { 'x-service-api-key': key } });
      assert.equal((await ping()).statusCode, 200);
      const del = await cached.inject({
        method: 'DELETE',
        url: `/v1/api-keys/${made.json().id}`,
        headers: { 'x-service-api-key': ws.key },
      });
      assert.equal(del.statusCode, 204);
      assert.equal((await ping()).statusCode, 401);
    } finally {
      await cached.close();
    }
  });

  test('one key lookup at a time: concurrent requests of an uncached key share it; a revocation during it is not cached', async () => {
    const { ctx } = await getHarness();
    const { buildApp } = await import('../src/http/app.ts');
    const { KeyResolver } = await import('../src/http/auth.ts');
    // counts the resolver's queries, and can hold their answers until released
    let queries = 0;
    let gate: Promise<void> | null = null;
    const counted = ctx.db.withPlugin({
      transformQuery: (args) => {
        queries++;
        return args.node;
      },
      transformResult: async (args) => {
        await gate;
        return args.result;
      },
    });
    const keys = new KeyResolver(counted, 60_000);
    const app = await buildApp({ ...ctx, keys });
    try {
      const ws = await newWorkspace('single-flight');
      const ping = () =>
        app.inject({ method: 'GET', url: '/v1/ping', headers: { 'x-service-api-key': ws.key } });
      const answers = await Promise.all(Array.from({ length: 20 }, ping));
      assert.deepEqual(
        answers.map((a) => a.statusCode),
        Array(20).fill(200),
      );
      assert.equal(answers[19].json().workspace_name, answers[0].json().workspace_name);
      assert.equal(queries, 1, 'twenty concurrent requests, one lookup');
      assert.equal((await ping()).statusCode, 200);
      assert.equal(queries, 1, 'then cached');

      // a lookup held in flight while the key is forgotten (a revocation): its answer goes to the
      // requests that were waiting for it, and is not cached; requests after the revocation do not
      // join it but look the key up again
      const hold = () => {
        let release = () => {};
        gate = new Promise((r) => {
          release = r;
        });
        return () => {
          gate = null;
          release();
        };
      };
      const settle = () => new Promise((r) => setTimeout(r, 50));
      keys.clear();
      let release = hold();
      const held = ping();
      await settle();
      assert.equal(queries, 2);
      keys.forget(hashApiKey(ws.key));
      release();
      assert.equal((await held).statusCode, 200);
      assert.equal((await ping()).statusCode, 200);
      assert.equal(queries, 3, 'the answer read before the revocation was not cached');

      keys.clear();
      release = hold();
      const before = ping();
      await settle();
      assert.equal(queries, 4);
      keys.forget(hashApiKey(ws.key));
      const after = ping();
      await settle();
      assert.equal(queries, 5, 'a request after the revocation sent a lookup of its own');
      release();
      assert.deepEqual([(await before).statusCode, (await after).statusCode], [200, 200]);
      assert.equal((await ping()).statusCode, 200);
      assert.equal(queries, 5, 'the lookup made after the revocation was cached');
    } finally {
      await app.close();
    }
  });
});
