import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { auditAction } from '../src/audit-log/action.ts';
import { buildApp } from '../src/http/app.ts';
import { createConsoleUser, type SignInHeaders, signInHeaders } from './helpers/console-session.ts';
import { type Client, eventually, getHarness, newWorkspace, type Res } from './helpers/harness.ts';
import { routeTable } from './helpers/route-table.ts';

/** A /v1 client signed in as a console user (session cookie + CSRF token, no key). */
async function sessionClient(api: Client, role: 'admin' | 'reviewer' | 'viewer', firstName?: string) {
  const { app, ctx } = await getHarness();
  const user = await createConsoleUser(ctx, api.workspaceId, { role, firstName, lastName: 'Auditor' });
  const headers: SignInHeaders = await signInHeaders(app, user.email, user.password);
  const call = async (method: string, url: string, body?: unknown, extra: Record<string, string> = {}) => {
    const res = await app.inject({
      method: method as 'GET',
      url,
      headers: { ...headers, 'user-agent': 'audit-test/1.0', ...extra },
      ...(body !== undefined ? { payload: body as object } : {}),
    });
    return {
      status: res.statusCode,
      body: res.body ? JSON.parse(res.body) : null,
      headers: res.headers,
    } as Res;
  };
  return {
    user,
    get: (url: string) => call('GET', url),
    post: (url: string, body: unknown = {}, extra?: Record<string, string>) => call('POST', url, body, extra),
    patch: (url: string, body: unknown = {}) => call('PATCH', url, body),
  };
}

async function keyIdOf(workspaceId: string) {
  const { ctx } = await getHarness();
  const row = await ctx.db
    .selectFrom('api_keys')
    .select(['id', 'prefix'])
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirstOrThrow();
  return row;
}

const smallCase = (name = 'Audited case') => ({
  name,
  companies: [{ name: 'Audit Widgets SAS', country: 'FR' }],
  individuals: [
    { first_name: 'Ada', last_name: 'Lovelace', relations: [{ roles: ['legal_representative'] }] },
  ],
});

