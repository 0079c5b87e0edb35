import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, test } from 'node:test';
import { sql } from 'kysely';
import { buildApp } from '../src/http/app.ts';
import { canonicalJson } from '../src/shared/canonical-json.ts';
import { clientFor, getHarness, newWorkspace, sampleCaseBody } from './helpers/harness.ts';
import { portalCase } from './helpers/portal.ts';

describe('HTTP conventions', () => {
  test('authentication: missing, unknown and revoked keys are 401 with the error body; query-string keys are ignored', async () => {
    const { app, ctx } = await getHarness();
    const api = await newWorkspace();
    const none = await app.inject({ method: 'GET', url: '/v1/ping' });
    assert.equal(none.statusCode, 401);
    const body = none.json();
    assert.equal(body.code, 'UNAUTHORIZED');
    assert.equal(body.status_code, 401);
    assert.ok(Date.parse(body.timestamp));
    assert.match(body.message, /X-SERVICE-API-KEY/);
    assert.equal(
      (await app.inject({ method: 'GET', url: '/v1/ping', headers: { 'x-service-api-key': 'vk_nope' } }))
        .statusCode,
      401,
    );
    assert.equal((await app.inject({ method: 'GET', url: `/v1/ping?api_key=${api.key}` })).statusCode, 401);
    const ping = await api.get('/v1/ping');
    assert.equal(ping.status, 200);
    assert.match(ping.body.workspace_name, /^test-/);
    const { revokeApiKey } = await import('../src/workspaces/repository.ts');
    await revokeApiKey(ctx.db, api.key);
    assert.equal((await api.get('/v1/ping')).status, 401);
  });

  test('keys are stored hashed, never in clear', async () => {
    const { ctx } = await getHarness();
    const api = await newWorkspace();
    const rows = await ctx.db
      .selectFrom('api_keys')
      .selectAll()
      .where('workspace_id', '=', api.workspaceId)
      .execute();
    assert.equal(rows.length, 1);
    assert.notEqual(rows[0].key_hash, api.key);
    assert.ok(!rows[0].key_hash.includes(api.key.slice(3)));
    assert.equal(rows[0].key_hash.length, 64);
  });

  test('malformed requests are 400 with the error body, unknown routes 404, request id echoed', async () => {
    const { app } = await getHarness();
    const api = await newWorkspace();
    const bad = await app.inject({
      method: 'POST',
      url: '/v1/cases',
      headers: {
        'x-service-api-key': api.key,
        'content-type': 'application/json',
        'x-request-id': 'req-123',
      },
      payload: '{"name": ',
    });
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json().code, 'BAD_REQUEST');
    assert.equal(bad.headers['x-request-id'], 'req-123');
    // the API's answers are kept by no cache: success and error alike
    assert.equal(bad.headers['cache-control'], 'no-store');
    const read = await app.inject({
      method: 'GET',
      url: '/v1/cases',
      headers: { 'x-service-api-key': api.key },
    });
    assert.equal(read.statusCode, 200);
    assert.equal(read.headers['cache-control'], 'no-store');
    const wrongType = await api.post('/v1/cases', { name: 42, status: 'weird' });
    assert.equal(wrongType.status, 400);
    const paths = wrongType.body.details.map((d: any) => d.path).sort();
    assert.deepEqual(paths, ['name', 'status']);
    assert.match(wrongType.body.details.find((d: any) => d.path === 'status').message, /draft, open/);
    const missing = await app.inject({
      method: 'GET',
      url: '/v1/nothing-here',
      headers: { 'x-service-api-key': api.key },
    });
    assert.equal(missing.statusCode, 404);
    assert.equal(missing.json().code, 'NOT_FOUND');
    assert.equal((await api.get('/v1/cases/00000000-0000-4000-8000-000000000000')).body.code, 'NOT_FOUND');
  });

  test('Idempotency-Key: a retry returns the first response and writes nothing; another body is a 409', async () => {
    const { ctx } = await getHarness();
    const api = await newWorkspace();
    const headers = { 'idempotency-key': 'create-acme-1' };
    const first = await api.post('/v1/cases', sampleCaseBody('idem-1'), headers);
    assert.equal(first.status, 201);
    const again = await api.post('/v1/cases', sampleCaseBody('idem-1'), headers);
    assert.equal(again.status, 201);
    assert.equal(again.body.id, first.body.id);
    assert.equal(again.headers['idempotent-replayed'], 'true');
    const cases = await ctx.db
      .selectFrom('cases')
      .select('id')
      .where('workspace_id', '=', api.workspaceId)
      .execute();
    assert.equal(cases.length, 1);
    // the same body with its keys in another order is the same request: replayed, not a 409
    const body = sampleCaseBody('idem-1') as Record<string, unknown>;
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    assert.notEqual(JSON.stringify(reordered), JSON.stringify(body));
    const shuffled = await api.post('/v1/cases', reordered, headers);
    assert.equal(shuffled.status, 201, JSON.stringify(shuffled.body));
    assert.equal(shuffled.body.id, first.body.id);
    assert.equal(shuffled.headers['idempotent-replayed'], 'true');
    const other = await api.post('/v1/cases', { name: 'different' }, headers);
    assert.equal(other.status, 409);
    assert.equal(other.body.code, 'CONFLICT');
    // keys are per workspace
    const api2 = await newWorkspace();
    assert.equal((await api2.post('/v1/cases', { name: 'different' }, headers)).status, 201);
    // a 4xx answer is replayed too; a fresh key writes
    const tooLong = await api.post('/v1/cases', { name: 'long key' }, { 'idempotency-key': 'k'.repeat(256) });
    assert.equal(tooLong.status, 400);
    assert.deepEqual(tooLong.body.details, [
      { path: 'Idempotency-Key', message: 'Idempotency-Key must be at most 255 characters' },
    ]);
    // a blank key (empty or spaces) is refused: it was one key shared by every such request
    for (const blank of ['', '   ']) {
      const res = await api.post('/v1/cases', { name: 'blank key' }, { 'idempotency-key': blank });
      assert.equal(res.status, 400, `"${blank}": ${JSON.stringify(res.body)}`);
      assert.deepEqual(res.body.details, [
        {
          path: 'Idempotency-Key',
          message: 'Idempotency-Key must not be blank: send a unique value per request, or no header',
        },
      ]);
    }
    // the header twice: Node would join it into one key, 'twice-1, twice-2', that neither meant
    const casesOf = async () =>
      (await ctx.db.selectFrom('cases').select('id').where('workspace_id', '=', api.workspaceId).execute())
        .length;
    const before = await casesOf();
    const twice = await api.post('/v1/cases', { name: 'two keys' }, {
      'idempotency-key': ['twice-1', 'twice-2'],
    } as never);
    assert.equal(twice.status, 400, JSON.stringify(twice.body));
    assert.deepEqual(twice.body.details, [
      {
        path: 'Idempotency-Key',
        message: 'Idempotency-Key was sent 2 times with different values: send it once',
      },
    ]);
    assert.equal(await casesOf(), before);
    // the same value twice (a proxy repeating it) is that one key: a retry with it once replays
    const same = await api.post('/v1/cases', { name: 'same key twice' }, {
      'idempotency-key': ['same-1', 'same-1'],
    } as never);
    assert.equal(same.status, 201, JSON.stringify(same.body));
    const once = await api.post('/v1/cases', { name: 'same key twice' }, { 'idempotency-key': 'same-1' });
    assert.equal(once.status, 201);
    assert.equal(once.body.id, same.body.id);
    assert.equal(once.headers['idempotent-replayed'], 'true');
    const invalid = await api.post('/v1/cases', { name: '' }, { 'idempotency-key': 'bad-1' });
    assert.equal(invalid.status, 400);
  });

  test('Idempotency-Key after a crash: a change saved is never made again, a claim that wrote nothing is taken over', async () => {
    const { ctx } = await getHarness();
    const api = await newWorkspace();
    const cases = async () =>
      (await ctx.db.selectFrom('cases').select('id').where('workspace_id', '=', api.workspaceId).execute())
        .length;
    const headers = { 'idempotency-key': 'crash-after-commit' };
    // no external_id: nothing else would stop a second case
    const first = { name: 'crash-1', companies: [{ name: 'Main' }] };
    assert.equal((await api.post('/v1/cases', first, headers)).status, 201);
    // what a process killed after its commit and before it stored the answer leaves: the claim
    // without an answer, older than the 60 s a running request is given
    const lostAnswer = () =>
      ctx.db
        .updateTable('idempotency_keys')
        .set({ status_code: null, response_body: null, created_at: new Date(Date.now() - 120_000) })
        .where('workspace_id', '=', api.workspaceId)
        .where('key', '=', 'crash-after-commit')
        .execute();
    await lostAnswer();
    const retry = await api.post('/v1/cases', first, headers);
    assert.equal(retry.status, 409, JSON.stringify(retry.body));
    assert.match(retry.body.message, /saved its change but its answer was lost/);
    assert.equal(await cases(), 1, 'the case is not created twice');

    // a request that died before its change committed: its claim is taken over after 60 s
    const body = { name: 'crash-2', companies: [{ name: 'Main' }] };
    const hash = createHash('sha256')
      .update(`POST /v1/cases\n${canonicalJson(body)}`)
      .digest('hex');
    await ctx.db
      .insertInto('idempotency_keys')
      .values({
        workspace_id: api.workspaceId,
        key: 'crash-before-commit',
        request_hash: hash,
        // stamped by the database, as a real claim is: to the microsecond (a JS Date, to the
        // millisecond, hid that the takeover compared the two and never matched a real claim)
        created_at: sql<Date>`now() - interval '120.123456 seconds'`,
      })
      .execute();
    const taken = await api.post('/v1/cases', body, { 'idempotency-key': 'crash-before-commit' });
    assert.equal(taken.status, 201, JSON.stringify(taken.body));
    assert.equal(await cases(), 2);
    const replay = await api.post('/v1/cases', body, { 'idempotency-key': 'crash-before-commit' });
    assert.equal(replay.headers['idempotent-replayed'], 'true');
    assert.equal(replay.body.id, taken.body.id);
  });

  test('Idempotency-Key on an answer holding a secret shown once (API key, generated password, portal link): the secret is not kept, a retry is a 409 and makes nothing', async () => {
    const { ctx } = await getHarness();
    const api = await newWorkspace();
    const { caseId, contactId } = await portalCase(api, 'Secret answers');
    const requests: [string, Record<string, unknown>, string][] = [
      ['/v1/api-keys', { name: 'idempotent key' }, 'api_key'],
      ['/v1/users', { email: 'idem@example.com', role: 'viewer' }, 'password'],
      [`/v1/cases/${caseId}/share-client-portal-link`, { business_contact_id: contactId }, 'link'],
    ];
    for (const [path, body, field] of requests) {
      const headers = { 'idempotency-key': `secret ${path}` };
      const first = await api.post(path, body, headers);
      assert.equal(first.status, 201, JSON.stringify(first.body));
      const secret = first.body[field] as string;
      assert.ok(secret.length > 10, field);
      const stored = await ctx.db
        .selectFrom('idempotency_keys')
        .select(['status_code', 'response_body'])
        .where('workspace_id', '=', api.workspaceId)
        .where('key', '=', headers['idempotency-key'])
        .executeTakeFirstOrThrow();
      assert.deepEqual(stored, { status_code: 201, response_body: null }, path);
      const retry = await api.post(path, body, headers);
      assert.equal(retry.status, 409, JSON.stringify(retry.body));
      assert.equal(retry.body.code, 'CONFLICT');
      assert.match(retry.body.message, /held a secret that is shown only once and is not kept/);
      assert.ok(!JSON.stringify(retry.body).includes(secret));
    }
    // made once each: one key besides the workspace's own, one user, one live link
    const keys = await ctx.db
      .selectFrom('api_keys')
      .select('id')
      .where('workspace_id', '=', api.workspaceId)
      .where('name', '=', 'idempotent key')
      .execute();
    assert.equal(keys.length, 1);
    const users = await ctx.db
      .selectFrom('users')
      .select('id')
      .where('workspace_id', '=', api.workspaceId)
      .where('email', '=', 'idem@example.com')
      .execute();
    assert.equal(users.length, 1);
    // an answer without a secret is still kept and replayed (the case list's own test above)
    const created = await api.post('/v1/cases', { name: 'kept' }, { 'idempotency-key': 'no secret' });
    const replayed = await api.post('/v1/cases', { name: 'kept' }, { 'idempotency-key': 'no secret' });
    assert.equal(replayed.headers['idempotent-replayed'], 'true');
    assert.equal(replayed.body.id, created.body.id);
  });

  test('a method a path does not take is a 405 with Allow and the error body; an unknown path stays a 404', async () => {
    const api = await newWorkspace();
    const kase = (await api.post('/v1/cases', { name: 'Methods' })).body;
    const put = await api.put(`/v1/cases/${kase.id}`, { name: 'x' });
    assert.equal(put.status, 405, JSON.stringify(put.body));
    assert.equal(put.body.code, 'METHOD_NOT_ALLOWED');
    assert.equal(put.headers.allow, 'GET, HEAD, PATCH, DELETE');
    assert.equal(
      put.body.message,
      `PUT is not a method of /v1/cases/${kase.id}: it takes GET, HEAD, PATCH, DELETE`,
    );
    // reading a check without its type in the path: the answer says how it is read
    const checkId = '0b0b0b0b-0000-4000-8000-000000000001';
    const byId = await api.get(`/v1/checks/${checkId}`);
    assert.equal(byId.status, 405);
    assert.match(
      byId.body.message,
      new RegExp(
        `^GET is not a method of /v1/checks/${checkId}: it takes .+\\. A check is read with its type in the path: GET /v1/checks/\\{type\\}/\\{id\\}`,
      ),
    );
    const del = await api.delete('/v1/ping');
    assert.equal(del.status, 405);
    assert.match(String(del.headers.allow), /^GET, HEAD/);
    const unknown = await api.get('/v1/nothing-here');
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.code, 'NOT_FOUND');
    // nothing was changed by the refused PUT
    assert.equal((await api.get(`/v1/cases/${kase.id}`)).body.name, 'Methods');
  });

  test('rate limit per workspace: 429 with Retry-After and the error body, whichever of its keys', async () => {
    const { ctx } = await getHarness();
    const limited = await buildApp({ ...ctx, config: { ...ctx.config, rateLimitPerMinute: 3 } });
    const api = await newWorkspace();
    const client = clientFor(limited, api.key, api.workspaceId);
    for (let i = 0; i < 3; i++) {
      const ok = await client.get('/v1/ping');
      assert.equal(ok.status, 200);
      // the counters the document declares on every /v1 answer
      assert.equal(ok.headers['x-ratelimit-limit'], '3');
      assert.equal(ok.headers['x-ratelimit-remaining'], String(2 - i));
      assert.ok(Number(ok.headers['x-ratelimit-reset']) > 0);
      assert.match(String(ok.headers['x-request-id']), /./);
    }
    const res = await client.get('/v1/ping');
    assert.equal(res.status, 429);
    assert.equal(res.body.code, 'TOO_MANY_REQUESTS');
    assert.ok(Number(res.headers['retry-after']) > 0);
    assert.match(String(res.headers['x-request-id']), /./);
    // and the document says so, for a generated client to read them
    const doc = (await limited.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    const answers = doc.paths['/v1/ping'].get.responses;
    assert.deepEqual(Object.keys(answers['200'].headers).sort(), [
      'x-ratelimit-limit',
      'x-ratelimit-remaining',
      'x-ratelimit-reset',
      'x-request-id',
    ]);
    const retryAfter = answers['429'].headers['retry-after'].$ref.split('/').pop();
    assert.equal(doc.components.headers[retryAfter].required, true);
    assert.equal(doc.components.headers[retryAfter].schema.type, 'integer');
    const other = await newWorkspace();
    assert.equal((await clientFor(limited, other.key, other.workspaceId).get('/v1/ping')).status, 200);
    // another key of the same workspace shares its count: more keys are not more requests
    const { createApiKey } = await import('../src/workspaces/repository.ts');
    const second = await createApiKey(ctx.db, api.workspaceId);
    assert.equal((await clientFor(limited, second.api_key, api.workspaceId).get('/v1/ping')).status, 429);
    await limited.close();
  });

  test('rate limit: requests the validation refuses count too, and are refused with 429 past the limit', async () => {
    const { ctx } = await getHarness();
    const limited = await buildApp({ ...ctx, config: { ...ctx.config, rateLimitPerMinute: 3 } });
    const api = await newWorkspace();
    const client = clientFor(limited, api.key, api.workspaceId);
    for (let i = 0; i < 3; i++) assert.equal((await client.get('/v1/cases?limit=101')).status, 400);
    const ping = await client.get('/v1/ping');
    assert.equal(ping.status, 429, JSON.stringify(ping.body));
    const invalid = await client.get('/v1/cases?limit=101');
    assert.equal(invalid.status, 429, JSON.stringify(invalid.body));
    assert.equal(invalid.body.code, 'TOO_MANY_REQUESTS');
    const badBody = await client.post('/v1/cases', { name: 42 });
    assert.equal(badBody.status, 429, JSON.stringify(badBody.body));
    await limited.close();
  });

  test('OpenAPI document lists every route with its errors; docs page and healthz answer', async () => {
    const { app } = await getHarness();
    const doc = (await app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    assert.equal(doc.openapi, '3.1.0');
    const routes = app.printRoutes({ commonPrefix: false });
    for (const path of [
      '/v1/cases',
      '/v1/cases/{id}',
      '/v1/companies',
      '/v1/individuals',
      '/v1/cases/{caseId}/relations',
      '/v1/checks',
      '/v1/workspace/settings',
    ]) {
      assert.ok(doc.paths[path], `${path} documented`);
    }
    assert.ok(doc.paths['/v1/cases'].post.responses['400']);
    assert.ok(doc.paths['/v1/cases/{id}'].get.responses['404']);
    assert.equal(doc.components.securitySchemes.ApiKey.name, 'X-SERVICE-API-KEY');
    assert.ok(routes.length > 0);
    const docs = await app.inject({ method: 'GET', url: '/docs/' });
    assert.ok([200, 302].includes(docs.statusCode));
    assert.equal((await app.inject({ method: 'GET', url: '/healthz' })).json().status, 'ok');
  });

  test('workspace settings: read defaults, deep-merge a patch, reject unknown fields', async () => {
    const api = await newWorkspace();
    const s = await api.get('/v1/workspace/settings');
    assert.equal(s.body.case_review.comment_mandatory, false);
    assert.equal(s.body.case_review.frequency_in_months.high, 12);
    const p = await api.patch('/v1/workspace/settings', {
      case_review: { frequency_in_months: { high: 6 } },
    });
    assert.equal(p.body.case_review.frequency_in_months.high, 6);
    assert.equal(p.body.case_review.frequency_in_months.low, 36);
    assert.equal((await api.patch('/v1/workspace/settings', { case_review: { colour: 'red' } })).status, 400);
    const other = await newWorkspace();
    assert.equal((await other.get('/v1/workspace/settings')).body.case_review.frequency_in_months.high, 12);
  });
});

describe('workspace check settings', () => {
  test('are validated per type; bad values are 400 naming the field', async () => {
    const api = await newWorkspace();
    for (const [body, path] of [
      [{ checks: { ekyc: { automatic_approval: 'yes' } } }, 'checks.ekyc.automatic_approval'],
      [{ checks: { id_document: { vendor: 'veriff' } } }, 'checks.id_document.vendor'],
      [{ checks: { aml: { fuzziness: 2 } } }, 'checks.aml.fuzziness'],
      [{ checks: { limit: -1 } }, 'checks.limit'],
      [{ checks: { nonsense: {} } }, 'checks.nonsense'],
    ] as const) {
      const res = await api.patch('/v1/workspace/settings', body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.ok(
        res.body.details.some((d: any) => d.path === path),
        JSON.stringify(res.body.details),
      );
    }
    const ok = await api.patch('/v1/workspace/settings', {
      checks: { limit: 10, id_document: { vendor: 'idd_provider_2' } },
    });
    assert.equal(ok.status, 200);
    assert.equal(ok.body.checks.limit, 10);
    assert.equal(ok.body.checks.id_document.vendor, 'idd_provider_2');
  });
});
