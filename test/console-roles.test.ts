import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { READ_METHODS, requiredRole } from '../src/console-auth/permissions.ts';
import { createConsoleUser, signInHeaders } from './helpers/console-session.ts';
import { getHarness, newWorkspace } from './helpers/harness.ts';
import { portalCase } from './helpers/portal.ts';
import { routeTable } from './helpers/route-table.ts';

const FAKE_ID = '00000000-0000-4000-8000-000000000000';

/** A route pattern made requestable: every parameter an id that exists nowhere. */
function concrete(url: string): string {
  return url.replace(/:[A-Za-z0-9_]+/g, FAKE_ID).replace(/\*$/, 'x');
}

describe('console roles on /v1', () => {
  test('a viewer is refused every write route (403 naming the role) and may read cases', async () => {
    const { app, ctx } = await getHarness();
    const ws = await newWorkspace('viewer');
    const viewer = await createConsoleUser(ctx, ws.workspaceId, { role: 'viewer' });
    const h = await signInHeaders(app, viewer.email, viewer.password);
    const writes = routeTable(app).filter(
      (r) => r.url.startsWith('/v1/') && !READ_METHODS.includes(r.method),
    );
    assert.ok(writes.length > 60, `only ${writes.length} write routes`);
    for (const r of writes) {
      const res = await app.inject({
        method: r.method as 'POST',
        url: concrete(r.url),
        headers: h,
        payload: {},
      });
      assert.equal(res.statusCode, 403, `${r.method} ${r.url}: ${res.body}`);
      assert.match(res.json().message, /^Your role \(viewer\) does not allow this/, `${r.method} ${r.url}`);
    }
    const cases = await app.inject({ method: 'GET', url: '/v1/cases', headers: h });
    assert.equal(cases.statusCode, 200);
    const users = await app.inject({ method: 'GET', url: '/v1/users', headers: h });
    assert.equal(users.statusCode, 200);
    // webhooks (their secrets) and API keys are admins' to read
    for (const url of ['/v1/webhooks', '/v1/webhook-logs', '/v1/api-keys']) {
      assert.equal((await app.inject({ method: 'GET', url, headers: h })).statusCode, 403, url);
    }
    // a registry fetch is a read that spends the workspace's monthly quota: a reviewer's to make
    const fetch = await app.inject({ method: 'GET', url: '/v1/company-data/fetch/x', headers: h });
    assert.equal(fetch.statusCode, 403, fetch.body);
    assert.match(fetch.json().message, /needs reviewer$/);
    // nothing was written
    assert.equal((await ws.get('/v1/cases')).body.pagination.count, 0);
    // a live portal link is the client's key to act: a viewer reads the check without it
    const { contactId } = await portalCase(ws, 'Links');
    const idv = await ws.post('/v1/checks/id_verification', { individual_id: contactId });
    assert.equal(idv.status, 201, JSON.stringify(idv.body));
    assert.match(idv.body.data.vendor.verification_url, /#token=vcp_/);
    const seen = await app.inject({
      method: 'GET',
      url: `/v1/checks/id_verification/${idv.body.id}`,
      headers: h,
    });
    assert.equal(seen.statusCode, 200, seen.body);
    assert.equal(seen.json().data.vendor.verification_url, null);
    assert.doesNotMatch(seen.body, /vcp_/);
    assert.equal(seen.json().id, idv.body.id);
    // the key (an admin) still reads it
    const byKey = await ws.get(`/v1/checks/id_verification/${idv.body.id}`);
    assert.equal(byKey.body.data.vendor.verification_url, idv.body.data.vendor.verification_url);
  });

  test('a reviewer works on cases but is refused every admin route', async () => {
    const { app, ctx } = await getHarness();
    const ws = await newWorkspace('reviewer');
    const reviewer = await createConsoleUser(ctx, ws.workspaceId, { role: 'reviewer' });
    const h = await signInHeaders(app, reviewer.email, reviewer.password);
    const routes = routeTable(app).filter((r) => r.url.startsWith('/v1/'));
    const adminOnly = routes.filter((r) => requiredRole(r.method, r.url) === 'admin');
    // the table's admin routes, as built today: a route moving in or out of it shows here
    const names = [...new Set(adminOnly.map((r) => r.url.split('/')[2]))].sort();
    assert.deepEqual(names, [
      'api-keys',
      'client-portals',
      'document-templates',
      'document_types',
      'fraud-database',
      'tags',
      'templates',
      'users',
      'webhook-logs',
      'webhooks',
      'workspace',
    ]);
    for (const r of adminOnly) {
      const res = await app.inject({
        method: r.method as 'POST',
        url: concrete(r.url),
        headers: h,
        payload: {},
      });
      assert.equal(res.statusCode, 403, `${r.method} ${r.url}: ${res.body}`);
      if (r.method !== 'HEAD') {
        assert.match(res.json().message, /^Your role \(reviewer\) does not allow this: .* needs admin$/);
      }
    }
    // reviewer routes pass the role check: validation or the handler answers
    for (const r of routes.filter((x) => requiredRole(x.method, x.url) !== 'admin')) {
      if (r.method === 'HEAD' || r.method === 'OPTIONS') continue;
      const res = await app.inject({
        method: r.method as 'POST',
        url: concrete(r.url),
        headers: h,
        payload: {},
      });
      assert.notEqual(res.statusCode, 403, `${r.method} ${r.url}: ${res.body}`);
    }
    const created = await app.inject({
      method: 'POST',
      url: '/v1/cases',
      headers: h,
      payload: { name: 'reviewer case' },
    });
    assert.equal(created.statusCode, 201, created.body);
    const run = await app.inject({ method: 'POST', url: '/v1/templates/run', headers: h, payload: {} });
    assert.equal(run.statusCode, 400, run.body);
  });

  test('an admin passes every role check; a role change applies to live sessions', async () => {
    const { app, ctx } = await getHarness();
    const ws = await newWorkspace('admin');
    const admin = await createConsoleUser(ctx, ws.workspaceId, { role: 'admin' });
    const h = await signInHeaders(app, admin.email, admin.password);
    for (const r of routeTable(app).filter(
      (x) => x.url.startsWith('/v1/') && requiredRole(x.method, x.url) === 'admin',
    )) {
      const res = await app.inject({
        method: r.method as 'POST',
        url: concrete(r.url),
        headers: h,
        payload: {},
      });
      assert.notEqual(res.statusCode, 403, `${r.method} ${r.url}: ${res.body}`);
    }
    const settings = await app.inject({
      method: 'PATCH',
      url: '/v1/workspace/settings',
      headers: h,
      payload: {},
    });
    assert.notEqual(settings.statusCode, 403);

    const other = await createConsoleUser(ctx, ws.workspaceId, { role: 'admin' });
    const oh = await signInHeaders(app, other.email, other.password);
    const demote = await app.inject({
      method: 'PATCH',
      url: `/v1/users/${other.id}`,
      headers: h,
      payload: { role: 'viewer' },
    });
    assert.equal(demote.statusCode, 200, demote.body);
    const nowViewer = await app.inject({ method: 'GET', url: '/v1/webhooks', headers: oh });
    assert.equal(nowViewer.statusCode, 403);
    assert.match(nowViewer.json().message, /\(viewer\)/);
    const session = await app.inject({ method: 'GET', url: '/console/api/session', headers: oh });
    assert.equal(session.json().user.role, 'viewer');
  });

  test('API keys act as admins', async () => {
    const ws = await newWorkspace('key');
    assert.equal((await ws.get('/v1/webhooks')).status, 200);
    assert.equal((await ws.get('/v1/api-keys')).status, 200);
  });

  test("a session sees its own workspace only: another workspace's ids are 404s", async () => {
    const { app, ctx } = await getHarness();
    const a = await newWorkspace('session-a');
    const b = await newWorkspace('session-b');
    const admin = await createConsoleUser(ctx, a.workspaceId, { role: 'admin' });
    const h = await signInHeaders(app, admin.email, admin.password);
    const bCase = await b.post('/v1/cases', { name: 'B only' });
    assert.equal(bCase.status, 201);
    const bHook = await b.post('/v1/webhooks', {
      url: 'https://example.test/hook',
      events: ['Case.Created'],
    });
    assert.equal(bHook.status, 201, JSON.stringify(bHook.body));
    for (const [method, url, payload] of [
      ['GET', `/v1/cases/${bCase.body.id}`, undefined],
      ['PATCH', `/v1/cases/${bCase.body.id}`, { name: 'taken over' }],
      ['DELETE', `/v1/cases/${bCase.body.id}`, undefined],
      ['GET', `/v1/webhooks/${bHook.body.id}`, undefined],
      ['DELETE', `/v1/webhooks/${bHook.body.id}`, undefined],
    ] as const) {
      const res = await app.inject({ method, url, headers: h, ...(payload ? { payload } : {}) });
      assert.equal(res.statusCode, 404, `${method} ${url}: ${res.body}`);
    }
    const list = await app.inject({ method: 'GET', url: '/v1/cases', headers: h });
    assert.equal(list.json().pagination.count, 0);
    assert.equal((await b.get(`/v1/cases/${bCase.body.id}`)).body.name, 'B only');
    assert.equal((await b.get(`/v1/webhooks/${bHook.body.id}`)).status, 200);
  });
});