describe('audit log: writes on /v1', () => {
  test('an API key write: actor the key (its prefix as label), action, resource from the 201 body, status, IP, user agent, request id', async () => {
    const api = await newWorkspace('audit');
    const key = await keyIdOf(api.workspaceId);
    const created = await api.post('/v1/cases', smallCase(), {
      'user-agent': 'integration-client/2',
      'x-request-id': 'req-audit-1',
    });
    assert.equal(created.status, 201);
    const list = await api.get('/v1/audit-log');
    assert.equal(list.status, 200, JSON.stringify(list.body));
    assert.equal(list.body.pagination.count, 1);
    const [entry] = list.body.data;
    assert.deepEqual(
      { ...entry, id: undefined, occurred_at: undefined },
      {
        id: undefined,
        occurred_at: undefined,
        actor: { type: 'api_key', id: key.id, label: key.prefix },
        action: 'case.create',
        method: 'POST',
        route: '/v1/cases',
        resource_type: 'case',
        resource_id: created.body.id,
        status_code: 201,
        ip: '127.0.0.1',
        user_agent: 'integration-client/2',
        request_id: 'req-audit-1',
        details: {},
      },
    );
    assert.ok(Math.abs(Date.parse(entry.occurred_at) - Date.now()) < 60_000);
    // reads are not recorded
    await api.get(`/v1/cases/${created.body.id}`);
    assert.equal((await api.get('/v1/audit-log')).body.pagination.count, 1);
  });

  test('a nested write names the parent resource and the created id; a failed write records its status and message', async () => {
    const api = await newWorkspace('audit');
    const kase = (await api.post('/v1/cases', smallCase())).body;
    const review = await api.post(`/v1/cases/${kase.id}/reviews`, { status: 'approved', comment: 'ok' });
    assert.equal(review.status, 201, JSON.stringify(review.body));
    const bad = await api.patch(`/v1/cases/${kase.id}`, { name: '' });
    assert.equal(bad.status, 400);
    const missing = await api.delete('/v1/cases/7b0c8b5e-1111-4111-8111-111111111111');
    assert.equal(missing.status, 404);

    const entries = (await api.get('/v1/audit-log')).body.data;
    assert.deepEqual(
      entries.map((e: Record<string, unknown>) => [e.action, e.status_code, e.resource_type, e.resource_id]),
      [
        ['case.delete', 404, 'case', '7b0c8b5e-1111-4111-8111-111111111111'],
        ['case.update', 400, 'case', kase.id],
        ['case.review.create', 201, 'case', kase.id],
        ['case.create', 201, 'case', kase.id],
      ],
    );
    assert.equal(entries[2].route, '/v1/cases/:id/reviews');
    // the decision it carried (the review's status) and the status it replaced, beside the created review
    assert.deepEqual(entries[2].details, {
      status: 'approved',
      before: { status: kase.status },
      created_id: review.body.id,
    });
    assert.equal(entries[1].details.error, bad.body.message);
    assert.equal(entries[0].details.error, missing.body.message);
  });

  test('an entry says what was decided: a role granted or withdrawn, a check review, a hit review, a risk; never free text or a password', async () => {
    const api = await newWorkspace('audit-decisions');
    const made = await api.post('/v1/users', {
      email: 'nora@example.test',
      role: 'reviewer',
      password: 'secret-password-1',
    });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    assert.equal((await api.patch(`/v1/users/${made.body.id}`, { suspended: true })).status, 200);
    assert.equal(
      (await api.patch(`/v1/users/${made.body.id}`, { role: 'admin', first_name: 'Nora' })).status,
      200,
    );
    const kase = (
      await api.post('/v1/cases', {
        name: 'Decisions',
        companies: [{ name: 'Audit Widgets SAS', country: 'FR' }],
        individuals: [
          {
            first_name: 'Ada',
            last_name: 'Lovelace',
            birth_date: '1985-12-10',
            address: { country: 'FR' },
            relations: [{ roles: ['legal_representative'] }],
          },
        ],
      })
    ).body;
    const check = await api.post('/v1/checks/ekyc', {
      individual_id: kase.individuals[0].id,
      settings: { automatic_approval: false, automatic_rejection: false },
    });
    assert.equal(check.status, 201, JSON.stringify(check.body));
    const rejected = await api.patch(`/v1/checks/ekyc/${check.body.id}/review`, {
      action: 'reject',
      comment: 'the person says it is not them',
    });
    assert.equal(rejected.status, 200, JSON.stringify(rejected.body));
    // a refused decision says what was tried
    const refused = await api.patch(`/v1/checks/ekyc/${check.body.id}/review`, { action: 'approve' });
    assert.equal(refused.status, 400);
    // an override of the decided check: the entry keeps the status it overrode
    const overridden = await api.patch(`/v1/checks/ekyc/${check.body.id}/review`, {
      action: 'approve',
      override: true,
    });
    assert.equal(overridden.status, 200, JSON.stringify(overridden.body));
    assert.equal((await api.post(`/v1/cases/${kase.id}/risks`, { level: 'high', comment: 'x' })).status, 201);
    // an assignment, then its withdrawal with a status change: each entry says what it replaced
    const assignee = await api.post('/v1/users', { email: 'ines@example.test', role: 'reviewer' });
    assert.equal(assignee.status, 201, JSON.stringify(assignee.body));
    const assigned = await api.patch(`/v1/cases/${kase.id}`, { assignee_id: assignee.body.id });
    assert.equal(assigned.status, 200, JSON.stringify(assigned.body));
    const closed = await api.patch(`/v1/cases/${kase.id}`, { assignee_id: null, status: 'draft' });
    assert.equal(closed.status, 200, JSON.stringify(closed.body));

    const entries = (await api.get('/v1/audit-log')).body.data as {
      action: string;
      status_code: number;
      details: Record<string, unknown>;
    }[];
    const details = (action: string) => entries.filter((e) => e.action === action).map((e) => e.details);
    assert.deepEqual(details('user.create'), [{ role: 'reviewer' }, { role: 'reviewer' }]);
    // the previous values, read in the write's transaction, beside the new ones
    assert.deepEqual(details('user.update'), [
      { role: 'admin', before: { role: 'reviewer' } },
      { suspended: true, before: { suspended: false } },
    ]);
    const reviews = details('check.ekyc.review');
    assert.deepEqual(reviews[2], { action: 'reject', before: { status: 'need_review' } });
    assert.equal(reviews[1].action, 'approve');
    assert.equal(reviews[1].error, refused.body.message);
    assert.deepEqual(reviews[1].before, { status: 'rejected' });
    assert.deepEqual(reviews[0], { action: 'approve', override: true, before: { status: 'rejected' } });
    assert.deepEqual(details('case.update'), [
      { status: 'draft', assignee_id: null, before: { status: kase.status, assignee_id: assignee.body.id } },
      { assignee_id: assignee.body.id, before: { assignee_id: null } },
    ]);
    assert.deepEqual(details('case.risk.create')[0].level, 'high');
    // no password, comment or name copied into the log
    const written = JSON.stringify(entries);
    for (const secret of ['secret-password-1', 'not them', 'Nora'])
      assert.ok(!written.includes(secret), secret);
  });

  test('the entry commits with the change: a write whose entry cannot be stored is not made either', async () => {
    const api = await newWorkspace('audit');
    const { ctx } = await getHarness();
    // a constraint refusing this one request's entry, and no other test's
    await sql`alter table audit_log add constraint audit_test_refuse check (request_id is distinct from 'audit-refused-1')`.execute(
      ctx.db,
    );
    try {
      const refused = await api.post('/v1/cases', smallCase('Never stored'), {
        'x-request-id': 'audit-refused-1',
      });
      assert.equal(refused.status, 500, JSON.stringify(refused.body));
      assert.equal(refused.body.code, 'INTERNAL_SERVER_ERROR');
    } finally {
      await sql`alter table audit_log drop constraint audit_test_refuse`.execute(ctx.db);
    }
    const cases = await ctx.db
      .selectFrom('cases')
      .select('id')
      .where('workspace_id', '=', api.workspaceId)
      .execute();
    assert.deepEqual(cases, [], 'the case was created without its audit entry');
    // nothing claims a success; the failed attempt itself may be recorded after its 500 answer
    // (a 5xx's entry does not hold the answer back), once the constraint is gone
    for (const e of (await api.get('/v1/audit-log')).body.data) {
      assert.deepEqual([e.request_id, e.status_code], ['audit-refused-1', 500]);
    }
    // the same write, once its entry can be stored: both are there, the entry naming the case
    const ok = await api.post('/v1/cases', smallCase('Stored'), { 'x-request-id': 'audit-refused-2' });
    assert.equal(ok.status, 201);
    const entry = (await api.get('/v1/audit-log')).body.data.find(
      (e: { request_id: string }) => e.request_id === 'audit-refused-2',
    );
    assert.deepEqual(
      [entry.action, entry.status_code, entry.resource_id, entry.request_id, entry.details],
      ['case.create', 201, ok.body.id, 'audit-refused-2', {}],
    );
  });

  test('a named key is labelled with its name', async () => {
    const api = await newWorkspace('audit');
    const created = await api.post('/v1/api-keys', { name: 'ci-pipeline' });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const { app } = await getHarness();
    const res = await app.inject({
      method: 'POST',
      url: '/v1/cases',
      payload: smallCase(),
      headers: { 'x-service-api-key': created.body.api_key },
    });
    assert.equal(res.statusCode, 201);
    const entries = (await api.get('/v1/audit-log?action=case.create')).body.data;
    assert.deepEqual(entries[0].actor, { type: 'api_key', id: created.body.id, label: 'ci-pipeline' });
    // the key's own creation, by the workspace's first key
    const keyCreate = (await api.get('/v1/audit-log?action=api_key.create')).body.data[0];
    assert.equal(keyCreate.resource_type, 'api_key');
    assert.equal(keyCreate.resource_id, created.body.id);
    // the key itself, answered once, is nowhere in the log
    const { ctx } = await getHarness();
    const rows = await ctx.db
      .selectFrom('audit_log')
      .selectAll()
      .where('workspace_id', '=', api.workspaceId)
      .execute();
    assert.ok(!JSON.stringify(rows).includes(created.body.api_key));
  });

  test('a huge user agent is stored clipped to 512 characters', async () => {
    const api = await newWorkspace('audit');
    const res = await api.post('/v1/cases', smallCase(), { 'user-agent': `agent-${'x'.repeat(4000)}` });
    assert.equal(res.status, 201);
    const [entry] = (await api.get('/v1/audit-log')).body.data;
    assert.equal(entry.user_agent.length, 512);
    assert.ok(entry.user_agent.startsWith('agent-xxx'));
  });

  test("quotes, backslashes and SQL in the client's headers are stored exactly as sent (the entry travels with the COMMIT as literals)", async () => {
    const api = await newWorkspace('audit');
    const agent = `it's a \\'; drop table cases; -- \\x41 $1 E'\\' "q" é`;
    const requestId = `req-'\\-$2`;
    const res = await api.post('/v1/cases', smallCase("O'Brien \\ Co"), {
      'user-agent': agent,
      'x-request-id': requestId,
    });
    assert.equal(res.status, 201);
    const [entry] = (await api.get('/v1/audit-log')).body.data;
    assert.equal(entry.user_agent, agent);
    assert.equal(entry.request_id, requestId);
    assert.equal(entry.action, 'case.create');
    assert.equal(entry.resource_id, res.body.id);
    assert.equal(entry.status_code, 201);
    // the change committed with it, and nothing else ran
    const read = await api.get(`/v1/cases/${res.body.id}`);
    assert.equal(read.status, 200);
    assert.equal(read.body.name, "O'Brien \\ Co");
  });

  test('a request without valid credentials is not recorded; another workspace sees none of it', async () => {
    const api = await newWorkspace('audit');
    const other = await newWorkspace('audit-other');
    const { app } = await getHarness();
    const anonymous = await app.inject({ method: 'POST', url: '/v1/cases', payload: smallCase() });
    assert.equal(anonymous.statusCode, 401);
    const wrongKey = await app.inject({
      method: 'POST',
      url: '/v1/cases',
      payload: smallCase(),
      headers: { 'x-service-api-key': 'nope' },
    });
    assert.equal(wrongKey.statusCode, 401);
    await api.post('/v1/cases', smallCase());
    assert.equal((await api.get('/v1/audit-log')).body.pagination.count, 1);
    assert.equal((await other.get('/v1/audit-log')).body.pagination.count, 0);
    const { ctx } = await getHarness();
    const rows = await ctx.db
      .selectFrom('audit_log')
      .select('workspace_id')
      .where('workspace_id', 'in', [api.workspaceId, other.workspaceId])
      .execute();
    assert.deepEqual(
      rows.map((r) => r.workspace_id),
      [api.workspaceId],
    );
  });
});

