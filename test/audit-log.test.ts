import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { createConsoleUser, type SignInHeaders, signInHeaders } from './helpers/console-session.ts';
import { type Client, eventually, getHarness, newWorkspace, type Res } from './helpers/harness.ts';

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
    assert.deepEqual(entries[2].details, { created_id: review.body.id });
    assert.equal(entries[1].details.error, bad.body.message);
    assert.equal(entries[0].details.error, missing.body.message);
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

describe('audit log: checks reviewed from a session', () => {
  let api: Client;
  before(async () => {
    const { ctx } = await getHarness();
    await eventually(async () => ctx.screening?.available, 30_000);
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
