import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildApp } from '../src/http/app.ts';
import { getHarness } from './helpers/harness.ts';

// The operator's /admin endpoints: a workspace made with its first key, which the operator can
// revoke by the id the answer gives (without it, the first key could only be revoked from the
// console or the CLI).

describe('admin: workspaces and their keys', () => {
  test('creating a workspace answers its first key once, with the id that revokes it', async () => {
    const { ctx } = await getHarness();
    const app = await buildApp({ ...ctx, config: { ...ctx.config, adminToken: 'ws-admin-token' } });
    try {
      const auth = { authorization: 'Bearer ws-admin-token' };
      const created = await app.inject({
        method: 'POST',
        url: '/admin/workspaces',
        payload: { name: 'Operator made' },
        headers: auth,
      });
      assert.equal(created.statusCode, 201, created.body);
      const ws = created.json();
      assert.deepEqual(Object.keys(ws).sort(), ['api_key', 'api_key_id', 'created_at', 'id', 'name']);
      assert.match(ws.api_key_id, /^[0-9a-f-]{36}$/);
      const ping = () =>
        app.inject({ method: 'GET', url: '/v1/ping', headers: { 'x-service-api-key': ws.api_key } });
      assert.equal((await ping()).json().workspace_name, 'Operator made');

      // the stored key is that id's, and only the hash is kept
      const row = await ctx.db
        .selectFrom('api_keys')
        .select(['workspace_id', 'key_hash'])
        .where('id', '=', ws.api_key_id)
        .executeTakeFirstOrThrow();
      assert.equal(row.workspace_id, ws.id);
      assert.ok(!row.key_hash.includes(ws.api_key));

      const revoked = await app.inject({
        method: 'DELETE',
        url: `/admin/keys/${ws.api_key_id}`,
        headers: auth,
      });
      assert.equal(revoked.statusCode, 204, revoked.body);
      assert.equal((await ping()).statusCode, 401);
    } finally {
      await app.close();
    }
  });
});