describe('audit log: every write route', () => {
  test('each POST, PATCH, PUT and DELETE under /v1 leaves one entry, whatever its answer, named from its route', async () => {
    const api = await newWorkspace('audit-walk');
    const { app } = await getHarness();
    const writes = routeTable(app).filter(
      (r) => r.url.startsWith('/v1/') && ['POST', 'PATCH', 'PUT', 'DELETE'].includes(r.method),
    );
    assert.ok(writes.length > 50, `only ${writes.length} write routes found`);
    const expected = new Map<string, { action: string; status: number; route: string }>();
    for (const [i, r] of writes.entries()) {
      // ids of nothing in this workspace: most answers are 400 or 404, and all must be recorded
      const url = r.url.replace(/:([A-Za-z_]+)/g, (_m, name: string) =>
        name === 'number' ? '1' : name === 'key' ? 'no-such-key' : '7b0c8b5e-2222-4222-8222-222222222222',
      );
      const requestId = `walk-${i}`;
      const res = await app.inject({
        method: r.method as 'POST',
        url,
        headers: { 'x-service-api-key': api.key, 'x-request-id': requestId },
        ...(r.method === 'DELETE' ? {} : { payload: {} }),
      });
      expected.set(requestId, { action: auditAction(r.method, r.url), status: res.statusCode, route: r.url });
    }
    const { ctx } = await getHarness();
    const rows = await ctx.db
      .selectFrom('audit_log')
      .select(['request_id', 'action', 'status_code', 'route', 'actor_type'])
      .where('workspace_id', '=', api.workspaceId)
      .execute();
    const byRequest = new Map(rows.map((r) => [r.request_id, r]));
    const missing: string[] = [];
    for (const [requestId, want] of expected) {
      const got = byRequest.get(requestId);
      if (!got) {
        missing.push(`${want.route} (${want.status})`);
        continue;
      }
      assert.deepEqual(
        { action: got.action, status: got.status_code, route: got.route, actor: got.actor_type },
        { action: want.action, status: want.status, route: want.route, actor: 'api_key' },
        requestId,
      );
    }
    assert.deepEqual(missing, [], 'writes without an audit entry');
    assert.equal(rows.length, expected.size);
  });
});

