import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadConfig } from '../src/config.ts';
import { buildApp } from '../src/http/app.ts';
import { getHarness, newWorkspace } from './helpers/harness.ts';

/** Clients of the reference product send their key in its header; exactly one key per request. */
describe('API key headers', () => {
  test("the reference's header works by default; two different keys are a 401", async () => {
    const { app } = await getHarness();
    const a = await newWorkspace('a');
    const b = await newWorkspace('b');
    const ping = (headers: Record<string, string | string[]>) =>
      app.inject({ method: 'GET', url: '/v1/ping', headers });

    const ref = await ping({ 'x-dotfile-api-key': a.key });
    assert.equal(ref.statusCode, 200, ref.body);
    assert.equal(ref.json().workspace_name, (await a.get('/v1/ping')).body.workspace_name);

    const same = await ping({ 'x-dotfile-api-key': a.key, 'x-service-api-key': a.key });
    assert.equal(same.statusCode, 200);

    const two = await ping({ 'x-dotfile-api-key': a.key, 'x-service-api-key': b.key });
    assert.equal(two.statusCode, 401);
    assert.equal(two.json().code, 'UNAUTHORIZED');
    assert.match(two.json().message, /Two different API keys/);
    const repeated = await ping({ 'x-service-api-key': [a.key, b.key] });
    assert.equal(repeated.statusCode, 401);

    assert.equal((await ping({ 'x-dotfile-api-key': 'vk_nope' })).statusCode, 401);
    assert.equal((await ping({})).statusCode, 401);
  });

  test('VERICASE_API_KEY_HEADERS chooses the accepted headers', async () => {
    const { ctx } = await getHarness();
    const a = await newWorkspace('a');
    const only = loadConfig({ VERICASE_API_KEY_HEADERS: 'X-SERVICE-API-KEY' }).apiKeyHeaders;
    assert.deepEqual(only, ['x-service-api-key']);
    assert.deepEqual(loadConfig({}).apiKeyHeaders, ['x-service-api-key', 'x-dotfile-api-key']);
    assert.throws(() => loadConfig({ VERICASE_API_KEY_HEADERS: 'bad header' }), /not a header name/);

    const strictApp = await buildApp({ ...ctx, config: { ...ctx.config, apiKeyHeaders: only } });
    try {
      const ref = await strictApp.inject({
        method: 'GET',
        url: '/v1/ping',
        headers: { 'x-dotfile-api-key': a.key },
      });
      assert.equal(ref.statusCode, 401);
      const own = await strictApp.inject({
        method: 'GET',
        url: '/v1/ping',
        headers: { 'x-service-api-key': a.key },
      });
      assert.equal(own.statusCode, 200);
    } finally {
      await strictApp.close();
    }
  });

  test('a trailing slash is the same route, never an empty id', async () => {
    const api = await newWorkspace();
    await api.post('/v1/cases', { name: 'slash' });
    const list = await api.get('/v1/cases/');
    assert.equal(list.status, 200, JSON.stringify(list.body));
    assert.equal(list.body.pagination.count, 1);
    const created = await api.post('/v1/cases/', { name: 'slash 2', external_id: 'x'.repeat(255) });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const byLongExternal = await api.get(`/v1/cases/${'x'.repeat(255)}/`);
    assert.equal(byLongExternal.status, 200, JSON.stringify(byLongExternal.body));
    assert.equal(byLongExternal.body.id, created.body.id);
  });
});