describe('audit log: the operator token', () => {
  test('creating a workspace, creating and revoking one of its keys through /admin are entries of that workspace, by `system`', async () => {
    const { ctx } = await getHarness();
    const app = await buildApp({ ...ctx, config: { ...ctx.config, adminToken: 'audit-admin-token' } });
    try {
      const auth = { authorization: 'Bearer audit-admin-token', 'user-agent': 'ops-script/1' };
      const ws = await app.inject({
        method: 'POST',
        url: '/admin/workspaces',
        payload: { name: `audited-${Date.now()}` },
        headers: auth,
      });
      assert.equal(ws.statusCode, 201, ws.body);
      const wsId = ws.json().id as string;
      const key = await app.inject({ method: 'POST', url: `/admin/workspaces/${wsId}/keys`, headers: auth });
      assert.equal(key.statusCode, 201, key.body);
      const keyId = key.json().id as string;
      const revoked = await app.inject({ method: 'DELETE', url: `/admin/keys/${keyId}`, headers: auth });
      assert.equal(revoked.statusCode, 204, revoked.body);
      // refused (wrong token): no entry
      const refused = await app.inject({
        method: 'DELETE',
        url: `/admin/keys/${keyId}`,
        headers: { authorization: 'Bearer wrong' },
      });
      assert.equal(refused.statusCode, 401);

      const reader = await app.inject({
        method: 'GET',
        url: '/v1/audit-log',
        headers: { 'x-service-api-key': ws.json().api_key },
      });
      assert.equal(reader.statusCode, 200, reader.body);
      const entries = reader.json().data;
      assert.deepEqual(
        entries.map((e: Record<string, any>) => [
          e.action,
          e.actor,
          e.resource_type,
          e.resource_id,
          e.status_code,
        ]),
        [
          ['admin.api_key.delete', { type: 'system', id: null, label: 'admin token' }, 'api_key', keyId, 204],
          ['admin.api_key.create', { type: 'system', id: null, label: 'admin token' }, 'api_key', keyId, 201],
          [
            'admin.workspace.create',
            { type: 'system', id: null, label: 'admin token' },
            'workspace',
            wsId,
            201,
          ],
        ],
      );
      assert.equal(entries[0].user_agent, 'ops-script/1');
      assert.equal(
        (
          await app.inject({
            method: 'GET',
            url: '/v1/audit-log?actor_type=system',
            headers: { 'x-service-api-key': ws.json().api_key },
          })
        ).json().pagination.count,
        3,
      );
    } finally {
      await app.close();
    }
  });
});

describe('audit log: console users', () => {
  test('a session write names the user; a viewer may read the log, and its refused write is recorded as 403', async () => {
    const api = await newWorkspace('audit');
    const reviewer = await sessionClient(api, 'reviewer');
    const viewer = await sessionClient(api, 'viewer');
    const created = await reviewer.post('/v1/cases', smallCase('By a reviewer'));
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const refused = await viewer.post('/v1/cases', smallCase('By a viewer'));
    assert.equal(refused.status, 403);
    const noCsrf = await reviewer.post('/v1/cases', smallCase('No token'), { 'x-csrf-token': 'wrong' });
    assert.equal(noCsrf.status, 403);

    const read = await viewer.get('/v1/audit-log?actor_type=user');
    assert.equal(read.status, 200, JSON.stringify(read.body));
    const writes = read.body.data.filter((e: { action: string }) => e.action === 'case.create');
    assert.deepEqual(
      writes.map((e: Record<string, any>) => [e.actor, e.status_code, e.user_agent]),
      [
        [{ type: 'user', id: reviewer.user.id, label: reviewer.user.email }, 403, 'audit-test/1.0'],
        [{ type: 'user', id: viewer.user.id, label: viewer.user.email }, 403, 'audit-test/1.0'],
        [{ type: 'user', id: reviewer.user.id, label: reviewer.user.email }, 201, 'audit-test/1.0'],
      ],
    );
    assert.match(writes[0].details.error, /CSRF/);
    assert.match(writes[1].details.error, /viewer/);
    assert.equal(writes[2].resource_id, created.body.id);
    // nothing was created by the refused requests
    const cases = await api.get('/v1/cases');
    assert.deepEqual(
      cases.body.data.map((c: { name: string }) => c.name),
      ['By a reviewer'],
    );
  });

  test('reviews, notes, comments and activities made from a session say who made them', async () => {
    const api = await newWorkspace('audit');
    const reviewer = await sessionClient(api, 'reviewer', 'Grace');
    const me = {
      id: reviewer.user.id,
      first_name: 'Grace',
      last_name: 'Auditor',
      email: reviewer.user.email,
    };
    const kase = (await reviewer.post('/v1/cases', smallCase())).body;

    const review = await reviewer.post(`/v1/cases/${kase.id}/reviews`, {
      status: 'approved',
      comment: 'fine',
    });
    assert.equal(review.status, 201, JSON.stringify(review.body));
    assert.equal(review.body.reviewer_type, 'user');
    assert.deepEqual(review.body.user, me);
    const { ctx } = await getHarness();
    const stored = await ctx.db
      .selectFrom('case_reviews')
      .select(['reviewer_type', 'user_id'])
      .where('id', '=', review.body.id)
      .executeTakeFirstOrThrow();
    assert.deepEqual(stored, { reviewer_type: 'user', user_id: me.id });

    const note = await reviewer.post('/v1/notes', { case_id: kase.id, content: 'Looked at the registry' });
    assert.equal(note.status, 201, JSON.stringify(note.body));
    assert.equal(note.body.author_type, 'user');
    assert.deepEqual(note.body.author, me);
    const comment = await reviewer.post(`/v1/notes/${note.body.id}/comments`, { content: 'and the UBOs' });
    assert.equal(comment.status, 201, JSON.stringify(comment.body));
    assert.equal(comment.body.author_type, 'user');
    assert.deepEqual(comment.body.author, me);
    const listed = (await api.get(`/v1/cases/${kase.id}/notes`)).body;
    const listedNote = (listed.data ?? listed).find((n: { id: string }) => n.id === note.body.id);
    assert.deepEqual(listedNote.author, me);
    assert.deepEqual(listedNote.comments[0].author, me);

    // the same through an API key stays `api` with no author
    const byKey = await api.post('/v1/notes', { case_id: kase.id, content: 'by the integration' });
    assert.equal(byKey.body.author_type, 'api');
    assert.equal(byKey.body.author, null);
    const keyReview = await api.post(`/v1/cases/${kase.id}/reviews`, { status: 'rejected', comment: 'no' });
    assert.equal(keyReview.body.reviewer_type, 'api');
    assert.equal(keyReview.body.user, null);

    const activities = (await api.get(`/v1/activities?case_id=${kase.id}&sort=created_at`)).body.data;
    const created = activities.find((a: { type: string }) => a.type === 'user__created__case');
    assert.equal(created.author_type, 'user');
    assert.equal(created.author_id, me.id);
    assert.deepEqual(created.user, me);
    const reviews = activities.filter((a: { type: string }) => a.type.endsWith('__confirmed_review__case'));
    assert.deepEqual(
      reviews.map((a: Record<string, unknown>) => [
        a.author_type,
        (a.user as { id: string } | null)?.id ?? null,
      ]),
      [
        ['user', me.id],
        ['api', null],
      ],
    );
  });
});

describe('audit log: console sign-in and sign-out', () => {
  test('a failed sign-in, a sign-in and a sign-out are entries of the user, with IP and user agent', async () => {
    const api = await newWorkspace('audit');
    const { app, ctx } = await getHarness();
    const user = await createConsoleUser(ctx, api.workspaceId, { role: 'viewer' });
    const ua = { 'user-agent': 'browser/1' };
    const wrong = await app.inject({
      method: 'POST',
      url: '/console/api/login',
      payload: { email: user.email, password: 'not-it' },
      headers: ua,
    });
    assert.equal(wrong.statusCode, 401);
    const headers = await signInHeaders(app, user.email, user.password);
    const out = await app.inject({
      method: 'POST',
      url: '/console/api/logout',
      headers: { ...headers, ...ua },
    });
    assert.equal(out.statusCode, 204);

    const entries = (await api.get(`/v1/audit-log?actor_id=${user.id}`)).body.data;
    assert.deepEqual(
      entries.map((e: Record<string, any>) => [
        e.action,
        e.status_code,
        e.actor,
        e.resource_type,
        e.resource_id,
      ]),
      [
        ['console.logout', 204, { type: 'user', id: user.id, label: user.email }, 'user', user.id],
        ['console.login', 200, { type: 'user', id: user.id, label: user.email }, 'user', user.id],
        ['console.login_failed', 401, { type: 'user', id: user.id, label: user.email }, 'user', user.id],
      ],
    );
    assert.equal(entries[2].user_agent, 'browser/1');
    assert.equal(entries[2].ip, '127.0.0.1');
    assert.ok(entries[2].details.reason);
    assert.equal(entries[1].details.session_id, entries[0].details.session_id);
  });
});

describe('audit log: checks reviewed from a session', () => {
  let api: Client;
  before(async () => {
    const { ctx } = await getHarness();
    await eventually(async () => ctx.screening?.available, 120_000);
    api = await newWorkspace('audit-aml');
  });

  test('AML hits and the check reviewed by a console user name the user (reviewer_type user)', async () => {
    const reviewer = await sessionClient(api, 'reviewer', 'Alan');
    const me = { id: reviewer.user.id, first_name: 'Alan', last_name: 'Auditor', email: reviewer.user.email };
    const kase = await api.post('/v1/cases', {
      name: 'AML audit',
      companies: [{ name: 'Audit Widgets SAS', country: 'FR' }],
      individuals: [
        {
          first_name: 'Elvis',
          middle_name: 'Angus',
          last_name: 'Logan Morey',
          birth_date: '1963-07-28',
          nationalities: ['BZ'],
          relations: [{ roles: ['legal_representative'] }],
        },
      ],
    });
    assert.equal(kase.status, 201, JSON.stringify(kase.body));
    const started = await api.post('/v1/checks/aml', { individual_id: kase.body.individuals[0].id });
    assert.equal(started.status, 201, JSON.stringify(started.body));
    const check = await eventually(async () => {
      const res = await api.get(`/v1/checks/aml/${started.body.id}`);
      return res.body.status !== 'processing' ? res.body : undefined;
    });
    assert.equal(check.status, 'need_review');
    const hitIds = check.data.hits.map((h: { id: string }) => h.id);

    const hits = await reviewer.patch(`/v1/checks/aml/${check.id}/hits/review`, {
      action: 'confirm',
      hit_ids: hitIds,
      comment: 'same person',
    });
    assert.equal(hits.status, 200, JSON.stringify(hits.body));
    for (const h of hits.body.data.hits) {
      assert.equal(h.review.reviewer_type, 'user');
      assert.deepEqual(h.review.user, me);
    }
    const reviewed = await reviewer.patch(`/v1/checks/aml/${check.id}/review`, {
      action: 'reject',
      comment: 'listed',
    });
    assert.equal(reviewed.status, 200, JSON.stringify(reviewed.body));
    assert.equal(reviewed.body.status, 'rejected');
    assert.equal(reviewed.body.data.review.reviewer_type, 'user');
    assert.deepEqual(reviewed.body.data.review.user, me);

    const activities = (await api.get(`/v1/activities?case_id=${kase.body.id}`)).body.data;
    const rejected = activities.find((a: { type: string }) => a.type === 'user__rejected__check');
    assert.equal(rejected.author_type, 'user');
    assert.deepEqual(rejected.user, me);
    const confirmed = activities.find((a: { type: string }) => a.type === 'user__confirmed__aml_hit');
    assert.deepEqual(confirmed.user, me);
    assert.equal(confirmed.context.aml_hit_ids, hitIds.join(','));

    const log = (await api.get(`/v1/audit-log?resource_type=check&resource_id=${check.id}`)).body.data;
    assert.deepEqual(
      log.map((e: Record<string, any>) => [e.action, e.actor.type, e.actor.id, e.status_code]),
      [
        ['check.aml.review', 'user', me.id, 200],
        ['check.aml.hit.review', 'user', me.id, 200],
        ['check.aml.create', 'api_key', log[2]?.actor.id, 201],
      ],
    );
  });
});

describe('GET /v1/audit-log: filters and paging', () => {
  test('filters by actor, resource, action and time; pages newest first; malformed filters are 400 naming the field', async () => {
    const api = await newWorkspace('audit');
    const reviewer = await sessionClient(api, 'reviewer');
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await api.post('/v1/cases', smallCase(`Key ${i}`))).body.id);
    const byUser = (await reviewer.post('/v1/cases', smallCase('User'))).body.id;
    await api.patch(`/v1/cases/${ids[0]}`, { name: 'Renamed' });
    const key = await keyIdOf(api.workspaceId);

    const get = async (q: string) => {
      const res = await api.get(`/v1/audit-log${q}`);
      assert.equal(res.status, 200, `${q}: ${JSON.stringify(res.body)}`);
      return res.body;
    };
    // 4 key writes, the reviewer's sign-in (recorded by the console sign-in route) and case
    assert.equal((await get('')).pagination.count, 6);
    assert.deepEqual(
      (await get('?actor_type=user')).data.map((e: { action: string; resource_id: string }) => [
        e.action,
        e.resource_id,
      ]),
      [
        ['case.create', byUser],
        ['console.login', reviewer.user.id],
      ],
    );
    assert.equal((await get(`?actor_id=${key.id}`)).pagination.count, 4);
    assert.equal((await get(`?actor_id=${reviewer.user.id}`)).pagination.count, 2);
    assert.deepEqual(
      (await get(`?resource_type=case&resource_id=${ids[0]}`)).data.map((e: { action: string }) => e.action),
      ['case.update', 'case.create'],
    );
    assert.equal((await get('?action=case.update')).pagination.count, 1);
    assert.equal((await get('?action.in=case.update,case.create')).pagination.count, 5);

    // paging: newest first, pages do not overlap
    const all = (await get('?limit=6')).data.map((e: { id: string }) => e.id);
    const p1 = await get('?limit=2&page=1');
    const p2 = await get('?limit=2&page=2');
    const p3 = await get('?limit=2&page=3');
    assert.deepEqual(
      [...p1.data, ...p2.data, ...p3.data].map((e: { id: string }) => e.id),
      all,
    );
    assert.deepEqual(p1.pagination, { page: 1, limit: 2, count: 6 });
    const oldestFirst = (await get('?sort=occurred_at&limit=6')).data.map((e: { id: string }) => e.id);
    assert.deepEqual(oldestFirst, [...all].reverse());
    const times = (await get('?limit=6')).data.map((e: { occurred_at: string }) => Date.parse(e.occurred_at));
    assert.deepEqual(
      times,
      [...times].sort((a, b) => b - a),
    );

    // time window: everything is from today, nothing from tomorrow
    const { ctx } = await getHarness();
    const newest = (await get('?limit=1')).data[0];
    assert.equal(
      (await get(`?occurred_at.lte=${encodeURIComponent(newest.occurred_at)}`)).pagination.count,
      6,
    );
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    assert.equal((await get(`?occurred_at.gte=${tomorrow}`)).pagination.count, 0);
    // an entry moved an hour back is outside a window starting half an hour ago
    await ctx.db
      .updateTable('audit_log')
      .set({ occurred_at: new Date(Date.now() - 3_600_000) })
      .where('workspace_id', '=', api.workspaceId)
      .where('resource_id', '=', byUser)
      .execute();
    const since = new Date(Date.now() - 1_800_000).toISOString();
    const recent = await get(`?occurred_at.gte=${encodeURIComponent(since)}`);
    assert.equal(recent.pagination.count, 5);
    assert.ok(recent.data.every((e: { resource_id: string }) => e.resource_id !== byUser));

    for (const [q, field] of [
      ['actor_type=robot', 'actor_type'],
      ['actor_id=nope', 'actor_id'],
      ['occurred_at.gte=yesterday', 'occurred_at.gte'],
      ['occurred_at.between=2020-01-01', 'occurred_at.between'],
      ['sort=action', 'sort'],
      ['limit=0', 'limit'],
      ['page=abc', 'page'],
      ['colour=red', 'colour'],
    ]) {
      const res = await api.get(`/v1/audit-log?${q}`);
      assert.equal(res.status, 400, `${q}: ${res.status} ${JSON.stringify(res.body)}`);
      assert.match(JSON.stringify(res.body), new RegExp(field.replace('.', '\\.')), q);
    }
  });
});

describe('lookups by resource, action, status and author (the indexes of migration 0033)', () => {
  test('the audit log by resource id alone, action prefix and status, and the activities of one author, in both orders', async () => {
    const api = await newWorkspace('audit');
    const reviewer = await sessionClient(api, 'reviewer', 'Hedy');
    const byUser = [
      (await reviewer.post('/v1/cases', smallCase('First by a reviewer'))).body,
      (await reviewer.post('/v1/cases', smallCase('Second by a reviewer'))).body,
    ];
    const byKey = (await api.post('/v1/cases', smallCase('By the integration'))).body;
    assert.equal(
      (await reviewer.post(`/v1/cases/${byUser[0].id}/reviews`, { status: 'approved' })).status,
      201,
    );
    assert.equal((await api.post(`/v1/cases/${byKey.id}/reviews`, { status: 'rejected' })).status, 201);
    assert.equal((await api.patch(`/v1/cases/${byUser[0].id}`, { name: 'First, renamed' })).status, 200);
    assert.equal((await api.post('/v1/cases', { name: 'x', colour: 'red' })).status, 400);
    assert.equal((await reviewer.post('/v1/cases', { name: 42 })).status, 400);

    type Entry = { id: string; action: string; resource_id: string | null; status_code: number };
    const all = await api.get('/v1/audit-log?limit=100');
    // the whole log on one page (the filters below are checked against it)
    assert.ok(all.body.pagination.count <= 100, `${all.body.pagination.count} entries`);
    const everything = all.body.data as Entry[];
    // its page size is every list's: 1 to 100
    const tooMany = await api.get('/v1/audit-log?limit=101');
    assert.equal(tooMany.status, 400);
    assert.equal(tooMany.body.details[0].path, 'limit');
    const ids = (list: Entry[]) => list.map((e) => e.id);
    const audit = async (q: string) => {
      const res = await api.get(`/v1/audit-log?${q}`);
      assert.equal(res.status, 200, `${q}: ${JSON.stringify(res.body)}`);
      return res.body as { data: Entry[]; pagination: { count: number } };
    };
    // each filter against the unfiltered log filtered here, newest first and oldest first
    const expectations: [string, (e: Entry) => boolean][] = [
      [`resource_id=${byUser[0].id}`, (e) => e.resource_id === byUser[0].id],
      [`resource_id=${byKey.id}`, (e) => e.resource_id === byKey.id],
      ['action.like=case.review%25', (e) => e.action.startsWith('case.review')],
      ['action.like=case.%25', (e) => e.action.startsWith('case.')],
      ['action=case.update', (e) => e.action === 'case.update'],
      ['status_code=400', (e) => e.status_code === 400],
      ['status_code.in=400,422', (e) => e.status_code === 400 || e.status_code === 422],
    ];
    for (const [q, keep] of expectations) {
      const want = everything.filter(keep);
      assert.ok(want.length > 0, q);
      const newest = await audit(q);
      assert.deepEqual(ids(newest.data), ids(want), q);
      assert.equal(newest.pagination.count, want.length, q);
      assert.deepEqual(
        ids((await audit(`${q}&sort=occurred_at`)).data),
        ids(want).reverse(),
        `${q} oldest first`,
      );
    }
    assert.deepEqual(
      (await audit(`resource_id=${byUser[0].id}`)).data.map((e) => e.action),
      ['case.update', 'case.review.create', 'case.create'],
    );
    assert.equal((await audit('status_code=400')).data.length, 2);
    assert.equal((await audit('action.like=case.review.create_')).pagination.count, 0);

    // the reviewer's activities across the workspace, as the unfiltered list has them
    type Activity = { id: string; type: string; author_id: string | null; case_id: string };
    const activities = async (q: string) => {
      const res = await api.get(`/v1/activities?${q}`);
      assert.equal(res.status, 200, `${q}: ${JSON.stringify(res.body)}`);
      return res.body as { data: Activity[]; pagination: { count: number } };
    };
    for (const sort of ['created_at', 'created_at.desc']) {
      const all = (await activities(`sort=${sort}&limit=100`)).data;
      const mine = all.filter((a) => a.author_id === reviewer.user.id);
      // both cases created (with their company and individual), then the review, all the reviewer's
      assert.equal(mine.filter((a) => a.type === 'user__created__case').length, 2, sort);
      assert.deepEqual(new Set(mine.map((a) => a.case_id)), new Set(byUser.map((c) => c.id)), sort);
      const review = ['user__confirmed_review__case', byUser[0].id];
      const newestFirst = sort === 'created_at.desc';
      assert.deepEqual(
        newestFirst ? [mine[0].type, mine[0].case_id] : [mine.at(-1)?.type, mine.at(-1)?.case_id],
        review,
      );
      assert.deepEqual((newestFirst ? mine.at(-1) : mine[0])?.type, 'user__created__case', sort);
      const filtered = await activities(`author_id=${reviewer.user.id}&sort=${sort}`);
      assert.deepEqual(
        filtered.data.map((a) => a.id),
        mine.map((a) => a.id),
        sort,
      );
      assert.equal(filtered.pagination.count, mine.length);
    }
  });
});
